"""An entry's history (`y` on the main screen): the commits at which its fate changed, and why, in numbers.

The why panel explains the fate at this budget now; this dialog follows the
same entry (by its key) back through the commits that touched `.context/`,
each packed at its own date against its parent (`explain QUERY --history`).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ctxtui.engine.explain.history_reasons import move_words
from ctxtui.safe_text import clean_line
from ctxtui.tui.actions import ENTRY_HISTORY, bindings


def render_moves(title: str, moves: list, looked_at: int, complete: bool) -> Text:
    text = Text(f"{clean_line(title)}\n", style="bold")
    text.append(f"its fate through the {looked_at:,} newest commits that touched .context/ (each at its own date)\n\n")
    if not moves:
        text.append("Its fate did not change in them.")
    for move in moves:
        commit = move.commit
        text.append(f"{commit.commit[:10]} {commit.date[:10]}  ", style="bold")
        text.append(f"{move_words(move.change.before, move.change.after)} ({move.change.cause})\n")
        text.append(f"    {clean_line(commit.subject)[:70]}\n", style="italic")
        for reason in move.reasons:
            text.append(f"    · {clean_line(reason)}\n")
        text.append("\n")
    if not complete:
        text.append("Stopped at the time bound: older commits were not looked at.", style="italic")
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
