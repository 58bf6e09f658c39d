"""The live loop follows identity: pin, then edit the files as a user does, and every mark, count and the
selection stay with the entries (issue 21, part 2).

Each test pins the state, selects an entry, edits `.context/` (a line or a
task inserted above, a task moved, a decision's body grown, a decision
deleted, a task checked off), reloads (`r`, what the watcher does) and checks
the marks (▲ ▼ ◆ ✎), the changes line, the fate counts, the selection and
where it sits on screen.
"""

from __future__ import annotations

import pytest
from ctxtui.comparison import DIFFERS, EDITED, UP
from ctxtui.tui.widgets.changes import ChangesLine

from tests.app.helpers import (
    SIZE,
    cursor_to,
    decision,
    make_app,
    settle,
    small_workspace,
    table,
    why_text,
)

TASKS = "# Tasks\n\n" + "".join(f"- [ ] Task number {n:02d} #added:2026-11-01-0915{n:02d}\n" for n in range(40))


def _edit(project, name, change) -> None:
    path = project / ".context" / name
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")


async def _start(pilot, app, title: str):
    """Loaded, pinned, the entry titled `title` selected; its key and the fate counts."""
    await settle(pilot)
    await pilot.press("P")
    await settle(pilot)
    await pilot.press("tab")
    outcomes = app.main.view.plan.outcomes
    position = next(i for i, o in enumerate(outcomes) if o.entry.title == title)
    await cursor_to(pilot, position)
    await settle(pilot)
    key = outcomes[position].entry.key
    assert app.main.selected_key == key
    return key, dict(app.main.view.counts)


async def _reload(pilot) -> None:
    await pilot.press("r")
    await settle(pilot)


def _lines(app) -> tuple[str, str]:
    changes = app.main.query_one(ChangesLine)
    return changes.step, changes.pinned


def _screen_line(app) -> int:
    """Where the cursor row is drawn, counted from the table's first visible row."""
    entries = table(app)
    return entries.cursor_row - round(entries.scroll_y)


@pytest.mark.asyncio
async def test_lines_inserted_above_move_nothing(tmp_path):
    project = small_workspace(tmp_path / "proj", **{"TASKS.md": TASKS})
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        key, counts = await _start(pilot, app, "Budgets are per tier, not global")
        location = app.main.view.plan.outcome(key).entry.location
        _edit(project, "DECISIONS.md", lambda t: "<!-- reviewed -->\n\n" + t)
        _edit(project, "TASKS.md", lambda t: "<!-- sprint 12 -->\n" + t)
        await _reload(pilot)
        assert app.main.marks == {}
        assert _lines(app) == ("no entry changed fate", "same fates as the pin (ctx agent 0.8.1 at 4,000 tokens)")
        assert dict(app.main.view.counts) == counts
        assert app.main.selected_key == table(app).selected_key == key
        assert app.main.view.plan.outcome(key).entry.location != location  # two lines lower
        assert "Budgets are per tier" in why_text(app)


@pytest.mark.asyncio
async def test_a_task_inserted_above_is_new_and_the_selection_keeps_its_screen_line(tmp_path):
    project = small_workspace(tmp_path / "proj", **{"TASKS.md": TASKS})
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        key, counts = await _start(pilot, app, "Task number 30 #added:2026-11-01-091530")
        line = _screen_line(app)
        _edit(
            project,
            "TASKS.md",
            lambda t: t.replace("- [ ] Task number 00", "- [ ] A new first task\n- [ ] Task number 00"),
        )
        await _reload(pilot)
        new = next(o for o in app.main.view.plan.outcomes if o.entry.title == "A new first task")
        assert app.main.marks == {new.entry.key: UP}  # ▲ (the step) over ◆ (the pin): it is new
        step, pinned = _lines(app)
        assert step.startswith("1 new: A new first task")
        assert pinned.startswith("1 entry differs from the pin (ctx agent 0.8.1 at 4,000 tokens) (1 new)")
        assert app.main.selected_key == key and _screen_line(app) == line
        assert sum(app.main.view.counts.values()) == sum(counts.values()) + 1


