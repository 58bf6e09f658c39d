"""Keys in the preview: `/` finds text in the packet, Esc always goes back, the footer shows what works there."""

from __future__ import annotations

import pytest
from ctxtui.tui.main_screen import MainScreen
from ctxtui.tui.screens.preview import PreviewScreen
from ctxtui.tui.screens.prompts import FilterScreen, PromptScreen
from ctxtui.tui.widgets.entries.rows import RowFilter
from textual.widgets import TextArea

from tests.app.helpers import SIZE, make_app, settle, small_workspace


async def open_preview(pilot) -> PreviewScreen:
    await settle(pilot)
    await pilot.press("p")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, PreviewScreen)
    return screen


@pytest.mark.asyncio
async def test_slash_in_the_preview_finds_text_in_the_packet_not_the_hidden_table(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        preview = await open_preview(pilot)
        area = preview.query_one("#text-md", TextArea)
        await pilot.press("slash")
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen) and not isinstance(app.screen, FilterScreen)
        await pilot.press(*"sqlite", "enter")
        await pilot.pause()
        assert app.screen is preview and app.main.row_filter == RowFilter()  # the table's filter is untouched
        text = area.text
        first = text.lower().index("sqlite")
        assert area.selected_text.lower() == "sqlite"
        assert area.document.get_index_from_location(area.selection.start) == first
        await pilot.press("n")
        await pilot.pause()
        second = text.lower().index("sqlite", first + 1)
        assert area.document.get_index_from_location(area.selection.start) == second
        assert area.selected_text.lower() == "sqlite"

        await pilot.press("j", "slash")  # the JSON tab has its own text
        await pilot.pause()
        await pilot.press("enter")  # the last query is offered again
        await pilot.pause()
        json_area = preview.query_one("#text-json", TextArea)
        assert json_area.selected_text.lower() == "sqlite"


@pytest.mark.asyncio
async def test_escape_goes_back_from_the_preview_whatever_has_the_focus(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main.row_filter = RowFilter(text="parser")  # a filter on the main screen's table
        await settle(pilot)
        seen = set()
        for tabs in range(6):
            await open_preview(pilot)
            for _ in range(tabs):
                await pilot.press("tab")
            seen.add(type(app.focused).__name__)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MainScreen), type(app.focused)
            assert app.main.row_filter == RowFilter(text="parser")  # Esc in the preview was not the table's
        assert {"TextArea", "ContentTabs"} <= seen
        await pilot.press("escape")  # on the main screen Esc clears the filters
        await settle(pilot)
        assert app.main.row_filter == RowFilter()


@pytest.mark.asyncio
async def test_the_preview_footer_lists_only_keys_that_work_there(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        preview = await open_preview(pilot)
        shown = {
            key: active for key, active in preview.active_bindings.items() if active.binding.show and active.enabled
        }
        described = {active.binding.description for active in shown.values()}
        assert {"Back", "Copy", "Save…", "Markdown", "JSON", "Find", "Quit", "Help", "Budget…"} <= described
        assert not described & {"Filter", "Fate", "Sort", "Preview"}, described
        for key, active in shown.items():  # each one does what it says here
            target, name, params = app._parse_action(active.binding.action, active.node)
            assert target.check_action(name, params), key
        assert "Filter" not in [b.description for _, b, _, _ in app.screen.active_bindings.values()]
