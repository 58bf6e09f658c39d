"""Below 110 columns the why panel gives the table its width; Enter shows it as a dialog."""

from __future__ import annotations

import pytest
from ctxtui.tui.screens.why import WhyScreen
from ctxtui.tui.widgets.why.panel import WhyPanel

from tests.app.helpers import make_app, settle, small_workspace


@pytest.mark.asyncio
async def test_enter_shows_the_why_dialog_in_a_narrow_terminal(tmp_path):
    app = make_app(small_workspace(tmp_path), real_tokens=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.main.has_class("-narrow") and not app.query_one(WhyPanel).display
        await pilot.press("tab", "down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, WhyScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, WhyScreen)


@pytest.mark.asyncio
async def test_a_wide_terminal_keeps_the_panel(tmp_path):
    app = make_app(small_workspace(tmp_path), real_tokens=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert not app.main.has_class("-narrow") and app.query_one(WhyPanel).display
        await pilot.press("tab", "down", "enter")
        await settle(pilot)
        assert not isinstance(app.screen, WhyScreen)
        assert app.focused is app.query_one(WhyPanel)  # Enter moves to the panel beside the table
