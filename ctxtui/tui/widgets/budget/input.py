"""Typing an exact budget: an integer field (the `b` dialog is `screens.budget.BudgetInputScreen`).

A slider cell spans many budgets; typing "12000" is the quick way to an exact
one. ctx accepts any integer (zero and negative included), so a leading "-" is
allowed. The field starts with the current budget selected, so typing replaces
it. Enter applies (posts `BudgetEntered`) or, for a value it cannot take,
posts `BudgetRefused` with the reason in words and puts the last good value
back, selected; Esc cancels (posts `BudgetCancelled`).
"""

from __future__ import annotations

from textual import on
from textual.message import Message
from textual.widgets import Input
from textual.widgets.input import Selection

from ctxtui.tui.actions import BUDGET_INPUT, bindings


class BudgetEntered(Message):
    """The user typed a valid budget and pressed Enter."""

    def __init__(self, value: int) -> None:
        super().__init__()
        self.value = value


class BudgetRefused(Message):
    """The user pressed Enter on a value the field cannot take; `reason` says why, in words."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class BudgetCancelled(Message):
    """The user pressed Esc in a budget field."""


def range_text(minimum: int | None, maximum: int | None) -> str:
    """The allowed budgets in words, e.g. "0 to 2,000,000 tokens"."""
    if minimum is not None and maximum is not None:
        return f"{minimum:,} to {maximum:,} tokens"
    if minimum is not None:
        return f"at least {minimum:,} tokens"
    if maximum is not None:
        return f"at most {maximum:,} tokens"
    return "any whole number of tokens"


class BudgetInput(Input):
    """An `Input` that takes an integer budget: digits and one leading "-"."""

    BINDINGS = bindings(BUDGET_INPUT)

    DEFAULT_CSS = """
    BudgetInput { width: 24; }
    """

    def __init__(
        self,
        value: int | None = None,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
        placeholder: str = "budget in tokens",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(
            "" if value is None else str(value),
            placeholder=placeholder,
            restrict=r"-?[0-9]*",
            max_length=12,
            select_on_focus=True,
            name=name,
            id=id,
            classes=classes,
        )
        self.minimum = minimum
        self.maximum = maximum
        self._last_good = "" if value is None else str(value)

    def refusal(self) -> str | None:
        """Why the typed text is not a budget this field takes, in words; None when it is one."""
        try:
            value = int(self.value)
        except ValueError:
            return "type a whole number of tokens"
        if self.minimum is not None and value < self.minimum:
            return f"{value:,} is below the smallest budget, {self.minimum:,} tokens"
        if self.maximum is not None and value > self.maximum:
            return f"{value:,} is above the largest budget, {self.maximum:,} tokens"
        return None

    def parsed(self) -> int | None:
        """The typed integer, or None while it is empty, "-" or out of range."""
        return None if self.refusal() is not None else int(self.value)

    @on(Input.Changed)
    def _mark(self, event: Input.Changed) -> None:
        if event.input is self:
            self.set_class(bool(self.value) and self.refusal() is not None, "-invalid")

    @on(Input.Submitted)
    def _apply(self, event: Input.Submitted) -> None:
        if event.input is not self:
            return
        event.stop()
        reason = self.refusal()
        if reason is not None:
            self.app.bell()
            # The refused text does not stay: the last good value comes back, selected, so typing replaces it.
            self.value = self._last_good
            self.selection = Selection(0, len(self.value))
            self.post_message(BudgetRefused(reason))
            return
        self.post_message(BudgetEntered(int(self.value)))

    def action_cancel(self) -> None:
        self.post_message(BudgetCancelled())