@pytest.mark.asyncio
async def test_a_moved_task_keeps_its_key_marks_and_selection(tmp_path):
    project = small_workspace(tmp_path / "proj", **{"TASKS.md": TASKS})
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        key, counts = await _start(pilot, app, "Task number 05 #added:2026-11-01-091505")
        moved = "- [ ] Task number 05 #added:2026-11-01-091505\n"
        _edit(project, "TASKS.md", lambda t: t.replace(moved, "") + moved)
        await _reload(pilot)
        assert app.main.marks == {} and dict(app.main.view.counts) == counts
        assert _lines(app)[1].startswith("same fates as the pin")
        assert app.main.selected_key == table(app).selected_key == key
        assert app.main.view.plan.outcome(key).entry.location.endswith(":42")  # now the last line


@pytest.mark.asyncio
async def test_a_decision_whose_body_grew_is_edited_not_new(tmp_path):
    project = small_workspace(tmp_path / "proj")
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        key, counts = await _start(pilot, app, "Budgets are per tier, not global")
        _edit(
            project,
            "DECISIONS.md",
            lambda t: t.replace("**Decision**: Budgets", "**Note**: revisited.\n\n**Decision**: Budgets"),
        )
        await _reload(pilot)
        assert app.main.marks == {key: EDITED}
        step, pinned = _lines(app)
        assert step.startswith("1 edited: Budgets are per tier")
        assert pinned.startswith("same fates as the pin (ctx agent 0.8.1 at 4,000 tokens), 1 edited since")
        assert dict(app.main.view.counts) == counts
        assert app.main.selected_key == key and "revisited" in why_text(app)


@pytest.mark.asyncio
async def test_a_deleted_decision_is_gone_and_the_selection_moves_to_a_neighbour(tmp_path):
    project = small_workspace(tmp_path / "proj")
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        key, counts = await _start(pilot, app, "Budgets are per tier, not global")
        position = table(app).cursor_row
        _edit(
            project,
            "DECISIONS.md",
            lambda t: t.replace(decision("2026-11-10-120000", "Budgets are per tier, not global"), ""),
        )
        assert "Budgets are per tier" not in (project / ".context" / "DECISIONS.md").read_text(encoding="utf-8")
        await _reload(pilot)
        # Marks only for entries still there whose fate moved (the others' shares grew); a gone one has no row.
        step, pinned = _lines(app)
        moved = {c.entry.key for c in app.main.step.diff.changed if c.after is not None}
        assert set(app.main.marks) == moved and key not in moved
        assert "1 gone" in step and "Budgets are per tier" in step
        assert "(ctx agent 0.8.1 at 4,000 tokens)" in pinned and "1 gone" in pinned
        assert sum(app.main.view.counts.values()) == sum(counts.values()) - 1
        # The cursor stays on its row, now the entry after the deleted one.
        assert table(app).cursor_row == position
        assert table(app).selected_key == app.main.selected_key == app.main.view.plan.outcomes[position].entry.key


@pytest.mark.asyncio
async def test_a_task_checked_off_is_gone_and_the_others_keep_their_marks(tmp_path):
    project = small_workspace(tmp_path / "proj", **{"TASKS.md": TASKS})
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        key, counts = await _start(pilot, app, "Task number 20 #added:2026-11-01-091520")
        _edit(project, "TASKS.md", lambda t: t.replace("- [ ] Task number 03", "- [x] Task number 03"))
        await _reload(pilot)
        step, pinned = _lines(app)
        assert step.startswith("1 gone: Task number 03")
        assert pinned.startswith("1 entry differs from the pin (ctx agent 0.8.1 at 4,000 tokens) (1 gone)")
        assert app.main.marks == {}
        assert app.main.selected_key == key
        # A budget step after the reload marks against the pin as before: ◆ for what differs from it.
        await pilot.press("left_square_bracket")
        await settle(pilot)
        differs = {k for k, mark in app.main.marks.items() if mark == DIFFERS}
        assert all(app.main.view.plan.outcome(k) is not None for k in differs)
