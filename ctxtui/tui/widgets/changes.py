"""The changes line: what the last step moved (▲ up, ▼ down), and how the packet differs from the pin.

"▲▼ last step: +3 in full, −1 summarized: Use SQLite, Cap webhooks, … (+140 tokens)" and
"◆ 12 entries differ from the pin (ctx 0.8.1 at 4,000 tokens) (9 up, 3 down), +1,200 tokens". Hidden
while there is nothing to say. The numbers come from `ctxtui.comparison`.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from ctxtui.safe_text import clean_line
from ctxtui.tui.widgets.layout import forget_height
from ctxtui.tui.widgets.text_lines import TextLines


class ChangesLine(TextLines):
    """Up to two lines: the last step's summary and the pin's; `display` follows whether there is any."""

    DEFAULT_CSS = """
    ChangesLine { height: auto; padding: 0 1; display: none; }
    ChangesLine.shown { display: block; }
    """

    # A new text repaints this line only; a layout (the whole screen measured and repainted again,
    # ~15 ms at 160×45) is asked for only when the number of lines changes (issue 11).
    step: reactive[str] = reactive("", init=False)
    pinned: reactive[str] = reactive("", init=False)

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._lines = 0

    def _follow(self) -> None:
        lines = int(bool(self.step)) + int(bool(self.pinned))
        self.set_class(bool(lines), "shown")
        if lines != self._lines:
            self._lines = lines
            forget_height(self)
            self.refresh(layout=True)

    def watch_step(self) -> None:
        self._follow()

    def watch_pinned(self) -> None:
        self._follow()

    def render(self) -> Text:
        width = max(1, self.size.width)
        lines = []
        if self.step:
            line = Text("▲▼ last step: ", style="bold")
            line.append(clean_line(self.step))
            lines.append(line)
        if self.pinned:
            line = Text("◆ ", style="bold")
            line.append(clean_line(self.pinned))
            lines.append(line)
        for line in lines:
            line.truncate(width, overflow="ellipsis")  # one row each, whatever the titles
        return Text("\n").join(lines)

    def get_content_height(self, container, viewport, width: int) -> int:
        return int(bool(self.step)) + int(bool(self.pinned))
