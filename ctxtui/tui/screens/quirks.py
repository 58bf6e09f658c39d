"""Which of ctx's quirks shape this packet, with counts, in plain words."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ctxtui.engine.explain.quirks import Quirk
from ctxtui.safe_text import clean_line
from ctxtui.tui.actions import QUIRKS, bindings


def render_quirks(quirks: list[Quirk], budget: int) -> Text:
    text = Text(f"ctx quirks at work at budget {budget:,}\n\n", style="bold")
    if not quirks:
        text.append("None of ctx's surprising behaviours affects this packet.")
    # Numbered 1, 2, 3… as listed here: the spec's numbers (1, 2, 3, 5, 7… of the ten) read as gaps.
    for place, quirk in enumerate(quirks, 1):
        text.append(f"{place:>2}. {quirk.title}\n", style="bold")
        text.append(f"    {clean_line(quirk.detail)}\n\n")
    text.append("The packet reproduces them on purpose: it is what the agent really receives.", style="italic")
    return text


class QuirksScreen(ModalScreen):
    """The `!` dialog: the quirks `find_quirks` found in this packet."""

    BINDINGS = bindings(QUIRKS)
    DEFAULT_CSS = """
    QuirksScreen { align: center middle; }
    QuirksScreen > VerticalScroll { width: 90; max-height: 80%; height: auto; padding: 1 2;
                                    border: round $primary; background: $panel; }
    """

    def __init__(self, quirks: list[Quirk], budget: int) -> None:
        super().__init__()
        self._content = render_quirks(quirks, budget)

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self._content)
