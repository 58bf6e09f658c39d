"""The coverage screen's scan runs in a worker, stops at its time bound and shows where, and `g` again
cancels it (issue 21, part 4).

At 50,000 memories the scan of every budget where a fate changes takes
minutes; the screen must neither freeze the app nor wait for all of it. The
bound is made 0 here and the scan is replaced by one that waits to be
stopped: no test waits for seconds to pass.
"""

from __future__ import annotations

import threading

import pytest
from ctxtui.engine.explain import coverage as coverage_module
from ctxtui.tui.screens.coverage import CoverageScreen

from tests.app.helpers import SIZE, make_app, notices, settle, small_workspace


@pytest.mark.asyncio
async def test_a_scan_cut_by_its_bound_shows_what_it_found_and_where_it_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr("ctxtui.tui.tuning.COVERAGE_SECONDS", 0.0)
    app = make_app(small_workspace(tmp_path / "p"), budget=300, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        assert isinstance(app.screen, CoverageScreen)
        text = str(app.screen.query_one("#coverage-table").render())
        assert "Budgets were examined up to" in text and "time bound" in text
        assert "At 300 tokens, per section" in text  # the counts at the budget are there in full


@pytest.mark.asyncio
async def test_g_again_cancels_a_running_scan_and_the_app_answers_meanwhile(tmp_path, monkeypatch):
    started, stopped = threading.Event(), threading.Event()
    real = coverage_module.coverage

    def slow(packer, budget, *, should_stop=None):
        started.set()
        while not should_stop():  # a scan that only the cancel ends (the bound is not looked at)
            stopped.wait(0.01)
        stopped.set()
        return real(packer, budget, should_stop=lambda: True)

    monkeypatch.setattr(coverage_module, "coverage", slow)
    app = make_app(small_workspace(tmp_path / "p"), budget=300, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g")
        assert await _wait(pilot, started)
        assert any("g again cancels" in n for n in notices(app))
        await pilot.press("right_square_bracket")  # the app still steps the budget while the scan runs
        await pilot.pause(0.05)
        assert app.main.view.budget == 400
        await pilot.press("g")
        assert await _wait(pilot, stopped)
        await settle(pilot)
        assert not isinstance(app.screen, CoverageScreen)
        assert any("coverage cancelled" in n for n in notices(app))


async def _wait(pilot, event: threading.Event, rounds: int = 200) -> bool:
    for _ in range(rounds):
        if event.is_set():
            return True
        await pilot.pause(0.01)
    return event.is_set()
