"""The `?` help: a modal listing the keys, grouped, closed by Esc, q or ?.

The App passes the bindings to list (from its keymap, so remapped keys show
as they are), or calls `bindings_from_screen` for whatever is active now.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ctxtui.ui.safe_text import clean_line

# (key as shown, description), or a section heading as (None, heading).
HelpItem = tuple[str | None, str]


def bindings_from_screen(app) -> list[HelpItem]:
    """The bindings active on the current screen, as help items (deduplicated)."""
    items: list[HelpItem] = []
    seen: set[tuple[str, str]] = set()
    for active in app.screen.active_bindings.values():
        binding = active.binding
        if not binding.description or binding.system:
            continue
        item = (app.get_key_display(binding), binding.description)
        if item not in seen:
            seen.add(item)
            items.append(item)
    return items


def _items(app, entries: Iterable[Binding | HelpItem]) -> list[HelpItem]:
    items: list[HelpItem] = []
    for entry in entries:
        if isinstance(entry, Binding):
            if entry.description:
                items.append((app.get_key_display(entry), entry.description))
        else:
            items.append(entry)
    return items


class HelpScreen(ModalScreen[None]):
    """Keys and what they do. `entries` are `Binding`s, (key, description) pairs,
    or (None, heading) to start a group."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close help", show=False, id="help.close"),
    ]

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

    def __init__(self, entries: Sequence[Binding | HelpItem], *, title: str = "Keys",
                 footer: str = "Esc, q or ? closes") -> None:
        super().__init__()
        self._entries = list(entries)
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
        items = [(None if key is None else clean_line(key), clean_line(text))
                 for key, text in _items(self.app, self._entries)]
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
