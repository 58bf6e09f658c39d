"""A screen that paints the frame a user is waiting for at once, instead of at Textual's next frame tick.

Textual paints a screen from a 60 Hz timer: when the screen falls idle with
widgets to repaint, it resumes the timer, which fires on its own grid, one
1/60 s after another, never two frames closer than 16.7 ms. A slider step that
lands just after a frame (the previous step's, or the status line's real-token
count) waited for the next tick: up to 16.7 ms, a third to a half of a
ctx-large step on this project's machines (issue 11).

`want_frame()` marks the next repaint as one the user is waiting for: the
first time the screen falls idle with widgets to repaint, it paints them
there and then, as the timer would. Widgets post their repaints before the
screen falls idle (each is woken by the change that moved it), so that frame
holds the whole step. Everything else, and any repaint that comes after, goes
through the timer as before.

`want_frame(then=...)` also runs work once that frame is on screen. Textual's
`call_after_refresh` cannot say that: it runs its callback as soon as the
screen is idle with nothing dirty, which after a step is *before* the widgets
have posted their repaints. The status line's real-token count started there
took the GIL in a thread for a whole switch interval (~4 ms) before the step's
frame was painted. If no frame comes (nothing changed), `then` runs after
`AFTER_FRAME_LIMIT` seconds.

This relies on Textual 8.2.8's screen internals (`_on_idle`,
`_dirty_widgets`, `_on_timer_update`, the last of which its own `Pilot`
calls the same way); the pinned version and `tests/app/test_step_paint.py`
keep it honest.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.screen import Screen
from textual.timer import Timer

AFTER_FRAME_LIMIT = 0.1  # seconds: `then` callbacks run by then even if no frame was painted


class PromptFrameScreen(Screen):
    """A `Screen` whose `want_frame()` makes its next repaint happen as soon as it is idle."""

    _frame_wanted = False
    _after_frame: tuple[Callable[[], object], ...] = ()  # what runs once the wanted frame is out
    _after_frame_timer: Timer | None = None

    def want_frame(self, then: Callable[[], object] | None = None) -> None:
        """Paint the widgets' next repaint as soon as this screen is idle, not at the next timer tick;
        then call `then` (after at most `AFTER_FRAME_LIMIT` seconds if nothing was painted)."""
        self._frame_wanted = True
        if then is not None:
            self._after_frame = (*self._after_frame, then)
            if self._after_frame_timer is None:
                self._after_frame_timer = self.set_timer(AFTER_FRAME_LIMIT, self._run_after_frame)

    def _run_after_frame(self) -> None:
        timer, self._after_frame_timer = self._after_frame_timer, None
        if timer is not None:
            timer.stop()
        callbacks, self._after_frame = self._after_frame, ()
        for callback in callbacks:
            callback()

    async def _on_idle(self, event: events.Idle) -> None:
        if self._frame_wanted and self._dirty_widgets and self.is_current and not self.app._batch_count:
            self._frame_wanted = False
            self._on_timer_update()  # what the update timer's tick does: lay out if needed, paint, display
            self._run_after_frame()
        await super()._on_idle(event)
