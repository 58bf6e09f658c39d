"""PromptFrameScreen: a wanted frame is painted as soon as the screen is idle, and `then` runs after it."""

from __future__ import annotations

import asyncio

import pytest
from ctxtui.tui.prompt_frame import AFTER_FRAME_LIMIT, PromptFrameScreen
from textual.app import App, ComposeResult
from textual.widgets import Static


class Counter(PromptFrameScreen):
    def compose(self) -> ComposeResult:
        yield Static("0", id="n")


class Host(App):
    def __init__(self) -> None:
        super().__init__()
        self.frames: list[str] = []
        self.events: list[str] = []

    def on_mount(self) -> None:
        self.push_screen(Counter())

    def _display(self, screen, renderable) -> None:
        super()._display(screen, renderable)
        if renderable is not None:
            self.frames.append(str(self.screen.query_one("#n", Static).render()))
            self.events.append("frame")


async def _until(condition, timeout: float = 2.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.001)


@pytest.mark.asyncio
async def test_a_wanted_frame_is_painted_without_the_update_timer():
    app = Host()
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, Counter)
        screen._update_timer.resume = lambda: None  # Textual's 60 Hz timer never paints from here on
        del app.frames[:]
        screen.want_frame(then=lambda: app.events.append("then"))
        screen.query_one("#n", Static).update("1")
        await _until(lambda: "1" in app.frames)
        await _until(lambda: "then" in app.events)
        assert app.events.index("then") > app.events.index("frame")  # `then` runs once the frame is out


@pytest.mark.asyncio
async def test_an_unwanted_repaint_still_waits_for_the_timer():
    app = Host()
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = app.screen
        screen._update_timer.resume = lambda: None
        del app.frames[:]
        screen.query_one("#n", Static).update("2")
        await asyncio.sleep(0.1)
        assert "2" not in app.frames


@pytest.mark.asyncio
async def test_then_runs_even_when_no_frame_comes():
    app = Host()
    async with app.run_test() as pilot:
        await pilot.pause()
        called: list[float] = []
        loop = asyncio.get_running_loop()
        start = loop.time()
        app.screen.want_frame(then=lambda: called.append(loop.time()))
        await _until(lambda: called, timeout=5 * AFTER_FRAME_LIMIT + 1)
        assert called[0] - start >= AFTER_FRAME_LIMIT * 0.9
