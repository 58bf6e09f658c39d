"""Typing an exact budget: digits and a leading "-", Enter applies, Esc cancels."""

from __future__ import annotations

import pytest
from ctxtui.tui.screens.budget import BudgetInputScreen
from ctxtui.tui.widgets.budget.input import BudgetEntered, BudgetInput

from tests.ui.gallery import Gallery


async def open_prompt(app: Gallery, pilot, **kw) -> list:
    results: list = []
    app.push_screen(BudgetInputScreen(**kw), results.append)
    await pilot.pause()
    return results


@pytest.mark.asyncio
async def test_typed_budget_is_posted_and_returned():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        results = await open_prompt(app, pilot)
        await pilot.press(*"12000", "enter")
        await pilot.pause()
        assert [m.value for m in app.of_type(BudgetEntered)] == [12000]
        assert results == [12000]
        assert not isinstance(app.screen, BudgetInputScreen)


@pytest.mark.asyncio
async def test_only_digits_and_a_leading_minus_are_accepted():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_prompt(app, pilot)
        field = app.screen.query_one(BudgetInput)
        await pilot.press("a", "1", "-", "x", "2", "space", "3")
        assert field.value == "123"
        field.value = ""
        await pilot.press("minus", "5", "minus")
        assert field.value == "-5"
        await pilot.press("enter")
        await pilot.pause()
        assert [m.value for m in app.of_type(BudgetEntered)] == [-5]


@pytest.mark.asyncio
async def test_escape_cancels_without_a_message():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        results = await open_prompt(app, pilot, value=8000)
        assert app.screen.query_one(BudgetInput).value == "8000"
        await pilot.press("escape")
        await pilot.pause()
        assert results == [None]
        assert app.of_type(BudgetEntered) == []


@pytest.mark.asyncio
async def test_invalid_value_keeps_the_prompt_open():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        results = await open_prompt(app, pilot, value=4000, maximum=200_000)
        field = app.screen.query_one(BudgetInput)
        await pilot.press("backspace", "enter")  # empty
        await pilot.pause()
        assert isinstance(app.screen, BudgetInputScreen) and field.value == "4000"
        await pilot.press(*"300000")  # over the maximum: marked while typed
        assert field.has_class("-invalid")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BudgetInputScreen)
        assert field.value == "4000" and not field.has_class("-invalid")  # the refused text goes
        assert results == [] and app.of_type(BudgetEntered) == []
        await pilot.press(*"150000", "enter")
        await pilot.pause()
        assert results == [150000]
