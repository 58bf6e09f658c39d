"""The `?` help: a modal listing keys, with optional group headings, closed by Esc, q or ?.

The App passes the lines `actions.help_lines` builds from the registry (the
user's remapped keys, not the defaults).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ctxtui.safe_text import clean_line
from ctxtui.tui.actions import HELP, bindings

# (keys as shown, description), or a group heading as (None, heading).
HelpItem = tuple[str | None, str]


class HelpScreen(ModalScreen[None]):
    """Keys and what they do, keys right-aligned in one column."""

    BINDINGS = bindings(HELP)

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: auto;
        max-width: 90%;
        height: auto;
        max-height: 90%;
        overflow-y: auto;
        padding: 1 2;
        border: round $primary;
        border-title-color: $primary;
        border-subtitle-color: $text-muted;
        background: $panel;
    }
    HelpScreen #help-keys { width: auto; height: auto; }
    """

    def __init__(self, items: Sequence[HelpItem], *, title: str = "Keys", footer: str = "Esc, q or ? closes") -> None:
        super().__init__()
        self._items = list(items)
        self._title = title
        self._footer = footer

    def compose(self) -> ComposeResult:
        box = Vertical()
        box.border_title = self._title
        box.border_subtitle = self._footer
        with box:
            yield Static(self._text(), id="help-keys")

    def _text(self) -> Text:
        """Keys right-aligned in one column, descriptions beside them, headings between."""
        items = [(None if key is None else clean_line(key), clean_line(text)) for key, text in self._items]
        width = max((cell_len(key) for key, _ in items if key is not None), default=0)
        out = Text(end="")
        for index, (key, description) in enumerate(items):
            if index:
                out.append("\n")
            if key is None:
                if index:
                    out.append("\n")
                out.append(description, style="bold underline")
                continue
            out.append(" " * (width - cell_len(key)))
            out.append(key, style="bold")
            out.append("  ")
            out.append(description)
        return out

    def action_close(self) -> None:
        self.dismiss(None)
