"""EntriesTable: cursor keys, mouse, sorting, filtering, and selection surviving recomputes."""

from __future__ import annotations

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.tui.widgets.entries.columns import COLUMN_BY_ID
from ctxtui.tui.widgets.entries.rows import RowFilter, rows_from_outcomes
from ctxtui.tui.widgets.entries.table import EntriesTable

from tests.ui.fakes import many_outcomes
from tests.ui.gallery import Gallery


def score(row) -> float | None:
    return COLUMN_BY_ID["score"].sort_key(row.outcome)


def keys(table: EntriesTable) -> list[str]:
    return [row.key for row in table.view_rows]


def selected(app: Gallery) -> list[str | None]:
    return [m.key for m in app.of_type(EntriesTable.Selected)]


@pytest.mark.asyncio
async def test_cursor_keys_and_selected_messages():
    app = Gallery(outcomes=many_outcomes(200))
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        table.focus()
        await pilot.pause()
        page = table._page_rows
        assert selected(app) == ["tasks:0"]
        await pilot.press("down", "down", "up")
        assert table.cursor_row == 1
        await pilot.press("pagedown")
        assert table.cursor_row == 1 + page - 1
        await pilot.press("end")
        assert table.cursor_row == 199
        assert table.scroll_offset.y == 200 - page  # the last row is on screen
        await pilot.press("pageup")
        assert table.cursor_row == 199 - (page - 1)
        await pilot.press("home")
        assert table.cursor_row == 0 and table.scroll_offset.y == 0
        await pilot.pause()
        assert selected(app)[-1] == "tasks:0"


@pytest.mark.asyncio
async def test_selected_is_coalesced():
    app = Gallery(outcomes=many_outcomes(200))
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()
        before = len(selected(app))
        for _ in range(10):  # ten moves before the queue is processed
            table.action_cursor(1)
        await pilot.pause()
        assert selected(app)[before:] == [table.view_rows[10].key]


@pytest.mark.asyncio
async def test_click_selects_and_double_click_activates():
    app = Gallery()
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()
        await pilot.click(table, offset=(20, 3))  # line 3 = the third row (line 0 is the header)
        assert table.cursor_row == 2
        assert table.selected_key == "tasks:2"
        await pilot.click(table, offset=(20, 4), times=2)
        await pilot.pause()
        assert [m.key for m in app.of_type(EntriesTable.Activated)] == ["tasks:3"]
        table.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert [m.key for m in app.of_type(EntriesTable.Activated)] == ["tasks:3", "tasks:3"]


@pytest.mark.asyncio
async def test_sort_by_columns_keys_and_header_clicks():
    app = Gallery()
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()
        packet_order = keys(table)
        table.sort_by("score")  # numbers: high first; entries without a score last
        scores = [score(row) for row in table.view_rows]
        present = [s for s in scores if s is not None]
        assert present == sorted(present, reverse=True)
        assert scores[len(present) :] == [None] * (len(scores) - len(present))
        table.sort_by("score")  # again: flips
        present2 = [score(row) for row in table.view_rows if score(row) is not None]
        assert present2 == sorted(present2)
        assert table.view_rows[-1].score == ""  # still last when reversed
        table.sort_by("title", reverse=False)
        assert [r.title.casefold() for r in table.view_rows] == sorted(r.title.casefold() for r in table.view_rows)
        table.sort_by(None)
        assert keys(table) == packet_order

        table.focus()
        await pilot.press("s")  # next column after packet order: fate
        assert table.sort_column == "fate"
        assert [r.fate for r in table.view_rows][:6] == [Fate.INCLUDED] * 6
        await pilot.press("S")
        assert table.sort_reverse and table.view_rows[0].fate is Fate.DROPPED

        layout = table._get_layout(table._render_width)
        tokens_x = next(x for column, x, _w in layout.columns if column.id == "tokens")
        await pilot.click(table, offset=(tokens_x + 1, 0))
        assert (table.sort_column, table.sort_reverse) == ("tokens", True)
        assert "▼tokens" in table.render_line(0).text


