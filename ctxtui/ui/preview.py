"""Pack preview: the packet exactly as the CLI prints it, as Markdown or JSON.

The text shown is the engine's rendering with terminal controls made visible
(`clean_block`: an ESC shows as ␛), so an escape sequence hidden in a task
line can never reach the terminal; a read-only TextArea never interprets
markup. Copy and save act on the visible format and keep the exact bytes:
they take the packet from the session, never from the widget.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane, TextArea

from ctxtui.ui.safe_text import clean_block, clean_line


class PreviewScreen(Screen):
    """Both renderings in tabs; `c` copies, `s` saves, Esc goes back."""

    BINDINGS = [
        Binding("escape,p", "app.pop_screen", "Back", id="preview.back"),
        Binding("c", "copy", "Copy", id="preview.copy"),
        Binding("s", "save", "Save…", id="preview.save"),
        Binding("m", "show('md')", "Markdown", id="preview.markdown"),
        Binding("j", "show('json')", "JSON", id="preview.json"),
    ]
    DEFAULT_CSS = """
    PreviewScreen #preview-title { height: 1; padding: 0 1; background: $panel; }
    PreviewScreen TabbedContent { height: 1fr; }  /* auto height overflowed the screen by the title's line */
    PreviewScreen ContentSwitcher, PreviewScreen TabPane { height: 1fr; }
    PreviewScreen TextArea { height: 1fr; border: none; }
    """

    class CopyRequested(Message):
        def __init__(self, fmt: str) -> None:
            self.fmt = fmt
            super().__init__()

    class SaveRequested(Message):
        def __init__(self, fmt: str) -> None:
            self.fmt = fmt
            super().__init__()

    def __init__(self, markdown: str, json_text: str, title: str, initial: str = "md") -> None:
        super().__init__()
        self._markdown = markdown
        self._json = json_text
        self._title = title
        self._initial = initial

    def compose(self) -> ComposeResult:
        yield Static(clean_line(self._title), id="preview-title", markup=False)
        with TabbedContent(initial=f"tab-{self._initial}"):
            with TabPane("Markdown", id="tab-md"):
                yield TextArea(clean_block(self._markdown), read_only=True, id="text-md", show_line_numbers=True)
            with TabPane("JSON", id="tab-json"):
                yield TextArea(clean_block(self._json), read_only=True, id="text-json", show_line_numbers=True)
        yield Footer()

    def on_mount(self) -> None:
        # Start in the text, so arrows and PgUp/PgDn scroll the packet at once.
        self.query_one(f"#text-{self._initial}", TextArea).focus()

    @property
    def current_format(self) -> str:
        active = self.query_one(TabbedContent).active
        return "json" if active == "tab-json" else "md"

    def action_show(self, fmt: str) -> None:
        self.query_one(TabbedContent).active = f"tab-{fmt}"
        self.query_one(f"#text-{fmt}", TextArea).focus()

    def action_copy(self) -> None:
        self.post_message(self.CopyRequested(self.current_format))

    def action_save(self) -> None:
        self.post_message(self.SaveRequested(self.current_format))

    def update_texts(self, markdown: str, json_text: str, title: str) -> None:
        """Live reload while the preview is open."""
        self._markdown, self._json = markdown, json_text
        self.query_one("#text-md", TextArea).load_text(clean_block(markdown))
        self.query_one("#text-json", TextArea).load_text(clean_block(json_text))
        self.query_one("#preview-title", Static).update(clean_line(title))
