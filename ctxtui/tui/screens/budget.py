"""The `b` dialog: a small modal around `BudgetInput` that dismisses with the typed budget, or None.

It shows the allowed range, starts with the current budget selected (typing
replaces it) and, when Enter is pressed on a value it cannot take, says why in
words and stays open.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from ctxtui.tui.widgets.budget.input import BudgetCancelled, BudgetEntered, BudgetInput, BudgetRefused, range_text


class BudgetInputScreen(ModalScreen[int | None]):
    """A small modal around `BudgetInput`; dismisses with the value or None (the `push_screen` callback's)."""

    AUTO_FOCUS = "BudgetInput"  # whatever the App's AUTO_FOCUS says

    DEFAULT_CSS = """
    BudgetInputScreen { align: center middle; }
    BudgetInputScreen > Vertical {
        width: 48;
        height: auto;
        padding: 1 2;
        border: round $primary;
        background: $panel;
    }
    BudgetInputScreen Label { width: 100%; }
    BudgetInputScreen #budget-input-hint { color: $text-muted; }
    BudgetInputScreen #budget-input-range { color: $text-muted; }
    BudgetInputScreen #budget-input-refused { color: $text-error; display: none; }
    BudgetInputScreen #budget-input-refused.shown { display: block; }
    BudgetInputScreen BudgetInput { width: 100%; }
    """

    def __init__(
        self,
        value: int | None = None,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
        title: str = "Budget (tokens)",
    ) -> None:
        super().__init__()
        self._value = value
        self._minimum = minimum
        self._maximum = maximum
        self._title = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self._title)
            yield BudgetInput(self._value, minimum=self._minimum, maximum=self._maximum)
            yield Label(f"From {range_text(self._minimum, self._maximum)}", id="budget-input-range", markup=False)
            yield Label("", id="budget-input-refused", markup=False)
            yield Label("Enter applies · Esc cancels", id="budget-input-hint")

    @on(BudgetEntered)
    def _entered(self, event: BudgetEntered) -> None:
        self.dismiss(event.value)  # the message carries on up, as a widget's message does

    @on(BudgetRefused)
    def _refused(self, event: BudgetRefused) -> None:
        event.stop()
        refused = self.query_one("#budget-input-refused", Label)
        refused.update(f"Not applied: {event.reason}")
        refused.add_class("shown")

    @on(Input.Changed)
    def _typing(self, event: Input.Changed) -> None:
        """Typing again puts the refusal away. (Putting the last good value back also posts Changed,
        but before `BudgetRefused`, so the refusal shows after it.)"""
        self.query_one("#budget-input-refused", Label).remove_class("shown")

    @on(BudgetCancelled)
    def _cancelled(self, event: BudgetCancelled) -> None:
        event.stop()
        self.dismiss(None)
