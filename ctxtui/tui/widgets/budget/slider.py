"""A budget slider: one track, one thumb, mouse and keys, integer values.

Textual has no slider, and the one on PyPI is GPL, linear, keys-only and posts
on construction. This one maps the track through a `Scale` (logarithmic by
default, so 0..2,000,000 stays usable on a 40-cell track). ←/→ move the thumb
one cell, to a round value (`round_budget`), so each press shows; shift+←/→
step by `step`, so every integer is reachable. A click or a drag lands on a
round value too. `Changed` is posted only for user input and coalesces in the
message queue: a fast drag produces one recompute per frame, not one per mouse
event.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rich.segment import Segment
from textual import events
from textual.geometry import clamp
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ctxtui.tui.actions import SLIDER, bindings


def round_budget(value: float, direction: int = 0, digits: int = 2) -> int:
    """`value` to `digits` significant digits (8,437 → 8,400; 99 stays 99): a budget worth reading.

    `direction` 0 rounds to the nearest, 1 up and -1 down (towards where a key moves).
    """
    if value == 0:
        return 0
    unit = 10 ** max(0, math.floor(math.log10(abs(value))) - digits + 1)
    ratio = value / unit
    whole = math.floor(ratio) if direction < 0 else math.ceil(ratio) if direction > 0 else round(ratio)
    return int(whole * unit)


class Scale:
    """Maps values in [minimum, maximum] to track fractions in [0, 1] and back."""

    def to_fraction(self, value: int, minimum: int, maximum: int) -> float:
        raise NotImplementedError

    def from_fraction(self, fraction: float, minimum: int, maximum: int) -> int:
        raise NotImplementedError


class LinearScale(Scale):
    def to_fraction(self, value: int, minimum: int, maximum: int) -> float:
        span = maximum - minimum
        return 0.0 if span <= 0 else (value - minimum) / span

    def from_fraction(self, fraction: float, minimum: int, maximum: int) -> int:
        return minimum + round(fraction * (maximum - minimum))


@dataclass(frozen=True)
class LogScale(Scale):
    """Logarithmic above a knee, near-linear below it: v = knee·(e^(t·L) − 1).

    With L = ln(1 + span/knee). A knee of span/2000 spreads 0..200,000 so that
    each cell of a 40-cell track is ~20% more than the last, and the low end is
    not squashed onto cell 0. `knee=None` picks that default; the budget slider
    sets 100 (tokens), which keeps 1,000..32,000 in the middle of the track
    whatever the maximum.
    """

    knee: float | None = None

    def _knee(self, span: int) -> float:
        return self.knee if self.knee is not None else max(1.0, span / 2000)

    def to_fraction(self, value: int, minimum: int, maximum: int) -> float:
        span = maximum - minimum
        if span <= 0:
            return 0.0
        knee = self._knee(span)
        return math.log1p(max(0, value - minimum) / knee) / math.log1p(span / knee)

    def from_fraction(self, fraction: float, minimum: int, maximum: int) -> int:
        span = maximum - minimum
        if span <= 0:
            return minimum
        knee = self._knee(span)
        return minimum + round(knee * math.expm1(fraction * math.log1p(span / knee)))


class BudgetSlider(Widget, can_focus=True):
    """A horizontal integer slider. `value` is reactive; user input posts `Changed`."""

    ALLOW_SELECT = False  # or the screen starts a text selection on mouse-down

    BINDINGS = bindings(SLIDER)

    COMPONENT_CLASSES = {
        "budget-slider--track",
        "budget-slider--fill",
        "budget-slider--thumb",
    }

    DEFAULT_CSS = """
    BudgetSlider {
        width: 1fr;
        min-width: 8;
        height: 1;
    }
    BudgetSlider > .budget-slider--track { color: $foreground 30%; }
    BudgetSlider > .budget-slider--fill { color: $primary; }
    BudgetSlider > .budget-slider--thumb { color: $foreground; text-style: bold; }
    BudgetSlider:focus > .budget-slider--thumb { color: $accent; }
    BudgetSlider:focus > .budget-slider--fill { color: $accent 70%; }
    BudgetSlider:disabled > .budget-slider--thumb { color: $foreground 40%; }
    """

    TRACK = "─"
    FILL = "━"
    THUMB = "●"

    value: reactive[int] = reactive(0, init=False)

    class Changed(Message):
        """The user moved the slider. Only the newest one stays queued."""

        def __init__(self, slider: BudgetSlider, value: int) -> None:
            super().__init__()
            self.slider = slider
            self.value = value

        @property
        def control(self) -> BudgetSlider:
            return self.slider

        def can_replace(self, message: Message) -> bool:
            # Called on the queued message with the next one: a newer Changed
            # from the same slider supersedes it, so only the latest value is handled.
            return isinstance(message, BudgetSlider.Changed) and message.slider is self.slider

    def __init__(
        self,
        value: int = 0,
        *,
        minimum: int = 0,
        maximum: int = 200_000,
        step: int = 1,
        snap: bool = True,
        coarse_step: int | None = None,
        scale: Scale | None = None,
        paint_with_listener: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        """
        Args:
            value: Initial value (clamped to the range); posts nothing.
            minimum, maximum: Inclusive integer range.
            step: shift+←/→ step. 1 reaches every integer.
            snap: ←/→, clicks and drags land on round values (`round_budget`);
                False: ←/→ step by `step` and a click selects the cell's exact value.
            coarse_step: PgUp/PgDn step; None moves the thumb by 1/20 of the
                track in scale space (multiplicative on a log scale).
            scale: Track mapping; defaults to `LogScale()`.
            paint_with_listener: a user's move does not repaint the slider: whoever
                handles `Changed` repaints it, in the frame that shows what the new
                value changed. Textual paints at most one frame per 1/60 s, so a thumb
                painted alone makes the frame with the packet wait a tick or two
                (measured: 44 ms instead of 17 ms for a → on ctx-large, issue 11).
        """
        if maximum < minimum:
            raise ValueError(f"maximum {maximum} < minimum {minimum}")
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.minimum = minimum
        self.maximum = maximum
        self.step = max(1, step)
        self.snap = snap
        self.coarse_step = coarse_step
        self.scale = scale if scale is not None else LogScale()
        self._dragging = False
        self._grab_x: int | None = None
        self.paint_with_listener = paint_with_listener
        self.set_reactive(BudgetSlider.value, self._clamp(value))

    # -- value -----------------------------------------------------------------

    def _clamp(self, value: int) -> int:
        return int(clamp(int(value), self.minimum, self.maximum))

    def validate_value(self, value: int) -> int:
        return self._clamp(value)

    def watch_value(self) -> None:
        self.refresh()

    def set_value(self, value: int, *, post: bool = False) -> None:
        """Set the value from code; posts `Changed` only when `post` is true."""
        self.value = value
        if post:
            self.post_message(self.Changed(self, self.value))

    def _user_set(self, value: int) -> None:
        value = self._clamp(value)
        if value != self.value:
            if self.paint_with_listener:
                self.set_reactive(BudgetSlider.value, value)
            else:
                self.value = value
            self.post_message(self.Changed(self, value))

    # -- geometry ----------------------------------------------------------------

    @property
    def _track_width(self) -> int:
        return max(1, self.content_region.width)

    def value_at(self, x: int) -> int:
        """The value a click at content column `x` selects: the roundest of that cell (the ends exactly)."""
        cells = self._track_width - 1
        x = int(clamp(x, 0, max(0, cells)))
        if self.snap and 0 < x < cells:
            found = self._roundest_in(x)
            if found is not None:
                return found
        fraction = 0.0 if cells <= 0 else x / cells
        return self._clamp(self.scale.from_fraction(fraction, self.minimum, self.maximum))

    def thumb_x(self) -> int:
        """Content column of the thumb for the current value."""
        return self._cell_of(self.value)

    def _cell_of(self, value: int) -> int:
        cells = self._track_width - 1
        fraction = self.scale.to_fraction(value, self.minimum, self.maximum)
        return int(clamp(round(fraction * cells), 0, cells))

    def _roundest_in(self, cell: int) -> int | None:
        """The value with the fewest significant digits among those the thumb shows at `cell` (None: none)."""
        cells = self._track_width - 1
        low = self.scale.from_fraction(clamp((cell - 0.5) / cells, 0.0, 1.0), self.minimum, self.maximum)
        high = self.scale.from_fraction(clamp((cell + 0.5) / cells, 0.0, 1.0), self.minimum, self.maximum)
        for digits in range(1, 9):
            value = round_budget(low, 1, digits)
            if value <= high and self._cell_of(value) == cell and self.minimum <= value <= self.maximum:
                return value
        return None

    def step_target(self, direction: int) -> int:
        """Where ←/→ go: the roundest value of the next cell that way, so the thumb moves one cell.

        Without `snap`, or where a cell holds no integer, `step` on.
        """
        value = self.value
        cell = self._cell_of(value) + direction
        cells = self._track_width - 1
        if self.snap and 0 <= cell <= cells:
            if cell in (0, cells):
                return self.minimum if cell == 0 else self.maximum
            found = self._roundest_in(cell)
            if found is not None and (found - value) * direction > 0:
                return found
        return self._clamp(value + direction * self.step)

    # -- rendering ---------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width
        if y != 0 or width <= 0:
            return Strip.blank(width, self.rich_style)
        thumb = self.thumb_x()
        fill = self.get_component_rich_style("budget-slider--fill")
        track = self.get_component_rich_style("budget-slider--track")
        knob = self.get_component_rich_style("budget-slider--thumb")
        segments = [
            Segment(self.FILL * thumb, fill),
            Segment(self.THUMB, knob),
            Segment(self.TRACK * (width - thumb - 1), track),
        ]
        return Strip(segments, width)

    # -- keys --------------------------------------------------------------------

    def action_step(self, direction: int) -> None:
        self._user_set(self.step_target(direction))

    def action_fine(self, direction: int) -> None:
        self._user_set(self.value + direction * self.step)

    def action_coarse(self, direction: int) -> None:
        if self.coarse_step is not None:
            self._user_set(self.value + direction * self.coarse_step)
            return
        fraction = self.scale.to_fraction(self.value, self.minimum, self.maximum)
        target = self.scale.from_fraction(clamp(fraction + direction / 20, 0.0, 1.0), self.minimum, self.maximum)
        if target == self.value:  # rounding on a flat part of the scale: still move
            target += direction * self.step
        self._user_set(target)

    def action_to_end(self, direction: int) -> None:
        self._user_set(self.maximum if direction > 0 else self.minimum)

    # -- mouse -------------------------------------------------------------------

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if self.disabled or event.button != 1:
            return
        offset = event.get_content_offset(self)
        if offset is None:  # on padding or border
            return
        event.stop()
        event.prevent_default()
        self._dragging = True
        self.capture_mouse()
        self._grab_x = offset.x
        if offset.x != self.thumb_x():
            # Grabbing the thumb itself keeps the exact value (a cell spans many budgets).
            self._user_set(self.value_at(offset.x))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if not self._dragging:
            return
        event.stop()
        x = event.get_content_offset_capture(self).x
        if x == self._grab_x:
            return  # still on the cell where the drag began: nothing moved yet
        self._grab_x = None
        # Works when the pointer has left the widget: the capture keeps the events coming.
        self._user_set(self.value_at(x))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self._dragging:
            event.stop()
            self._end_drag()

    def on_mouse_release(self, event: events.MouseRelease) -> None:
        # Capture can be taken away (another widget captured, screen change).
        self._dragging = False

    def on_blur(self) -> None:
        if self._dragging:
            self._end_drag()

    def _end_drag(self) -> None:
        self._dragging = False
        self.release_mouse()

    @property
    def dragging(self) -> bool:
        return self._dragging
