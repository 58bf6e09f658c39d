"""Starting up: a missing `.context/` is one clear line (exit 2); the demo and a broken workspace open."""

from __future__ import annotations

import pytest
from ctxtui.cli import main
from ctxtui.demo import write_demo
from ctxtui.engine.fate import Fate

from tests.app.helpers import (
    SIZE,
    CapturedRun,
    assert_why_laid_out,
    make_app,
    rendered_lines,
    settle,
    small_workspace,
    status_text,
    table,
)
from tests.conftest import NOW

BROKEN_STEERING = "---\nname: [unclosed\ninclusion: always\n---\nBody B\n"
GOOD_STEERING = "---\nname: a\ninclusion: always\n---\nAlways answer in English.\n"


def test_missing_context_dir_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    runs = CapturedRun(monkeypatch)
    assert main([str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("ctxtui: ")
    assert f"no .context/ directory in {tmp_path}" in err and "ctxtui demo" in err
    assert "Traceback" not in err
    assert runs.apps == []  # no app was even built


def test_a_file_named_context_is_not_a_workspace(tmp_path, capsys, monkeypatch):
    runs = CapturedRun(monkeypatch)
    (tmp_path / ".context").write_text("not a folder", encoding="utf-8")
    assert main([str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert runs.apps == []


@pytest.mark.asyncio
async def test_the_cli_builds_the_app_for_a_workspace(tmp_path, monkeypatch):
    runs = CapturedRun(monkeypatch)
    project = small_workspace(tmp_path / "proj")
    assert main([str(project), "--budget", "3000", "--now", "2026-11-21T23:56:08Z"]) == 0
    app = runs.app
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.session.project == project.absolute()
        assert app.main.view.budget == 3000 and app.session.clock() == NOW
        assert "proj  budget 3,000" in status_text(app)


@pytest.mark.asyncio
async def test_the_demo_workspace_opens(tmp_path):
    project = write_demo(tmp_path / "acme-billing", NOW)
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.view is not None and not app.query_one("#banner").has_class("shown")
        counts = app.main.view.plan.counts()
        assert all(counts[fate.value] > 0 for fate in Fate)  # the demo shows every fate at 4,000
        assert {o.entry.section for o in app.main.view.plan.outcomes} >= {
            "tasks",
            "conventions",
            "decisions",
            "learnings",
            "steering",
        }
        assert table(app).total_count == len(app.main.view.plan.outcomes)
        assert "acme-billing  budget 4,000" in status_text(app)
        assert_why_laid_out(app)  # thresholds and the first selection arrive in one frame here


@pytest.mark.asyncio
async def test_ctxtui_demo_command_opens_the_demo(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    runs = CapturedRun(monkeypatch)
    assert main(["demo", "--budget", "2000"]) == 0
    app = runs.app
    assert app.session.project == tmp_path / "cache" / "ctxtui" / "demo"
    said = capsys.readouterr().err
    assert f"the workspace is {app.session.project}" in said and "written anew on each launch" in said
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.view.budget == 2000 and app.main.view.plan.outcomes


@pytest.mark.asyncio
async def test_a_malformed_steering_file_shows_the_banner_and_the_rest(tmp_path):
    project = small_workspace(tmp_path / "proj", **{"steering__a.md": GOOD_STEERING, "steering__b.md": BROKEN_STEERING})
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        banner = app.query_one("#banner")
        assert banner.has_class("shown") and banner.display
        text = str(banner.content)
        assert text.lstrip().startswith("⚠ 1 problem reading the inputs:")
        assert ".context/steering/b.md" in text
        assert any(o.entry.section == "tasks" and o.fate is Fate.INCLUDED for o in app.main.view.plan.outcomes)
        assert {o.reason.value for o in app.main.view.plan.outcomes if o.entry.section == "steering"} == {
            "steering-disabled"
        }


@pytest.mark.asyncio
async def test_many_problems_fit_the_banner_and_say_how_many_more(tmp_path):
    broken = {f"steering__broken-{n}.md": BROKEN_STEERING for n in range(5)}
    app = make_app(small_workspace(tmp_path / "proj", **broken), budget=4000, real_tokens=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        banner = app.query_one("#banner")
        assert banner.has_class("shown")
        drawn = [line[1:].rstrip() for line in rendered_lines(banner)]  # [1:]: the one-space left margin
        assert len(drawn) <= 4
        assert drawn[0].startswith("⚠ 5 problems reading the inputs:")
        assert drawn[1].startswith("  .context/steering/broken-0.md") and drawn[1].endswith("…")  # one row each
        assert drawn[-1] == "  … and 3 more (see `ctxtui pack` stderr)"
