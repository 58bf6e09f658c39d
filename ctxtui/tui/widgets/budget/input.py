"""Typing an exact budget: an integer field (the `b` dialog is `screens.budget.BudgetInputScreen`).

A 40-cell slider reaches ~40 values and ←/→ walk one token at a time; typing
"12000" is the quick way to an exact budget. ctx accepts any integer (zero and
negative included), so a leading "-" is allowed. Enter applies (posts
`BudgetEntered`), Esc cancels (posts `BudgetCancelled`).
"""

from __future__ import annotations

from textual import on
from textual.message import Message
from textual.validation import Integer
from textual.widgets import Input

from ctxtui.tui.actions import BUDGET_INPUT, bindings


class BudgetEntered(Message):
    """The user typed a valid budget and pressed Enter."""

    def __init__(self, value: int) -> None:
        super().__init__()
        self.value = value


class BudgetCancelled(Message):
    """The user pressed Esc in a budget field."""


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
            validators=[Integer(minimum=minimum, maximum=maximum)],
            validate_on=["changed", "submitted"],
            name=name,
            id=id,
            classes=classes,
        )

    def parsed(self) -> int | None:
        """The typed integer, or None while it is empty, "-" or out of range."""
        result = self.validate(self.value)
        if result is not None and not result.is_valid:
            return None
        try:
            return int(self.value)
        except ValueError:
            return None

    @on(Input.Submitted)
    def _apply(self, event: Input.Submitted) -> None:
        if event.input is not self:
            return
        event.stop()
        value = self.parsed()
        if value is None:
            self.add_class("-invalid")
            self.app.bell()
            return
        self.post_message(BudgetEntered(value))

    def action_cancel(self) -> None:
        self.post_message(BudgetCancelled())
