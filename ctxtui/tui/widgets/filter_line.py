"""The filter line: which filters hide rows, and how many rows the table shows of how many.

"Filter: 12 of 298 entries shown · differ from the pin · fate summarized ·
section tasks · text "cache" · Esc shows all". A filter set with `/`, `f`, `e`
or `d` used to be announced by a notice that faded after three seconds; the
table then showed a part of the packet with nothing on screen saying so. This
line stays while any filter is on, and is hidden otherwise.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from ctxtui.safe_text import clean_line
from ctxtui.tui.widgets.entries.rows import RowFilter
from ctxtui.tui.widgets.text_lines import TextLines


def describe_filter(row_filter: RowFilter) -> list[str]:
    """Each active filter in words, in the order they narrow the rows."""
    parts = []
    if row_filter.keys is not None:
        parts.append(row_filter.keys_label or "chosen entries")
    if row_filter.fates:
        parts.append("fate " + " or ".join(sorted(fate.value for fate in row_filter.fates)))
    if row_filter.sections:
        parts.append("section " + " or ".join(sorted(row_filter.sections)))
    if row_filter.text:
        parts.append(f"text “{row_filter.text}”")
    return parts


class FilterLine(TextLines):
    """One line while a filter is on: the rows shown of all rows, and each filter in words.

    `row_filter` is bound to the main screen's; `counts` (shown, total) come
    from the table's `RowsCounted` after each re-filter.
    """

    DEFAULT_CSS = """
    FilterLine { height: auto; padding: 0 1; display: none; }
    FilterLine.shown { display: block; }
    """

    row_filter: reactive[RowFilter] = reactive(RowFilter, init=False)
    counts: reactive[tuple[int, int]] = reactive((0, 0), init=False)

    def watch_row_filter(self) -> None:
        self.follow_line_count(int(self.row_filter.active))

    def words(self) -> str:
        """The line's text without its label ("" while no filter is on)."""
        if not self.row_filter.active:
            return ""
        shown, total = self.counts
        head = f"{shown:,} of {total:,} {'entry' if total == 1 else 'entries'} shown"
        return " · ".join([head, *describe_filter(self.row_filter), "Esc shows all"])

    def render(self) -> Text:
        words = self.words()
        if not words:
            return Text("")
        line = Text("Filter: ", style="bold")
        line.append(clean_line(words))
        line.truncate(max(1, self.size.width), overflow="ellipsis")
        return line

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        return int(self.row_filter.active)
