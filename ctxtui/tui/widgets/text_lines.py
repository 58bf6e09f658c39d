"""Widgets that draw a Rich `Text` of short lines straight into strips (Textual's line API).

Textual turns what `render()` returns into its own `Content`: it converts every
span's style, wraps, measures and formats each line, on every repaint. A slider
step repaints the tier bars, the status, settings and changes lines with new
numbers, and that conversion was most of their cost (the tier bars alone
~1.2 ms of a ctx-large step). When every line of the text fits the width there
is nothing to wrap or cut: `TextLines` renders the `Text`'s own segments over
the widget's style, once per change, and hands Textual finished lines. When a
line is too wide (a narrow terminal) Textual's own rendering draws the widget,
so wrapping and cutting stay exactly Textual's. `render()` stays the one
description of what the widget shows (tests and the help read it).
"""

from __future__ import annotations

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget

from ctxtui.tui.widgets.layout import forget_height


def text_strips(text: Text, width: int, base: Style, console: Console) -> list[Strip] | None:
    """One strip per line of `text`, padded to `width` cells; None when a line is wider than `width`.

    `base` is the widget's style (colour and background from its CSS), under
    the text's own styles; the padding has the background alone, as Textual
    pads a line.
    """
    lines = text.split("\n", allow_blank=True)
    if any(line.cell_len > width for line in lines):
        return None
    padding = Style.from_color(bgcolor=base.bgcolor)
    return [
        Strip(Segment.simplify(Segment.apply_style(line.render(console, end=""), style=base))).extend_cell_length(
            width, padding
        )
        for line in lines
    ]


class TextLines(Widget):
    """A widget whose `render()` gives a `Text` of lines; drawn from the text's segments when every line fits.

    The strips are made again after any `refresh()` (a reactive change, a new
    theme) or at a new width, and only then.
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._strips: list[Strip] | None = None
        self._strips_width = -1  # the width `_strips` were made for (-1: none made since the last refresh)
        self._line_count = 0  # for `follow_line_count`: hidden (no class `shown`) at 0

    def follow_line_count(self, count: int) -> None:
        """For a line that shows only while it has something to say: class `shown` while `count` > 0, and
        the screen laid out again only when the number of lines changes. A new text alone repaints this
        widget; a layout measures and repaints the whole screen (~15 ms at 160×45, issue 11)."""
        if count != self._line_count:
            self._line_count = count
            self.set_class(count > 0, "shown")
            forget_height(self)
            self.refresh(layout=True)

    def render(self) -> Text:
        raise NotImplementedError

    def refresh(self, *regions, repaint: bool = True, layout: bool = False, recompose: bool = False):  # type: ignore[no-untyped-def]
        if repaint:
            self._strips_width = -1
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips_width = -1

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if self._strips_width != width:
            self._strips = text_strips(self.render(), width, self.rich_style, self.app.console)
            self._strips_width = width
        strips = self._strips
        if strips is None:  # a line must be wrapped or cut: Textual's own rendering, as before
            return super().render_line(y)
        return strips[y] if y < len(strips) else Strip.blank(width, Style.from_color(bgcolor=self.rich_style.bgcolor))
