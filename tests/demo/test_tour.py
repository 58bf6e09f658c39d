"""`ctxtui demo` opens on the features at their best: no refusal, memories joined, a pin, a step away from
it, and a summarized entry that differs from the pin selected, explained in the why panel."""

from __future__ import annotations

import pytest
from ctxtui.cli import main
from ctxtui.engine.fate import Fate
from ctxtui.tui.tour import DEMO_TOUR

from tests.app.helpers import SIZE, CapturedRun, settle, why_text


@pytest.mark.asyncio
async def test_the_demo_opens_pinned_stepped_and_explaining(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    runs = CapturedRun(monkeypatch)
    assert main(["demo"]) == 0
    app = runs.app
    capsys.readouterr()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main
        view = screen.view
        assert view.loaded.refusal is None  # a git working tree: ctx would pack it
        assert app.session.joins_memories and app.session.memory_count > 0
        assert screen.pin is not None and screen.pin.budget == DEMO_TOUR.pin_budget
        assert view.budget == DEMO_TOUR.budget
        key = screen.selected_key
        assert key is not None and key in screen.against_pin.keys  # ◆: it differs from the pin
        assert view.plan.outcome(key).fate is Fate.SUMMARIZED
        assert "To get it in full" in why_text(app)


@pytest.mark.asyncio
async def test_a_budget_asked_for_opens_there_without_the_tour(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    runs = CapturedRun(monkeypatch)
    assert main(["demo", "--budget", "3000"]) == 0
    app = runs.app
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.view.budget == 3000 and app.main.pin is None
