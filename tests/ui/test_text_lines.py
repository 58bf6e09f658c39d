"""`TextLines` widgets draw their text's own segments: cell for cell what Textual's own rendering draws.

The status, settings and changes lines and the tier bars skip Textual's
Content conversion when every line fits (issue 11). These tests compare every
cell (character, colours, attributes) of each such widget, through Textual's
whole line pipeline, with the widget drawn by Textual's own rendering, in the
states a user reaches: budgets, a step, a pin, every theme, a narrow terminal
(where the widgets fall back to Textual's rendering themselves).
"""

from __future__ import annotations

import pytest
from ctxtui.tui.widgets import text_lines
from ctxtui.tui.widgets.budget.slider import BudgetSlider
from ctxtui.tui.widgets.text_lines import TextLines
from textual.geometry import Region

from tests.app.helpers import SIZE, make_app, settle
from tests.conftest import corpus_path, needs_corpus

pytestmark = needs_corpus


def cells(strips) -> list[list[tuple]]:
    """Each cell's character, colours and attributes (how the segments are split does not matter)."""
    rows = []
    for strip in strips:
        row = []
        for segment in strip:
            style = segment.style
            look = (
                None
                if style is None
                else (
                    style.color and style.color.get_truecolor(),
                    style.bgcolor and style.bgcolor.get_truecolor(),
                    style.bold,
                    style.dim,
                    style.italic,
                    style.underline,
                    style.reverse,
                    style.strike,
                )
            )
            row.extend((char, look) for char in segment.text)
        rows.append(row)
    return rows


def drawn(widget: TextLines) -> list[list[tuple]]:
    widget.refresh()
    return cells(widget.render_lines(Region(0, 0, *widget.outer_size)))


def compare_all(app, monkeypatch) -> int:
    """Compare every TextLines widget on screen; the number drawn by the fast path."""
    fast_count = 0
    for widget in app.screen.query(TextLines):
        if not widget.display or not widget.size:
            continue
        fast = drawn(widget)
        fast_count += widget._strips is not None
        with monkeypatch.context() as patch:
            patch.setattr(text_lines, "text_strips", lambda *args: None)
            textual = drawn(widget)
        assert fast == textual, f"{type(widget).__name__} differs from Textual's own rendering"
    return fast_count


@pytest.mark.asyncio
@pytest.mark.parametrize("corpus", ["ctx-large", "ctx-dogfood"])
@pytest.mark.parametrize("theme", ["ctxtui-dark", "ctxtui-light", "ctxtui-high-contrast"])
async def test_text_lines_draw_what_textual_draws(monkeypatch, corpus, theme):
    app = make_app(corpus_path(corpus), budget=300, theme=theme, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert compare_all(app, monkeypatch) >= 2
        app.query_one(BudgetSlider).focus()
        for key in ("shift+right", "right_square_bracket", "P", "right_square_bracket", "end"):
            await pilot.press(key)
            await settle(pilot)
            assert compare_all(app, monkeypatch) >= 2


@pytest.mark.asyncio
async def test_a_narrow_terminal_falls_back_to_textual_for_lines_that_do_not_fit(monkeypatch):
    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        compare_all(app, monkeypatch)
        settings = app.screen.query_one("#settings", TextLines)
        settings.render_line(0)
        assert settings._strips is None  # wider than 60 cells: wrapped and cut by Textual, as before