@pytest.mark.asyncio
async def test_filter_by_fate_section_and_text():
    app = Gallery()
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()
        table.set_filter(RowFilter(fates=frozenset({Fate.DROPPED})))
        assert {r.fate for r in table.view_rows} == {Fate.DROPPED}
        table.set_filter(sections={"tasks"})  # adds to the current filter
        assert keys(table) == ["tasks:3", "tasks:4"]
        table.set_filter(RowFilter(text="SQLITE"))
        assert keys(table) == ["decisions:1"]
        table.set_filter(RowFilter(text="over cap"))  # the reason text is searched too
        assert keys(table) == ["tasks:3"]
        table.set_filter(RowFilter(text="no such thing"))
        assert table.shown_count == 0 and table.selected_key is None
        assert "no entries match the filter (12 hidden)" in table.render_line(1).text
        await pilot.pause()
        assert selected(app)[-1] is None
        table.set_filter(RowFilter())
        assert table.shown_count == table.total_count == 12


@pytest.mark.asyncio
async def test_selection_and_scroll_survive_set_rows():
    app = Gallery(outcomes=many_outcomes(1000))
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        table.focus()
        await pilot.pause()
        table.sort_by("fate", reverse=False)
        table.scroll_to(y=300, animate=False)
        await pilot.pause()
        table.select_key(table.view_rows[310].key)
        await pilot.pause()
        key, top = table.selected_key, table.scroll_offset.y
        line = table.cursor_row - top
        # A new budget: fates change, so under a fate sort the selected entry moves.
        table.set_rows(rows_from_outcomes(many_outcomes(1000, budget_shift=37)), version=("gen", 2))
        await pilot.pause()
        assert table.selected_key == key
        assert table.cursor_row != 310  # it moved in the view...
        assert table.cursor_row - table.scroll_offset.y == line  # ...but not on screen
        # Same order, new data: nothing moves at all.
        table.sort_by(None)
        await pilot.pause()
        top, cursor = table.scroll_offset.y, table.cursor_row
        table.set_rows(rows_from_outcomes(many_outcomes(1000, budget_shift=11)), version=("gen", 3))
        await pilot.pause()
        assert (table.scroll_offset.y, table.cursor_row, table.selected_key) == (top, cursor, key)
        assert selected(app).count(key) == 1  # unchanged selection: no new message


@pytest.mark.asyncio
async def test_vanished_key_keeps_the_row_index():
    app = Gallery(outcomes=many_outcomes(100))
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()
        table.select_key("tasks:12")
        position = table.cursor_row
        rows = [r for r in rows_from_outcomes(many_outcomes(100)) if r.key != "tasks:12"]
        table.set_rows(rows)
        await pilot.pause()
        assert table.cursor_row == position
        assert table.selected_key == rows[position].key
        assert selected(app)[-1] == rows[position].key
        table.set_rows(rows[:5])  # fewer rows than the old index: the last one
        assert table.cursor_row == 4


@pytest.mark.asyncio
async def test_scroll_offset_survives_when_the_cursor_is_off_screen():
    app = Gallery(outcomes=many_outcomes(500))
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()
        table.scroll_to(y=200, animate=False)  # wheel-scrolled away from the cursor (row 0)
        await pilot.pause()
        table.set_rows(rows_from_outcomes(many_outcomes(500, budget_shift=5)))
        await pilot.pause()
        assert table.scroll_offset.y == 200 and table.cursor_row == 0


@pytest.mark.asyncio
async def test_memory_columns_hide_without_memories_and_narrow_tables_drop_columns():
    no_memory = [o for o in many_outcomes(60) if o.entry.section != "memories"]
    app = Gallery(outcomes=no_memory)
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()
        header = table.render_line(0).text
        assert "imp" not in header and "use" not in header and "score" in header
        await pilot.resize_terminal(60, 30)
        await pilot.pause()
        header = table.render_line(0).text
        assert "title" in header and "rec" not in header
        assert table.render_line(1).cell_length == table._render_width


@pytest.mark.asyncio
async def test_fate_symbols_can_be_swapped():
    app = Gallery()
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()
        assert table.render_line(4).text.startswith(" ✕")
        table.fate_symbols = {Fate.DROPPED: "x"}
        assert table.render_line(4).text.startswith(" x")
        assert table.render_line(2).text.startswith(" ●")
