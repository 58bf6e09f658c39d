"""The `?` help: the keys, then what every symbol, column and word on screen means; closed by Esc, q or ?.

The App passes the lines: `actions.help_lines` builds the keys from the
registry (the user's remapped keys, not the defaults), `legend.legend` the
rest. Long words wrap in their own column; the dialog scrolls (↑ ↓, PgUp PgDn)
when the terminal is small.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ctxtui.safe_text import clean_line
from ctxtui.tui.actions import HELP, bindings

# (keys as shown, description), or a group heading as (None, heading).
HelpItem = tuple[str | None, str]


class HelpScreen(ModalScreen[None]):
    """Keys (or symbols) and what they mean, in two columns, headings between groups."""

    BINDINGS = bindings(HELP)

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100;
        max-width: 95%;
        height: auto;
        max-height: 90%;
        padding: 0 2;
        border: round $primary;
        border-title-color: $primary;
        border-subtitle-color: $text-muted;
        background: $panel;
    }
    HelpScreen #help-keys { width: 100%; height: auto; }
    """

    def __init__(
        self,
        items: Sequence[HelpItem],
        *,
        title: str = "Keys and words",
        footer: str = "Esc, q or ? closes · ↑ ↓ scroll",
    ) -> None:
        super().__init__()
        self._items = [(None if key is None else clean_line(key), clean_line(text)) for key, text in items]
        self._title = title
        self._footer = footer

    def compose(self) -> ComposeResult:
        box = VerticalScroll()
        box.border_title = self._title
        box.border_subtitle = self._footer
        with box:
            yield Static(self._table(), id="help-keys")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def _table(self) -> Table:
        """Keys right-aligned in one column, their words wrapping beside them, headings between groups.

        Every cell is a `Text`: a plain string in a Rich table would be parsed as markup.
        """
        table = Table.grid(padding=(0, 2), expand=True)
        table.add_column(justify="right", no_wrap=True, style="bold")
        table.add_column(ratio=1)
        for index, (key, description) in enumerate(self._items):
            if key is None:
                if index:
                    table.add_row(Text(""), Text(""))
                table.add_row(Text(""), Text(description, style="bold underline"))
            else:
                table.add_row(Text(key), Text(description))
        return table

    def lines(self) -> list[tuple[str | None, str]]:
        """The (key, words) pairs shown, headings as (None, heading): what tests read."""
        return list(self._items)

    def action_close(self) -> None:
        self.dismiss(None)
