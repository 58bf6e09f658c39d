"""The selected entry is tracked by key: a recompute, a sort or a filter keeps it selected."""

from __future__ import annotations

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.tui.themes import FATE_SYMBOL
from ctxtui.tui.widgets.entries.table import EntriesTable

from tests.app.helpers import SIZE, cursor_to, make_app, settle, table, why_text
from tests.conftest import corpus_path, needs_corpus

pytestmark = needs_corpus


def first_key_whose_fate_changes(app, other_budget: int) -> tuple[int, str, Fate, Fate]:
    """(packet position, key, fate now, fate at other_budget) of the first entry that moves."""
    other = app.session.packer.plan(other_budget)
    for position, outcome in enumerate(app.main.view.plan.outcomes):
        later = other.outcome(outcome.entry.key)
        if later.fate is not outcome.fate and position > 3:
            return position, outcome.entry.key, outcome.fate, later.fate
    raise AssertionError("no entry changes fate")


@pytest.mark.asyncio
async def test_selection_survives_a_budget_change():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        position, key, fate_before, fate_after = first_key_whose_fate_changes(app, 16000)
        await pilot.press("tab")
        assert isinstance(app.focused, EntriesTable)
        await cursor_to(pilot, position)
        await settle(pilot)
        entries = table(app)
        assert entries.selected_key == app.main.selected_key == key
        title = app.main.view.plan.outcome(key).entry.title
        assert f"{FATE_SYMBOL[fate_before]} {fate_before.value}" in why_text(app)
        screen_line = entries.cursor_row - entries.scroll_offset.y

        await pilot.press("b")
        await pilot.pause()
        await pilot.press(*"16000", "enter")
        await settle(pilot)
        assert app.main.view.budget == 16000
        assert entries.selected_key == app.main.selected_key == key
        assert app.main.view.plan.outcome(key).fate is fate_after
        text = why_text(app)
        assert f"{FATE_SYMBOL[fate_after]} {fate_after.value}" in text  # the panel follows the new fate
        assert title in text
        assert entries.cursor_row - entries.scroll_offset.y == screen_line  # and stays on its screen line


@pytest.mark.asyncio
async def test_selection_survives_sort_and_filter_and_click_selects():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        entries = table(app)
        await pilot.click(entries, offset=(5, 4))  # the header is line 0: this is the 4th row
        await settle(pilot)
        key = app.main.view.plan.outcomes[3].entry.key
        assert entries.selected_key == app.main.selected_key == key

        await pilot.press("s", "s", "s")  # fate, section, title
        await settle(pilot)
        assert entries.sort_column == "title"
        assert entries.selected_key == app.main.selected_key == key
        title = app.main.view.plan.outcome(key).entry.title
        await pilot.press("slash")
        await pilot.pause()
        await pilot.press(*title[2:12], "enter")
        await settle(pilot)
        assert 0 < entries.shown_count < entries.total_count
        assert entries.selected_key == app.main.selected_key == key
        await pilot.press("escape")
        await settle(pilot)
        assert entries.shown_count == entries.total_count
        assert entries.selected_key == app.main.selected_key == key
        assert title in why_text(app)


@pytest.mark.asyncio
async def test_up_and_down_from_the_slider_move_the_selection_not_the_budget():
    """The app starts with the slider focused and the table's selection shown: ↓ and ↑ moved nothing before."""
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert type(app.focused).__name__ == "BudgetSlider"
        first = table(app).selected_key
        await pilot.press("down", "down")
        await settle(pilot)
        entries = table(app)
        assert entries.cursor_row == 2 and entries.selected_key != first
        assert app.main.selected_key == entries.selected_key
        title = app.main.view.plan.outcome(entries.selected_key).entry.title
        assert title[:20] in why_text(app)
        await pilot.press("up")
        await settle(pilot)
        assert table(app).cursor_row == 1
        assert app.session.budget == 4000 and type(app.focused).__name__ == "BudgetSlider"
