"""Changing the budget: drag the slider, its keys, `[`/`]`, and typing an exact value with `b`."""

from __future__ import annotations

import pytest
from ctxtui.session import MAX_BUDGET, MIN_BUDGET
from ctxtui.tui.screens.budget import BudgetInputScreen
from ctxtui.tui.widgets.budget.input import BudgetInput
from ctxtui.tui.widgets.budget.slider import BudgetSlider
from ctxtui.tui.widgets.tiers.bars import TierBars
from textual.widgets import Label

from tests.app.helpers import SIZE, fates, make_app, settle, status_text
from tests.conftest import corpus_path, needs_corpus

pytestmark = needs_corpus


def assert_shows_budget(app, budget: int) -> None:
    """Session, packet, slider, status line and tier bars all agree on `budget`."""
    assert app.session.budget == budget
    assert app.main.view is not None and app.main.view.budget == budget and app.main.view.plan.budget == budget
    assert app.query_one(BudgetSlider).value == budget
    assert f"budget {budget:,} · used ~{app.main.view.plan.tokens_used:,} tokens" in status_text(app)
    bars = app.query_one(TierBars)
    assert bars.budget == budget and list(bars.tiers) == list(app.main.view.plan.buckets)


@pytest.mark.asyncio
async def test_dragging_the_slider_recomputes_everything():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        slider = app.query_one(BudgetSlider)
        assert_shows_budget(app, 4000)
        before_fates, before_tiers, before_status = fates(app), list(app.main.view.plan.buckets), status_text(app)
        before_bars = app.query_one(TierBars).render().plain

        start = slider.thumb_x()
        await pilot.mouse_down(slider, offset=(start, 0))  # grab the thumb (snaps to that cell's budget)
        assert slider.dragging
        await pilot.hover(slider, offset=(start - 12, 0))
        await pilot.hover(slider, offset=(start - 25, 0))
        await pilot.mouse_up(slider, offset=(start - 25, 0))
        await settle(pilot)

        assert not slider.dragging and app.mouse_captured is None
        dragged = slider.value_at(start - 25)
        assert MIN_BUDGET < dragged < 2000  # 25 cells left of 4,000 on the log track
        assert_shows_budget(app, dragged)
        assert status_text(app) != before_status
        assert list(app.main.view.plan.buckets) != before_tiers
        assert app.query_one(TierBars).render().plain != before_bars  # what the bars draw, too
        after_fates = fates(app)
        assert after_fates.keys() == before_fates.keys()
        changed = [key for key in before_fates if before_fates[key] != after_fates[key]]
        assert changed, "a smaller budget must change at least one entry's fate"
        assert app.main.view.plan.counts()["included"] < sum(v == "included" for v in before_fates.values())

        # Dragging back to the right, past the end of the track, clamps at the maximum.
        await pilot.mouse_down(slider, offset=(slider.thumb_x(), 0))
        await pilot.hover(None, offset=(SIZE[0] - 1, 1))
        await pilot.mouse_up(None, offset=(SIZE[0] - 1, 1))
        await settle(pilot)
        assert_shows_budget(app, MAX_BUDGET)


@pytest.mark.asyncio
async def test_slider_keys_when_focused():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        slider = app.query_one(BudgetSlider)
        assert app.focused is slider  # the first load focuses the slider

        # → moves the thumb one cell, to a round budget; shift+→/← step one token.
        thumb = slider.thumb_x()
        await pilot.press("right")
        await settle(pilot)
        assert_shows_budget(app, 4100)  # the roundest budget of the next cell (~7% on a 151-cell track)
        assert slider.thumb_x() == thumb + 1  # the press shows on the track
        await pilot.press("left", "left")
        await settle(pilot)
        assert_shows_budget(app, 3600)
        await pilot.press("shift+right")
        await settle(pilot)
        assert_shows_budget(app, 3601)
        await pilot.press("shift+left", "shift+left")
        await settle(pilot)
        assert_shows_budget(app, 3599)
        await pilot.press("left")
        await settle(pilot)
        assert_shows_budget(app, 3400)  # from an odd budget, a round one a cell down

        await pilot.press("pageup")
        await settle(pilot)
        up = app.session.budget
        assert up > 3400 + 100
        assert_shows_budget(app, up)
        await pilot.press("pagedown")
        await settle(pilot)
        assert app.session.budget < up
        assert_shows_budget(app, app.session.budget)

        await pilot.press("end")
        await settle(pilot)
        assert_shows_budget(app, MAX_BUDGET)
        await pilot.press("home")
        await settle(pilot)
        assert_shows_budget(app, MIN_BUDGET)
        # At budget 0 nothing but "always" content can be in the packet.
        assert app.main.view.plan.counts()["included"] < 10


@pytest.mark.asyncio
async def test_bracket_keys_nudge_the_budget_from_anywhere():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("tab")  # focus leaves the slider: the app keys still work
        assert not isinstance(app.focused, BudgetSlider)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert_shows_budget(app, 4100)
        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
        await settle(pilot)
        assert_shows_budget(app, 3800)
        await pilot.press("right_curly_bracket")
        await settle(pilot)
        assert_shows_budget(app, 4800)
        await pilot.press("left_curly_bracket")
        await settle(pilot)
        assert_shows_budget(app, 3800)


@pytest.mark.asyncio
async def test_typing_an_exact_budget():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = fates(app)
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, BudgetInputScreen)
        await pilot.press(*"12345", "enter")  # the current value is selected: typing replaces it
        await settle(pilot)
        assert not isinstance(app.screen, BudgetInputScreen)
        assert_shows_budget(app, 12345)
        assert fates(app) != before

        await pilot.press("b")
        await pilot.pause()
        await pilot.press(*"777", "escape")  # Esc cancels: nothing changes
        await settle(pilot)
        assert not isinstance(app.screen, BudgetInputScreen)
        assert_shows_budget(app, 12345)


@pytest.mark.asyncio
async def test_the_budget_dialog_preselects_shows_the_range_and_says_why_it_refuses():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, BudgetInputScreen)
        field = dialog.query_one(BudgetInput)
        assert field.value == "4000" and field.selection == (0, 4)  # typing replaces it
        assert "0 to 2,000,000 tokens" in str(dialog.query_one("#budget-input-range", Label).render())
        refused = dialog.query_one("#budget-input-refused", Label)
        assert not refused.display

        await pilot.press(*"3000000", "enter")  # above the largest budget: a message, not only a bell
        await pilot.pause()
        assert app.screen is dialog and refused.display
        assert "3,000,000 is above the largest budget, 2,000,000 tokens" in str(refused.render())
        assert field.value == "4000" and field.selection == (0, 4)  # the refused text does not stay
        await pilot.press("7")  # typing again puts the message away
        await pilot.pause()
        assert field.value == "7" and not refused.display
        await pilot.press("backspace", "enter")  # empty
        await pilot.pause()
        assert app.screen is dialog and "whole number" in str(refused.render())

        await pilot.press(*"1500000", "enter")  # 1M-token models exist: 1,500,000 is a budget
        await settle(pilot)
        assert not isinstance(app.screen, BudgetInputScreen)
        assert_shows_budget(app, 1_500_000)


@pytest.mark.asyncio
async def test_a_click_on_the_track_lands_on_a_round_budget():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        slider = app.query_one(BudgetSlider)
        for x in (20, 47, 90, 130):
            await pilot.click(slider, offset=(x, 0))
            await settle(pilot)
            value = app.session.budget
            digits = str(value).rstrip("0")
            assert len(digits) <= 2, value  # two significant digits
            assert abs(slider.thumb_x() - x) <= 1
            assert_shows_budget(app, value)
