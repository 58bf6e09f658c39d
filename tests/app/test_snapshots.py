"""SVG snapshots of every main screen state. Update with `pytest tests/app/test_snapshots.py --snapshot-update`.

Each app is deterministic: a fixed "now", `root_path="/project"`, no file watching,
and the o200k count waited for, so the status line is complete and stable.
"""

from __future__ import annotations

import pytest
from ctxtui.demo import write_demo
from ctxtui.engine.fate import Fate
from textual.widgets import TextArea

from tests.app.helpers import SIZE, cursor_to, make_app, settle, small_workspace, snapshot_ready
from tests.conftest import NOW, corpus_path, needs_corpus

BROKEN_STEERING = "---\nname: [unclosed\ninclusion: always\n---\nBody B\n"


async def ready(pilot) -> None:
    await pilot.pause()
    await snapshot_ready(pilot)


def press_then_ready(*keys: str):
    async def run_before(pilot) -> None:
        await ready(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        for area in pilot.app.screen.query(TextArea):
            area.cursor_blink = False  # a blinking cursor would make the SVG flaky
        await pilot.pause()

    return run_before


@needs_corpus
@pytest.mark.parametrize("budget", [300, 4000, 16000])
def test_dogfood(snap_compare, budget):
    assert snap_compare(make_app(corpus_path("ctx-dogfood"), budget=budget), terminal_size=SIZE, run_before=ready)


@needs_corpus
@pytest.mark.parametrize("budget", [1000, 4000, 32000])
def test_large(snap_compare, budget):
    assert snap_compare(make_app(corpus_path("ctx-large"), budget=budget), terminal_size=SIZE, run_before=ready)


@needs_corpus
def test_why_panel_summarized_learning(snap_compare):
    async def run_before(pilot) -> None:
        await ready(pilot)
        app = pilot.app
        position = next(
            i
            for i, o in enumerate(app.main.view.plan.outcomes)
            if o.entry.section == "learnings" and o.fate is Fate.SUMMARIZED
        )
        await pilot.press("tab")
        await cursor_to(pilot, position)
        await settle(pilot)

    assert snap_compare(make_app(corpus_path("ctx-dogfood"), budget=4000), terminal_size=SIZE, run_before=run_before)


@needs_corpus
def test_preview_markdown(snap_compare):
    assert snap_compare(
        make_app(corpus_path("ctx-dogfood"), budget=4000), terminal_size=SIZE, run_before=press_then_ready("p")
    )


@needs_corpus
def test_preview_json(snap_compare):
    assert snap_compare(
        make_app(corpus_path("ctx-dogfood"), budget=4000), terminal_size=SIZE, run_before=press_then_ready("p", "j")
    )


@needs_corpus
@pytest.mark.parametrize("theme", ["ctxtui-dark", "ctxtui-light", "ctxtui-high-contrast"])
def test_theme(snap_compare, theme):
    async def run_before(pilot) -> None:
        await ready(pilot)
        await pilot.press("tab", "down", "down")  # an included task selected, the table focused
        await settle(pilot)

    assert snap_compare(
        make_app(corpus_path("ctx-dogfood"), budget=4000, theme=theme), terminal_size=SIZE, run_before=run_before
    )


@needs_corpus
def test_small_terminal_80x24(snap_compare):
    assert snap_compare(make_app(corpus_path("ctx-dogfood"), budget=4000), terminal_size=(80, 24), run_before=ready)


def test_error_banner(snap_compare, tmp_path):
    project = small_workspace(tmp_path / "proj", **{"steering__b.md": BROKEN_STEERING})
    assert snap_compare(make_app(project, budget=4000), terminal_size=SIZE, run_before=ready)


def test_help_screen(snap_compare, tmp_path):
    assert snap_compare(
        make_app(small_workspace(tmp_path / "proj"), budget=4000),
        terminal_size=SIZE,
        run_before=press_then_ready("question_mark"),
    )


def test_demo_workspace(snap_compare, tmp_path):
    project = write_demo(tmp_path / "acme-billing", NOW)
    assert snap_compare(make_app(project, budget=4000), terminal_size=SIZE, run_before=ready)
