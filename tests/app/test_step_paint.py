"""A slider step paints one frame with what changed, and asks for no layout (issue 11).

A layout makes Textual measure and repaint the whole screen, and a thumb
painted on its own makes the frame with the packet wait for Textual's next
tick or two: both showed as 40+ ms steps on ctx-large. These tests fail if
either comes back.
"""

from __future__ import annotations

import asyncio

import pytest
from ctxtui.tui.widgets.budget.slider import BudgetSlider
from textual.screen import Screen

from tests.app.helpers import SIZE, assert_why_laid_out, make_app, settle, status_text
from tests.conftest import corpus_path, needs_corpus

pytestmark = needs_corpus


@pytest.fixture
def layouts(monkeypatch) -> list[int]:
    """One item per screen layout (Textual's `_refresh_layout`)."""
    calls: list[int] = []
    original = Screen._refresh_layout

    def counting(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counting)
    return calls


@pytest.mark.asyncio
async def test_slider_steps_ask_for_no_layout(layouts):
    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.query_one(BudgetSlider).focus()
        await pilot.press("right")  # the first step shows the changes line: one layout for its new line
        await settle(pilot)
        del layouts[:]
        for key in ("right", "right", "shift+right", "right_square_bracket", "left"):
            budget = app.main.session.budget
            await pilot.press(key)
            await settle(pilot)
            assert app.main.session.budget != budget
        assert layouts == []
        assert f"budget {app.main.session.budget:,}" in status_text(app)
        assert_why_laid_out(app)


@pytest.mark.asyncio
async def test_the_thumb_is_painted_with_the_packet_not_before():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        slider = app.query_one(BudgetSlider)
        slider.focus()
        await settle(pilot)
        painted: list[bool] = []
        inside = [False]
        original, apply = slider.refresh, app.main._apply_budget

        def counting(*args, **kwargs):
            painted.append(inside[0])
            return original(*args, **kwargs)

        def applying() -> None:
            inside[0] = True
            try:
                apply()
            finally:
                inside[0] = False

        slider.refresh = counting
        app.main._apply_budget = applying
        target = slider.step_target(1)
        await pilot.press("right")
        await settle(pilot)
        # The thumb was repainted by the recompute (the frame with the packet), never on its own before it.
        assert painted and all(painted)
        assert slider.value == target == app.main.view.budget


@pytest.mark.asyncio
async def test_a_lone_slider_still_paints_its_own_thumb():
    from textual.app import App, ComposeResult

    class Lone(App):
        def compose(self) -> ComposeResult:
            yield BudgetSlider(1000, minimum=0, maximum=10_000)

    app = Lone()
    async with app.run_test() as pilot:
        slider = app.query_one(BudgetSlider)
        slider.focus()
        await pilot.pause()
        before = slider.thumb_x()
        await pilot.press("end")
        await pilot.pause()
        assert slider.value == 10_000 and slider.thumb_x() > before


@pytest.mark.asyncio
async def test_the_worker_path_shows_each_step_with_its_thumb(monkeypatch):
    """Above LARGE_WORKSPACE entries a step is computed in a worker: the packet, the warmed rows on screen
    and the thumb arrive together, and a burst of requests shows the newest budget."""
    import ctxtui.tui.main_screen as main_screen
    from ctxtui.tui.widgets.entries.rows import rows_of

    monkeypatch.setattr(main_screen, "LARGE_WORKSPACE", 10)
    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        slider = app.query_one(BudgetSlider)
        slider.focus()
        await settle(pilot)
        for key in ("right", "shift+right", "right_square_bracket"):
            target = (
                slider.step_target(1)
                if key == "right"
                else app.main.session.budget + (1 if key == "shift+right" else 100)
            )
            await pilot.press(key)
            await settle(pilot)
            view = app.main.view
            assert view.budget == target == slider.value and f"budget {target:,}" in status_text(app)
            rows = rows_of(view)
            assert not rows.complete and len(rows._made) <= SIZE[1]
            assert app.main._thumb_alone is None  # stopped when the packet came: the thumb went with it
        for budget in range(5000, 6000, 100):
            app.main.request_budget(budget)
        await settle(pilot)
        assert app.main.view.budget == 5900 == slider.value


def _screen_text(app) -> str:
    """The whole screen as the compositor holds it (each widget's cached lines), as terminal escape codes."""
    return app.screen._compositor.render_full_update().render_segments(app.console)


