"""Live reload: edits to `.context/` show up within a second or so; budget and selection are kept."""

from __future__ import annotations

import shutil
import time

import pytest
from ctxtui.tui.widgets.budget.slider import BudgetSlider

from tests.app.helpers import (
    SIZE,
    cursor_to,
    decision,
    make_app,
    settle,
    small_workspace,
    status_text,
    table,
    why_text,
)

BROKEN_STEERING = "---\nname: [unclosed\ninclusion: always\n---\nBody B\n"
GOOD_STEERING = "---\nname: a\ninclusion: always\n---\nAlways answer in English.\n"


async def wait_until(pilot, condition, timeout: float = 3.0) -> None:
    """Poll while the watcher notices the change and the reload worker runs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await pilot.pause(0.05)
        if condition():
            await settle(pilot)
            return
    raise AssertionError(f"not within {timeout} s")


def titles(app) -> str:
    """Every entry title on screen, one per line (for substring checks)."""
    return "\n".join(o.entry.title for o in app.main.view.plan.outcomes)


@pytest.mark.asyncio
async def test_a_new_decision_appears_and_budget_and_selection_stay(tmp_path):
    project = small_workspace(tmp_path / "proj")
    app = make_app(project, budget=4000, watch=True, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("right_curly_bracket")  # budget 5,000
        await pilot.press("tab")
        keys = [o.entry.key for o in app.main.view.plan.outcomes]
        selected = next(
            o.entry.key for o in app.main.view.plan.outcomes if o.entry.location.endswith("DECISIONS.md:15")
        )
        await cursor_to(pilot, keys.index(selected))
        await settle(pilot)
        assert app.main.selected_key == selected and app.session.budget == 5000
        generation = app.session.generation
        await pilot.pause(0.3)  # let the watcher start

        with (project / ".context" / "DECISIONS.md").open("a", encoding="utf-8") as handle:
            handle.write(decision("2026-11-21-100000", "Adopt watchfiles for live reload"))
        await wait_until(pilot, lambda: "Adopt watchfiles for live reload" in titles(app))

        assert app.session.generation > generation
        assert app.session.budget == app.main.view.budget == 5000
        assert app.query_one(BudgetSlider).value == 5000 and "budget 5,000" in status_text(app)
        assert app.main.selected_key == table(app).selected_key == selected
        assert app.main.view.plan.outcome(selected).entry.title in why_text(app)
        new = next(o for o in app.main.view.plan.outcomes if o.entry.title == "Adopt watchfiles for live reload")
        assert new.entry.source.startswith(".context/DECISIONS.md:")
        assert any(row.key == new.entry.key for row in table(app).view_rows)


@pytest.mark.asyncio
async def test_deleting_a_file_and_breaking_steering(tmp_path):
    project = small_workspace(tmp_path / "proj", **{"steering__a.md": GOOD_STEERING})
    app = make_app(project, budget=4000, watch=True, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        banner = app.query_one("#banner")
        assert not banner.has_class("shown")
        assert any(o.entry.section == "decisions" for o in app.main.view.plan.outcomes)
        await pilot.pause(0.3)

        (project / ".context" / "DECISIONS.md").unlink()
        await wait_until(pilot, lambda: not any(o.entry.section == "decisions" for o in app.main.view.plan.outcomes))
        assert app.is_running and not banner.has_class("shown")
        assert app.main.view.budget == 4000
        assert table(app).total_count == len(app.main.view.plan.outcomes)

        (project / ".context" / "steering" / "b.md").write_text(BROKEN_STEERING, encoding="utf-8")
        await wait_until(pilot, lambda: banner.has_class("shown"))
        text = str(banner.content)
        assert ".context/steering/b.md" in text and "no steering at all" in text
        assert not app.session.packer.packet(app.main.view.plan).steering  # ctx drops every steering file then

        (project / ".context" / "steering" / "b.md").write_text(
            GOOD_STEERING.replace("name: a", "name: b"), encoding="utf-8"
        )
        await wait_until(pilot, lambda: not banner.has_class("shown"))
        assert app.session.packer.packet(app.main.view.plan).steering


@pytest.mark.asyncio
async def test_losing_the_context_folder_keeps_the_last_good_state_until_it_returns(tmp_path):
    project = small_workspace(tmp_path / "proj")
    app = make_app(project, budget=4000, watch=True, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = [o.entry.key for o in app.main.view.plan.outcomes]
        await pilot.pause(0.3)
        shutil.rmtree(project / ".context")
        banner = app.query_one("#banner")
        await wait_until(pilot, lambda: banner.has_class("shown"))
        assert "the last good state stays on screen" in str(banner.content)
        assert [o.entry.key for o in app.main.view.plan.outcomes] == before
        assert app.is_running
        await pilot.press("right_square_bracket")  # the old engine still answers the slider
        await settle(pilot)
        assert app.main.view.budget == 4100

        # `ctx init` (or a checkout) brings the folder back: the watch follows the new folder.
        small_workspace(project, **{"DECISIONS.md": "# Decisions\n" + decision("2026-11-21-100000", "Back again")})
        await wait_until(pilot, lambda: not banner.has_class("shown") and "Back again" in titles(app), timeout=5)
        assert app.main.view.budget == 4100
        with (project / ".context" / "DECISIONS.md").open("a", encoding="utf-8") as handle:
            handle.write(decision("2026-11-21-110000", "And edited after"))
        await wait_until(pilot, lambda: "And edited after" in titles(app))


@pytest.mark.asyncio
async def test_an_open_preview_is_reloaded_too(tmp_path):
    from ctxtui.tui.screens.preview import PreviewScreen
    from textual.widgets import TextArea

    project = small_workspace(tmp_path / "proj")
    app = make_app(project, budget=4000, watch=True, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await pilot.pause(0.3)
        assert isinstance(app.screen, PreviewScreen)
        with (project / ".context" / "TASKS.md").open("a", encoding="utf-8") as handle:
            handle.write("- [ ] Reloaded while previewing #added:2026-11-21-091500\n")
        await wait_until(pilot, lambda: "Reloaded while previewing" in titles(app))
        text = app.screen.query_one("#text-md", TextArea).text
        assert "Reloaded while previewing" in text and text == app.main.view.plan.render("md")


@pytest.mark.asyncio
async def test_a_task_inserted_above_keeps_the_selection_on_the_same_task(tmp_path):
    """A key says what the entry is, not its line: after an insertion above, the selection stays on the same
    task, under the same key, not on whatever entry now sits on the old line."""
    project = small_workspace(tmp_path / "proj")
    app = make_app(project, budget=4000, watch=True, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        outcomes = app.main.view.plan.outcomes
        selected = next(o for o in outcomes if o.entry.title.startswith("Write the docs"))
        await cursor_to(pilot, outcomes.index(selected))
        await settle(pilot)
        assert app.main.selected_key == selected.entry.key
        await pilot.pause(0.3)  # let the watcher start

        tasks = project / ".context" / "TASKS.md"
        tasks.write_text(
            tasks.read_text(encoding="utf-8").replace(
                "- [ ] Ship", "- [ ] Fix the flaky build #added:2026-11-03-091500\n- [ ] Ship"
            ),
            encoding="utf-8",
        )
        await wait_until(pilot, lambda: "Fix the flaky build" in titles(app))

        shown = app.main.view.plan.outcome(table(app).selected_key)
        assert shown is not None and shown.entry.title.startswith("Write the docs")
        assert app.main.selected_key == table(app).selected_key == shown.entry.key == selected.entry.key
        assert shown.entry.location != selected.entry.location  # it moved down a line
        assert "Write the docs" in why_text(app)
