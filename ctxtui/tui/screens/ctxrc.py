"""Saving knobs to `.ctxrc`: the change as a diff, written only when the user says yes.

The one write the app makes into a project: `.ctxrc`, atomically, with the
previous file kept as `.ctxrc.bak`, comments, key order and unknown keys
untouched (`engine.sources.ctxrc_edit`). The dialog shows exactly what will
change before anything is written; `y` writes, `n` or Esc leaves the file alone.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ctxtui.safe_text import clean_block, clean_line
from ctxtui.tui.actions import CONFIRM, bindings


def diff_text(diff: str) -> Text:
    """A unified diff with its added and removed lines coloured (and its text made safe)."""
    out = Text()
    for line in clean_block(diff).splitlines(keepends=True):
        style = ""
        if line.startswith("+") and not line.startswith("+++"):
            style = "green"
        elif line.startswith("-") and not line.startswith("---"):
            style = "red"
        elif line.startswith("@@"):
            style = "cyan"
        out.append(line, style=style)
    return out


class ConfirmWriteScreen(ModalScreen[bool]):
    """ "Write this change to PATH?" with the diff; dismisses True on `y`, False on `n`/Esc."""

    BINDINGS = bindings(CONFIRM)
    DEFAULT_CSS = """
    ConfirmWriteScreen { align: center middle; }
    ConfirmWriteScreen > Vertical { width: 100; max-width: 100%; height: auto; max-height: 90%; padding: 1 2;
                                    border: round $warning; background: $panel; }
    ConfirmWriteScreen VerticalScroll { height: auto; max-height: 24; }
    ConfirmWriteScreen #confirm-hint { color: $text-muted; }
    """

    def __init__(self, question: str, diff: str) -> None:
        super().__init__()
        self._question = question
        self._diff = diff

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(clean_line(self._question), id="confirm-question", markup=False)  # wraps a long path
            with VerticalScroll():
                yield Static(diff_text(self._diff), id="confirm-diff")
            yield Label("y writes it (the old file is kept as .ctxrc.bak) · n or Esc leaves it", id="confirm-hint")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
