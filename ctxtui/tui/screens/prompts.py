"""One-line prompts: the `/` text filter. Enter applies, Esc cancels. (Saving has its own: `save.py`.)"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from ctxtui.tui.actions import PROMPT, bindings


class PromptScreen(ModalScreen[str | None]):
    """A small modal asking for one line of text."""

    BINDINGS = bindings(PROMPT)
    DEFAULT_CSS = """
    PromptScreen { align: center top; }
    PromptScreen > Vertical { width: 70; height: auto; margin-top: 3; padding: 1 2;
                              border: round $primary; background: $panel; }
    PromptScreen Label { width: 100%; }
    """

    def __init__(self, title: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self._title, self._value, self._placeholder = title, value, placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self._title, markup=False)
            yield Input(self._value, placeholder=self._placeholder)
            yield Label("Enter applies · Esc cancels", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class FilterScreen(PromptScreen):
    def __init__(self, value: str = "") -> None:
        super().__init__("Filter entries (title, section, reason, file); empty clears", value, "text…")
