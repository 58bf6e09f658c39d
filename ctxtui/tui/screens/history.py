"""The history view (`h`): the commits that touched `.context/`, stepped with the keys or the mouse.

A panel at the right edge: the main screen stays visible beside it and
shows the packet at the highlighted commit as the highlight moves (each
commit packed at its own date, read from git objects, never a checkout).
Enter or a click closes the panel on that commit; `H` or `w` goes back to
the working tree; Escape closes it where it is.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from ctxtui.safe_text import clean_line
from ctxtui.tui.actions import HISTORY, bindings

WORKING_TREE = ""  # the option id of the working tree


class HistoryScreen(ModalScreen[str | None]):
    """The commits, newest first, the working tree above them; `show(rev)` shows one (None: the working tree)."""

    BINDINGS = bindings(HISTORY)
    DEFAULT_CSS = """
    HistoryScreen { align: right top; background: $background 0%; }
    HistoryScreen > Vertical { width: 64; height: 100%; border-left: thick $primary; background: $panel;
                               padding: 0 1; }
    HistoryScreen #history-title { text-style: bold; padding: 0 0 1 0; }
    HistoryScreen #history-help { color: $text-muted; padding: 1 0 0 0; }
    HistoryScreen OptionList { height: 1fr; border: none; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, commits: list, current: str | None, show: Callable[[str | None], None]) -> None:
        super().__init__()
        self._commits = commits
        self._current = current
        self._show = show
        self._shown: str | None = current

    def compose(self) -> ComposeResult:
        options = [Option(Content.assemble(("● the working tree", "bold"), " (now, editable)"), id=WORKING_TREE)]
        for commit in self._commits:
            options.append(
                Option(
                    Content.assemble(
                        (commit.commit[:8], "bold"),
                        f" {commit.date[:10]} ",
                        clean_line(commit.subject)[:42],
                    ),
                    id=commit.commit,
                )
            )
        with Vertical():
            yield Label(
                f"History: {len(self._commits):,} commit{'s' if len(self._commits) != 1 else ''} that touched "
                ".context/ or .ctxrc",
                id="history-title",
                markup=False,
            )
            yield OptionList(*options, id="commits")
            yield Label(
                "↑↓ or the mouse: the packet at that commit, at its date\n"
                "Enter: stay there · H: the working tree · Esc: close",
                id="history-help",
                markup=False,
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        wanted = self._current or WORKING_TREE
        try:
            options.highlighted = options.get_option_index(wanted)
        except Exception:  # an older commit than the list holds (--rev): the working tree's row
            options.highlighted = 0
        options.focus()

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        rev = event.option.id or None
        if rev != self._shown:
            self._shown = rev
            self._show(rev)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        rev = event.option.id or None
        if rev != self._shown:
            self._shown = rev
            self._show(rev)
        self.dismiss(rev)

    def action_close(self) -> None:
        self.dismiss(self._shown)

    def action_present(self) -> None:
        if self._shown is not None:
            self._shown = None
            self._show(None)
        self.dismiss(None)
