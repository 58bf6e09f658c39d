"""The `b` dialog: a small modal around `BudgetInput` that dismisses with the typed budget, or None."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from ctxtui.tui.widgets.budget.input import BudgetCancelled, BudgetEntered, BudgetInput


class BudgetInputScreen(ModalScreen[int | None]):
    """A small modal around `BudgetInput`; dismisses with the value or None (the `push_screen` callback's)."""

    AUTO_FOCUS = "BudgetInput"  # whatever the App's AUTO_FOCUS says

    DEFAULT_CSS = """
    BudgetInputScreen { align: center middle; }
    BudgetInputScreen > Vertical {
        width: 40;
        height: auto;
        padding: 1 2;
        border: round $primary;
        background: $panel;
    }
    BudgetInputScreen Label { width: 100%; }
    BudgetInputScreen #budget-input-hint { color: $text-muted; }
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
            yield Label("Enter applies · Esc cancels", id="budget-input-hint")

    @on(BudgetEntered)
    def _entered(self, event: BudgetEntered) -> None:
        self.dismiss(event.value)  # the message carries on up, as a widget's message does

    @on(BudgetCancelled)
    def _cancelled(self, event: BudgetCancelled) -> None:
        event.stop()
        self.dismiss(None)
