"""Esc clears the filters and keeps the selected entry selected and on screen (issue 21, part 5)."""

from __future__ import annotations

import pytest
from ctxtui.tui.widgets.entries.rows import RowFilter

from tests.app.helpers import SIZE, cursor_to, make_app, settle, small_workspace, table

TASKS = "# Tasks\n\n" + "".join(f"- [ ] Task number {n:03d}\n" for n in range(150))


@pytest.mark.asyncio
@pytest.mark.parametrize("pick", [0, 4, 9])
async def test_esc_that_clears_a_filter_keeps_the_selection_on_screen(tmp_path, pick):
    project = small_workspace(tmp_path / "proj", **{"TASKS.md": TASKS})
    app = make_app(project, budget=200_000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        app.main.row_filter = RowFilter(text="Task number 12")
        await settle(pilot)
        entries = table(app)
        await cursor_to(pilot, pick)
        key = entries.selected_key
        await pilot.press("escape")
        await settle(pilot)
        assert not app.main.row_filter.active
        assert entries.selected_key == app.main.selected_key == key
        page = entries.scrollable_content_region.height - 1  # the header takes a line
        top = round(entries.scroll_y)
        assert top <= entries.cursor_row < top + page, (top, entries.cursor_row, page)
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.selected_key == key
