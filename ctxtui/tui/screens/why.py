"""The why panel as a dialog, for terminals too narrow to show it beside the table (Enter on an entry)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ctxtui.tui.actions import WHY, bindings


class WhyScreen(ModalScreen):
    """One entry's explanation (the why panel's text), closed by Esc, Enter or q."""

    BINDINGS = bindings(WHY)
    DEFAULT_CSS = """
    WhyScreen { align: center middle; }
    WhyScreen > VerticalScroll { width: 90%; height: 90%; padding: 0 1; border: round $primary; background: $panel; }
    """

    def __init__(self, content: Text) -> None:
        super().__init__()
        self._content = content

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self._content)
