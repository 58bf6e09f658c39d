"""The changes line: what the last step moved (▲ up, ▼ down), and how the packet differs from the pin.

"▲▼ last step: +3 in full, −1 summarized: Use SQLite, Cap webhooks, … (+140 tokens)" and
"◆ 12 entries differ from the pin (ctx 0.8.1 at 4,000 tokens) (9 up, 3 down), +1,200 tokens". Hidden
while there is nothing to say. The numbers come from `ctxtui.comparison`.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from ctxtui.safe_text import clean_line
from ctxtui.tui.widgets.text_lines import TextLines


class ChangesLine(TextLines):
    """Up to two lines: the last step's summary and the pin's; `display` follows whether there is any."""

    DEFAULT_CSS = """
    ChangesLine { height: auto; padding: 0 1; display: none; }
    ChangesLine.shown { display: block; }
    """

    step: reactive[str] = reactive("", init=False)
    pinned: reactive[str] = reactive("", init=False)

    def watch_step(self) -> None:
        self.follow_line_count(int(bool(self.step)) + int(bool(self.pinned)))

    def watch_pinned(self) -> None:
        self.follow_line_count(int(bool(self.step)) + int(bool(self.pinned)))

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
