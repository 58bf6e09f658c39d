"""Sorting (`s`, `S`, the palette) and filtering (`f` fate cycle, `/` text, Esc clears) change the rows shown."""

from __future__ import annotations

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.tui.screens.prompts import FilterScreen
from ctxtui.tui.widgets.entries.columns import COLUMN_BY_ID, FATE_ORDER
from textual.command import CommandList, CommandPalette

from tests.app.helpers import SIZE, make_app, settle, table
from tests.conftest import corpus_path, needs_corpus

pytestmark = needs_corpus


def packet_keys(app) -> list[str]:
    return [o.entry.key for o in app.main.view.plan.outcomes]


async def palette_run(pilot, query: str) -> None:
    """Open the command palette, type `query`, wait for its hits and run the first."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(pilot.app.screen, CommandPalette)
    await pilot.press(*query)
    for _ in range(60):
        await pilot.pause(0.02)
        if pilot.app.screen.query_one(CommandList).option_count:
            break
    commands = pilot.app.screen.query_one(CommandList)
    assert str(commands.get_option_at_index(0).prompt).startswith(query)
    if commands.highlighted != 0:
        await pilot.press("down")  # the first ↓ highlights the first hit
    await pilot.press("enter")
    await settle(pilot)
    assert not isinstance(pilot.app.screen, CommandPalette)


@pytest.mark.asyncio
async def test_s_cycles_the_sort_column():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        entries = table(app)
        assert [row.key for row in entries.view_rows] == packet_keys(app)  # packet order first

        await pilot.press("s")
        await settle(pilot)
        assert entries.sort_column == "fate" and not entries.sort_reverse
        order = [FATE_ORDER[row.fate] for row in entries.view_rows]
        assert order == sorted(order) and order[0] == 0 and order[-1] == 2
        assert [row.key for row in entries.view_rows] != packet_keys(app)

        await pilot.press("s")
        await settle(pilot)
        assert entries.sort_column == "section"
        sections = [COLUMN_BY_ID["section"].sort_key(row.outcome) for row in entries.view_rows]
        assert sections == sorted(sections)
        assert entries.shown_count == entries.total_count == len(app.main.view.plan.outcomes)


@pytest.mark.asyncio
async def test_palette_sort_by_score_and_reverse():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        entries = table(app)
        await palette_run(pilot, "Sort by score")
        assert entries.sort_column == "score" and entries.sort_reverse
        scores = [row.outcome.score.total if row.outcome.score else None for row in entries.view_rows]
        present = [s for s in scores if s is not None]
        assert len(present) >= 5
        assert present == sorted(present, reverse=True)
        assert scores[: len(present)] == present  # entries without a score go last
        await palette_run(pilot, "Sort by score")  # again: reversed
        assert entries.sort_column == "score" and not entries.sort_reverse
        present = [row.outcome.score.total for row in entries.view_rows if row.outcome.score]
        assert present == sorted(present)


@pytest.mark.asyncio
async def test_f_cycles_the_fate_filter_and_survives_a_recompute():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        entries = table(app)
        counts = app.main.view.plan.counts()
        for fate in (Fate.INCLUDED, Fate.SUMMARIZED, Fate.DROPPED):
            await pilot.press("f")
            await settle(pilot)
            assert {row.fate for row in entries.view_rows} == {fate}
            assert entries.shown_count == counts[fate.value]
        await pilot.press("f")
        await settle(pilot)
        assert entries.shown_count == entries.total_count

        await pilot.press("f")  # included only, then a bigger budget: still only included, more of them
        await settle(pilot)
        before = entries.shown_count
        await pilot.press("right_curly_bracket", "right_curly_bracket")
        await settle(pilot)
        assert app.main.view.budget == 6000
        assert {row.fate for row in entries.view_rows} == {Fate.INCLUDED}
        assert entries.shown_count == app.main.view.plan.counts()["included"] > before


@pytest.mark.asyncio
async def test_text_filter_then_escape_clears():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        entries = table(app)
        total = entries.total_count
        await pilot.press("slash")
        await pilot.pause()
        assert isinstance(app.screen, FilterScreen)
        await pilot.press(*"HOOK", "enter")  # case-insensitive
        await settle(pilot)
        assert not isinstance(app.screen, FilterScreen)
        assert app.main.row_filter.text == "HOOK"
        assert 0 < entries.shown_count < total
        assert all("hook" in row.haystack for row in entries.view_rows)
        expected = [row.key for row in entries._rows if "hook" in row.haystack]
        assert [row.key for row in entries.view_rows] == expected

        await pilot.press("f")  # filters combine: text and fate
        await settle(pilot)
        assert all(row.fate is Fate.INCLUDED and "hook" in row.haystack for row in entries.view_rows)

        await pilot.press("escape")
        await settle(pilot)
        assert not app.main.row_filter.active
        assert entries.shown_count == total


@pytest.mark.asyncio
async def test_filter_that_matches_nothing_says_so():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        entries = table(app)
        await pilot.press("slash")
        await pilot.pause()
        await pilot.press(*"qzqz", "enter")
        await settle(pilot)
        assert entries.shown_count == 0
        assert "no entries match the filter" in entries.render_line(1).text
        await pilot.press("escape")
        await settle(pilot)
        assert entries.shown_count == entries.total_count
