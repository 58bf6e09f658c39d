"""The why panel's text: a step that changes a few of its lines repaints those lines alone.

A slider step changes an explanation's numbers, most often on a few of its
lines. `Static.update` repaints the whole text: Textual restyles every line
and the compositor redraws them all (a 30-line explanation of a memory cost
~9 ms a step at 50,000 memories, against ~4 ms for an 18-line one). When the
new text takes the same lines at this width (only digits changed: see
`WhyPanel.show`), `update_lines` makes the new lines as Textual itself would
(`Visual.to_strips` at the widget's size and style, what `_render_content`
does), keeps them as the widget's render, and marks dirty only the lines
that differ.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import _RenderCache
from textual.widgets import Static


class WhyBody(Static):
    """A `Static` whose text can be replaced in place, line by line (`update_lines`)."""

    _lines_current = False  # the render cache holds the current text's lines (set by `update_lines`)

    def update_lines(self, content: Text) -> bool:
        """Show `content`, which must take the lines the current text takes at this width; repaint only the
        lines that changed. False (nothing done) when there is no current render to compare with."""
        cache = self._render_cache
        if self._dirty_regions or cache.size != self.size or not cache.lines or self.size.width <= 0:
            return False
        visual = visualize(self, content, markup=self._render_markup)
        width, height = self.size
        lines = Visual.to_strips(self, visual, width, height, self.visual_style)
        if len(lines) != len(cache.lines):
            return False
        self._Static__content = content  # what `update` sets (Textual 8.2.8, pinned), no repaint
        self._Static__visual = visual
        changed = [y for y, (old, new) in enumerate(zip(cache.lines, lines, strict=True)) if old != new]
        self._render_cache = _RenderCache(self.size, lines)
        if changed:
            self._lines_current = True
            super().refresh(*(Region(0, y, width, 1) for y in changed))
        return True

    def refresh(self, *regions, repaint: bool = True, layout: bool = False, recompose: bool = False):  # type: ignore[no-untyped-def]
        if not regions:
            self._lines_current = False  # a whole repaint (new text, theme, size): Textual renders it
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def render_line(self, y: int) -> Strip:
        if self._lines_current:
            self._dirty_regions.clear()  # the cache already holds these lines: not rendered again
            self._lines_current = False
        return super().render_line(y)
