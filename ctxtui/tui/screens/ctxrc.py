"""Saving knobs to `.ctxrc`: the change as a diff, written only when the user says yes.

The one write the app makes into a project: `.ctxrc` (or the file it links
to), atomically, only the values set changed (`engine.sources.ctxrc_edit`),
the previous content kept in a backup that never replaces a file ctxtui did
not write (`opening.ctxrc_save`). The dialog says which file is written and
where the backup goes, and shows the change before anything is written; `y`
writes (unless the file changed meanwhile: then the new change is shown), `n`
or Esc leaves the file alone.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

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

    def __init__(self, question: str, diff: str, hint: str = "y writes it · n or Esc leaves it") -> None:
        super().__init__()
        self._question = question
        self._diff = diff
        self._hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(clean_line(self._question), id="confirm-question", markup=False)  # wraps a long path
            with VerticalScroll():
                yield Static(diff_text(self._diff), id="confirm-diff")
            yield Static(clean_line(self._hint), id="confirm-hint", markup=False)

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
