"""The filter line says, for as long as a filter is on, that rows are hidden, how many, and by which filters.

Before it, a filter was announced by a notice that faded after three seconds,
and the table then showed part of the packet with nothing on screen saying so.
"""

from __future__ import annotations

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.tui.widgets.filter_line import FilterLine

from tests.app.helpers import SIZE, make_app, settle, table
from tests.conftest import corpus_path, needs_corpus

pytestmark = needs_corpus


def line_of(app) -> FilterLine:
    return app.main.query_one(FilterLine)


def line_text(app) -> str:
    return line_of(app).render().plain


@pytest.mark.asyncio
async def test_the_filter_line_follows_every_filter_and_counts_the_rows_shown():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        total = len(app.main.view.plan.outcomes)
        assert not line_of(app).display and line_text(app) == ""  # no filter: no line

        await pilot.press("f")  # fate: included
        await settle(pilot)
        included = sum(o.fate is Fate.INCLUDED for o in app.main.view.plan.outcomes)
        assert len(table(app).view_rows) == included
        assert line_of(app).display
        assert line_text(app) == f"Filter: {included:,} of {total:,} entries shown · fate included · Esc shows all"

        await pilot.press("right_square_bracket")  # a step changes the count, and the line follows
        await settle(pilot)
        included = sum(o.fate is Fate.INCLUDED for o in app.main.view.plan.outcomes)
        assert line_text(app).startswith(f"Filter: {included:,} of {total:,} entries shown")

        await pilot.press("P", "left_square_bracket")  # pin, step: some entries differ from the pin
        await settle(pilot)
        await pilot.press("f", "f", "f")  # the fate filter cycles back to all
        await pilot.press("d")
        await settle(pilot)
        shown = len(table(app).view_rows)
        assert (
            shown
            and line_text(app) == f"Filter: {shown:,} of {total:,} entries shown · differ from the pin · Esc shows all"
        )

        await pilot.press("escape")
        await settle(pilot)
        assert not line_of(app).display and len(table(app).view_rows) == total


@pytest.mark.asyncio
async def test_the_filter_line_shows_typed_text_escaped():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*"[bold]zz")
        await pilot.press("enter")
        await settle(pilot)
        assert line_text(app).startswith("Filter: 0 of ")
        assert "text “[bold]zz”" in line_text(app)  # markup-like text is shown as typed, never as style