async def _assert_same_as_a_full_repaint(app, pilot) -> str:
    """The screen now equals the screen after the table is drawn again from scratch (no stale line)."""
    from ctxtui.tui.widgets.entries.table import EntriesTable

    partial = _screen_text(app)
    table = app.query_one(EntriesTable)
    table._line_cache.clear()
    table._drawn.clear()
    table.refresh()
    await settle(pilot)
    assert _screen_text(app) == partial
    return partial


@pytest.mark.asyncio
async def test_a_step_repaints_only_the_table_lines_it_changed(monkeypatch):
    """⇧→ from 4,001 to 4,002 keeps every cap (40% is 1,600 at both): the lines whose row did not change are
    not drawn again. To 4,003 the cap moves: the screen then equals a full repaint (no stale line is left)."""
    from ctxtui.tui.widgets.entries.table import EntriesTable

    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.query_one(EntriesTable)
        app.query_one(BudgetSlider).focus()
        await pilot.press("shift+right")  # the first step shows the changes line: a layout repaints everything
        await settle(pilot)
        drawn: list[int] = []
        original = EntriesTable.render_line

        def counting(self, y):
            drawn.append(y)
            return original(self, y)

        monkeypatch.setattr(EntriesTable, "render_line", counting)
        assert app.main.session.budget == 4001
        await pilot.press("shift+right")
        await settle(pilot)
        page = table.scrollable_content_region.height
        assert app.main.session.budget == 4002
        assert len(set(drawn)) < page // 2, f"{len(set(drawn))} of {page} lines drawn again"
        await pilot.press("shift+right")  # 4,003: 40% is 1,601, a new cap in every row's reason
        await settle(pilot)
        await _assert_same_as_a_full_repaint(app, pilot)


@pytest.mark.asyncio
async def test_a_step_that_moves_the_cap_repaints_every_row_line():
    """] changes every cap, so every row's reason: each line on screen shows the new budget's numbers."""
    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.query_one(BudgetSlider).focus()
        await pilot.press("shift+right")  # the first step shows the changes line: a layout repaints everything
        await settle(pilot)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "≤1,640" in await _assert_same_as_a_full_repaint(app, pilot)


@pytest.mark.asyncio
async def test_a_step_is_painted_at_once_and_the_real_token_count_starts_after_its_frame(monkeypatch):
    """The step's frame does not wait for Textual's 60 Hz timer (here it never paints), holds the new budget
    and the table's new reasons, and the o200k count's thread starts only once that frame is out (started
    before it, it took the GIL for a switch interval in the middle of the step)."""
    from ctxtui.tui.widgets.entries.table import EntriesTable

    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.query_one(BudgetSlider).focus()
        await pilot.press("shift+right")
        await settle(pilot)
        events: list[str] = []
        display, run_in_thread = app._display, app.run_in_thread

        def displaying(screen, renderable) -> None:
            display(screen, renderable)
            if renderable is not None:
                events.append(f"frame {app.main.view.budget} {_screen_text(app).count('≤1,640')}")

        def running(name, job):
            events.append(f"thread {name}")
            return run_in_thread(name, job)

        monkeypatch.setattr(app, "_display", displaying)
        monkeypatch.setattr(app, "run_in_thread", running)
        app.screen._update_timer.resume = lambda: None  # only a wanted frame is painted now
        from textual import events as textual_events

        app._driver.send_message(textual_events.Key("right_square_bracket", "]"))
        for _ in range(200):
            if "thread tokens" in events:
                break
            await asyncio.sleep(0.005)
        budget, shown = events[0].split()[1:]
        assert events[0].startswith("frame") and events[1] == "thread tokens", events
        # the frame holds the step: the new budget, and every table row's reason with the new cap
        rows = app.query_one(EntriesTable).scrollable_content_region.height - 1
        assert budget == "4101" and int(shown) >= rows, events


@pytest.mark.asyncio
async def test_a_new_loads_thresholds_scan_starts_after_its_first_frame(monkeypatch):
    """The scan shares the GIL with the paint: it starts once the first packet's frame is out, not before."""
    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    events: list[str] = []
    display, run_in_thread = app._display, app.run_in_thread

    def displaying(screen, renderable) -> None:
        display(screen, renderable)
        if renderable is not None and getattr(app.main, "view", None) is not None:
            events.append("frame with the packet")

    def running(name, job):
        events.append(f"thread {name}")
        return run_in_thread(name, job)

    monkeypatch.setattr(app, "_display", displaying)
    monkeypatch.setattr(app, "run_in_thread", running)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "thread thresholds" in events
        assert events.index("frame with the packet") < events.index("thread thresholds"), events
