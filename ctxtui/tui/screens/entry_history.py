"""An entry's history (`y` on the main screen): the commits at which its fate changed, and why, in numbers.

The why panel explains the fate at this budget now; `y` follows the same
entry (by its key) back through the commits that touched `.context/`, each
packed at its own date against its parent (`explain QUERY --history`). The
result is shown in the why panel's History section; this dialog shows it
when the panel is hidden (a narrow terminal).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ctxtui.opening.history_log import EntryHistory
from ctxtui.safe_text import clean_line
from ctxtui.tui.actions import ENTRY_HISTORY, bindings
from ctxtui.tui.widgets.why.history_text import moves_text


def render_moves(title: str, found: EntryHistory) -> Text:
    """The dialog's text: the entry's title, then `moves_text`."""
    text = Text(f"{clean_line(title)}\n", style="bold")
    text.append_text(moves_text(found))
    return text


class EntryHistoryScreen(ModalScreen):
    BINDINGS = bindings(ENTRY_HISTORY)
    DEFAULT_CSS = """
    EntryHistoryScreen { align: center middle; }
    EntryHistoryScreen > VerticalScroll { width: 100; max-height: 80%; height: auto; padding: 1 2;
                                          border: round $primary; background: $panel; }
    """

    def __init__(self, content: Text) -> None:
        super().__init__()
        self._content = content

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self._content)
