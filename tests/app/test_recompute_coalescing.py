"""A burst of budget changes costs one recompute, for the newest budget."""

from __future__ import annotations

import pytest
from ctxtui.session import Session
from ctxtui.tui.widgets.budget.slider import BudgetSlider
from textual import events

from tests.app.helpers import SIZE, make_app, settle, status_text
from tests.conftest import corpus_path, needs_corpus

pytestmark = needs_corpus


@pytest.fixture
def view_calls(monkeypatch) -> list[int]:
    """The budget of every `Session.view` call (the one recompute per frame)."""
    calls: list[int] = []
    original = Session.view

    def counting(self):
        calls.append(self.budget)
        return original(self)

    monkeypatch.setattr(Session, "view", counting)
    return calls


@pytest.mark.asyncio
async def test_a_burst_of_budget_requests_recomputes_once(view_calls):
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert view_calls == [4000]
        del view_calls[:]
        # Typed budgets and palette presets are plain requests: the main screen must coalesce them itself.
        for budget in range(1000, 4000, 100):
            app.main.request_budget(budget)
        await settle(pilot)
        assert view_calls == [3900]
        assert app.main.view.budget == 3900 and "budget 3,900" in status_text(app)
        assert app.query_one(BudgetSlider).value == 3900


@pytest.mark.asyncio
async def test_a_fast_drag_recomputes_once_for_the_newest_position(view_calls):
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        slider = app.query_one(BudgetSlider)
        await pilot.mouse_down(slider, offset=(10, 0))
        await settle(pilot)
        del view_calls[:]
        region = slider.content_region
        # Many moves in one go, as a fast drag delivers them: no pause in between.
        for x in range(11, 60):
            slider.post_message(
                events.MouseMove(slider, x, 0, 0, 0, 1, False, False, False, screen_x=region.x + x, screen_y=region.y)
            )
        for x in range(11, 60):  # direct requests in the same burst, for good measure
            app.main.request_budget(slider.value_at(x))
        await settle(pilot)
        await pilot.mouse_up(slider, offset=(59, 0))
        await settle(pilot)
        assert view_calls == [slider.value_at(59)]
        assert app.main.view.budget == slider.value == slider.value_at(59)


@pytest.mark.asyncio
async def test_key_repeat_of_nudges_recomputes_once_per_frame(view_calls):
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        del view_calls[:]
        # The bindings' actions run back to back, as with a held key, before any refresh.
        for _ in range(10):
            await app.run_action("main.nudge(100)")
        await settle(pilot)
        assert app.session.budget == 4100  # each nudge is relative to the last *applied* budget
        assert len(view_calls) == 1
