"""Pack preview: the packet exactly as the CLI prints it, in each of the packer's formats, and its diff
against the pin.

The text shown is the engine's rendering with terminal controls made visible
(`clean_block`: an ESC shows as ␛), so an escape sequence hidden in a task
line can never reach the terminal; a read-only TextArea never interprets
markup. The preview follows the view of the node it was opened from (the main
screen), so `[`/`]` and live reload update it. Copy and save act on the visible
format and keep the exact bytes: they ask the App for the view's packet, never
the widget's text. `/` finds text in the visible format (`n`: the next match).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane, TextArea
from textual.widgets.text_area import Document, Selection

from ctxtui.safe_text import clean_block, clean_line
from ctxtui.tui.actions import PREVIEW, bindings
from ctxtui.tui.messages import FORMAT_NAMES, CopyPacket, SavePacket
from ctxtui.tui.screens.prompts import PromptScreen

if TYPE_CHECKING:
    from ctxtui.session import Session, View


DIFF = "diff"
_NO_PIN = "Nothing is pinned: press P on the main screen to pin a state, then come back to see what changed."


def title(view: View) -> str:
    return f"Packet at budget {view.budget:,} tokens · uses ~{view.plan.tokens_used:,} tokens (as the packer counts)"


def reproduce(view: View, session: Session, fmt: str) -> str:
    """The `ctxtui pack` line that prints this packet (made at load time; a save is made anew, at its time)."""
    made_at = view.loaded.made_at
    command = session.pack_command(view.budget, fmt, made_at)
    if command is None:
        return "a setting changed here (k) has no ctxtui pack option: Save keeps these bytes"
    if made_at is None:
        return f"{command} makes this packet with its own clock · Save gives the line with --now"
    return f"{command} prints exactly this · a saved packet is stamped with the time of saving"


def pin_diff(source: DOMNode, view: View, fmt: str) -> str:
    """The packet as a unified diff against the source's pin ("" when identical)."""
    from ctxtui.engine.explain.diff import packet_diff

    pin = getattr(source, "pin", None)
    if pin is None:
        return _NO_PIN
    return packet_diff(pin.plan(view.budget), view.plan, fmt, names=(pin.label, "now")) or "(the packets are identical)"


class PreviewScreen(Screen):
    """Both renderings in tabs; `c` copies, `s` saves, Esc goes back."""

    BINDINGS = bindings(PREVIEW)
    DEFAULT_CSS = """
    PreviewScreen #preview-title { height: 1; padding: 0 1; background: $panel; }
    PreviewScreen #preview-reproduce { height: 1; padding: 0 1; background: $panel; color: $text-muted;
                                       text-wrap: nowrap; text-overflow: ellipsis; }
    PreviewScreen TabbedContent { height: 1fr; }  /* auto height overflowed the screen by the title's line */
    PreviewScreen ContentSwitcher, PreviewScreen TabPane { height: 1fr; }
    PreviewScreen TextArea { height: 1fr; border: none; }
    """

    def __init__(self, source: DOMNode, initial: str = "md") -> None:
        """`source`: a node with a `view` reactive (the main screen); the preview shows its view's packet."""
        super().__init__()
        self._source = source
        self._initial = initial
        self._query = ""  # the last text looked for with `/`

    @property
    def view(self) -> View:
        return self._source.view  # type: ignore[attr-defined]

    @property
    def session(self) -> Session:
        return self._source.session  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        view = self.view
        yield Static(clean_line(title(view)), id="preview-title", markup=False)
        yield Static(clean_line(reproduce(view, self.session, self._initial)), id="preview-reproduce", markup=False)
        formats = view.formats
        initial = self._initial if self._initial in (*formats, DIFF) else formats[0]
        self._initial = initial
        with TabbedContent(initial=f"tab-{initial}"):
            for fmt in formats:
                with TabPane(FORMAT_NAMES.get(fmt, fmt), id=f"tab-{fmt}"):
                    yield TextArea(
                        clean_block(view.plan.render(fmt)), read_only=True, id=f"text-{fmt}", show_line_numbers=True
                    )
            with TabPane("Diff vs pin", id=f"tab-{DIFF}"):
                yield TextArea(clean_block(pin_diff(self._source, view, formats[0])), read_only=True, id=f"text-{DIFF}")
        yield Footer()

    def on_mount(self) -> None:
        # Start in the text, so arrows and PgUp/PgDn scroll the packet at once.
        self.query_one(f"#text-{self._initial}", TextArea).focus()
        self.watch(self._source, "view", self._follow, init=False)

    def _follow(self, view: View | None) -> None:
        if view is None:
            return
        for fmt in view.formats:
            for area in self.query(f"#text-{fmt}"):
                if isinstance(area, TextArea):
                    area.load_text(clean_block(view.plan.render(fmt)))
        self.query_one(f"#text-{DIFF}", TextArea).load_text(clean_block(pin_diff(self._source, view, view.formats[0])))
        self.query_one("#preview-title", Static).update(clean_line(title(view)))
        self._show_reproduce()

    def _show_reproduce(self) -> None:
        line = reproduce(self.view, self.session, self.current_format)
        self.query_one("#preview-reproduce", Static).update(clean_line(line))

    @property
    def current_format(self) -> str:
        """The format copy and save act on (on the diff tab: the packer's first format)."""
        active = self.query_one(TabbedContent).active.removeprefix("tab-")
        formats = self.view.formats
        return active if active in formats else formats[0]

    def action_show(self, fmt: str) -> None:
        if fmt != DIFF and fmt not in self.view.formats:
            self.app.notify(f"this packer prints {' and '.join(self.view.formats)} only", timeout=3)
            return
        self.query_one(TabbedContent).active = f"tab-{fmt}"
        self.query_one(f"#text-{fmt}", TextArea).focus()
        self._show_reproduce()

    def on_tabbed_content_tab_activated(self) -> None:
        """A click on a tab changes the format too."""
        self._show_reproduce()

    def action_copy(self) -> None:
        self.post_message(CopyPacket(self.view, self.current_format))

    def action_save(self) -> None:
        self.post_message(SavePacket(self.view, self.current_format))

    def action_find(self) -> None:
        def typed(text: str | None) -> None:
            if text:
                self._query = text
                self._find_next()

        self.app.push_screen(PromptScreen("Find in the packet (then n: next match)", self._query, "text…"), typed)

    def action_find_next(self) -> None:
        if self._query:
            self._find_next()
        else:
            self.action_find()

    def _find_next(self) -> None:
        """Select the next match (case-insensitive) after the cursor in the visible format, wrapping round."""
        shown = self.query_one(TabbedContent).active.removeprefix("tab-")  # a format or the diff
        area = self.query_one(f"#text-{shown}", TextArea)
        text, document = area.text, area.document
        assert isinstance(document, Document)  # a read-only TextArea's own: it has the index conversions
        pattern = re.compile(re.escape(self._query), re.IGNORECASE)
        start = document.get_index_from_location(area.selection.end)
        found = pattern.search(text, start) or pattern.search(text)
        if found is None:
            self.app.notify(f"Not in the {FORMAT_NAMES.get(shown, 'diff')} text: {self._query}", timeout=3)
            return
        area.selection = Selection(
            document.get_location_from_index(found.start()), document.get_location_from_index(found.end())
        )
        area.scroll_cursor_visible(center=True)
        area.focus()
        number = sum(1 for _ in pattern.finditer(text, 0, found.start())) + 1
        total = sum(1 for _ in pattern.finditer(text))
        self.app.notify(f"{self._query}: match {number} of {total} (n: next)", timeout=2)
