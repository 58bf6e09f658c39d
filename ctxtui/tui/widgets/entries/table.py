"""The entries table: every candidate, its scores and its fate, at any size.

A `DataTable` rebuild costs seconds at 10,000 rows (every cell is measured), so
this is a Line API `ScrollView` in the manner of toolong's `LogLines`: it keeps
`Row`s (from `rows.py`, formatted when first drawn), the indices *shown* (those that pass
the filter, in sort order) and renders only the visible lines from an LRU cache
keyed by data version. Line 0 is a header that stays put while the rows scroll.
The columns are the view's packer's (`columns.columns_for`); the change
marks (▲ ▼ ◆ ✎) come from `marks`, which the main screen computes per step.

It follows a `View` (`view`, data-bound by the main screen) and a `RowFilter`
(`row_filter`), or takes rows directly (`set_rows`). The selected entry is
tracked by identity (`rows.position_of`: key and text, then text, then title),
so a recompute, a reload that moved it to another line, a new sort or a new
filter keeps it selected, and keeps it on the same screen line.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.cache import LRUCache
from textual.geometry import Region, Size, clamp
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Entry
from ctxtui.tui.actions import ENTRIES, bindings
from ctxtui.tui.safe_text import fit
from ctxtui.tui.themes import FATE_SYMBOL
from ctxtui.tui.widgets.entries.columns import CTX_COLUMNS, MARK_ID, ColumnSet
from ctxtui.tui.widgets.entries.counted import RowsCounted
from ctxtui.tui.widgets.entries.lines import Layout, header_strip, place_columns, row_strip
from ctxtui.tui.widgets.entries.rows import (
    Row,
    RowFilter,
    ViewRows,
    key_position,
    optional_present,
    position_of,
    rows_of,
    sorted_indices,
)
from ctxtui.tui.widgets.scrolling import set_virtual_size

if TYPE_CHECKING:
    from ctxtui.session import View

_FATE_CLASS = {fate: f"entries-table--{fate.value}" for fate in Fate}
_MARK_CLASS = {
    "▲": "entries-table--up",
    "▼": "entries-table--down",
    "◆": "entries-table--differs",
    "✎": "entries-table--edited",
}


class EntriesTable(ScrollView, can_focus=True):
    """A virtual table of `Row`s with a fixed header, a cursor, sorting and filtering."""

    BINDINGS = bindings(ENTRIES)

    COMPONENT_CLASSES = {
        "entries-table--header",
        "entries-table--header-sorted",
        "entries-table--cursor",
        "entries-table--cursor-blurred",
        "entries-table--muted",
        *_FATE_CLASS.values(),
        *_MARK_CLASS.values(),
    }

    DEFAULT_CSS = """
    EntriesTable {
        height: 1fr;
        overflow-x: hidden;
        overflow-y: auto;
        background: $surface;
    }
    EntriesTable > .entries-table--header { background: $panel; color: $foreground; text-style: bold; }
    EntriesTable > .entries-table--header-sorted { background: $panel; color: $accent; text-style: bold; }
    EntriesTable > .entries-table--cursor { background: $primary 45%; }
    EntriesTable > .entries-table--cursor-blurred { background: $primary 20%; }
    EntriesTable > .entries-table--included { color: $fate-included; }
    EntriesTable > .entries-table--summarized { color: $fate-summarized; }
    EntriesTable > .entries-table--dropped { color: $fate-dropped; }
    EntriesTable > .entries-table--muted { color: $text-muted; }
    EntriesTable > .entries-table--up { color: $fate-included; text-style: bold; }
    EntriesTable > .entries-table--down { color: $fate-dropped; text-style: bold; }
    EntriesTable > .entries-table--differs { color: $accent; }
    EntriesTable > .entries-table--edited { color: $accent; text-style: bold; }
    """

    class Selected(Message):
        """The entry under the cursor changed (`key` is None when no row is shown)."""

        def __init__(self, table: EntriesTable, key: str | None) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> EntriesTable:
            return self.table

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, EntriesTable.Selected) and message.table is self.table

    class Activated(Message):
        """Enter or a double click on an entry."""

        def __init__(self, table: EntriesTable, key: str) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> EntriesTable:
            return self.table

    view: var[View | None] = var(None, init=False)
    """The view whose packet the table shows (rows built once per view, see `rows_of`)."""
    row_filter: var[RowFilter] = var(RowFilter, init=False)
    """Which rows show; a new value re-filters and keeps the selection."""
    marks: var[dict[str, str]] = var(dict, init=False)
    """A mark per entry key for the mark column (▲ moved up, ▼ down on the last step, ◆ differs from the pin,
    ✎ its own text was edited)."""

    def __init__(
        self,
        rows: Sequence[Row] = (),
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._rows: Sequence[Row] = list(rows)
        self._ready = False
        self._serial = 0
        self._version: Hashable = ("auto", 0)
        self._sort_column: str | None = None
        self._sort_reverse = False
        self._shown: Sequence[int] = []  # row indices shown, in display order (a range when unfiltered)
        self._counted = (-1, -1)  # (shown, total) last told to the filter line
        self._cursor = 0
        self._posted_key: str | None = None
        self._columns: ColumnSet = CTX_COLUMNS
        self._present: frozenset[str] = frozenset()  # optional columns some row has a value for
        self._line_cache: LRUCache[tuple, Strip] = LRUCache(1024)
        self._layout: Layout | None = None
        self._styles: dict[str, Style] | None = None
        self._fate_symbols: dict[Fate, str] = dict(FATE_SYMBOL)
        self._present_of: tuple[int, frozenset[str]] | None = None  # (generation, present) of the last view
        self._drawn: dict[int, tuple] = {}  # screen line → what it was last drawn with (see `_repaint_changed`)
        self._note_rows(None)
        self._rebuild(keep=None, fallback=0)

    def on_mount(self) -> None:
        super().on_mount()
        self._ready = True
        self._rebuild(keep=self._selected_entry, fallback=self._cursor, reveal=True)

    # -- public API ---------------------------------------------------------------

    def set_rows(
        self, rows: Sequence[Row], version: Hashable | None = None, present: frozenset[str] | None = None
    ) -> None:
        """Replace the data, keeping the selected entry (see `rows.position_of`), else the row index.

        `version` (any hashable, e.g. `(generation, budget)`) names the data for
        the line cache: equal versions must mean equal rows. None: always fresh.
        `present`: the optional columns some row has a value for (computed when None).
        """
        keep = self._selected_entry
        self._rows = rows if isinstance(rows, (list, ViewRows)) else list(rows)
        if version is None:
            self._serial += 1
            version = ("auto", self._serial)
        self._version = version
        self._note_rows(present)
        self._rebuild(keep=keep, fallback=self._cursor)

    def watch_view(self, view: View | None) -> None:
        if view is not None:
            rows = rows_of(view)
            # Which optional numbers exist depends on the load, not the budget: scanned once per load.
            known = self._present_of
            if known is None or known[0] != view.generation:
                known = self._present_of = (view.generation, optional_present(rows))
            self.set_rows(rows, version=(view.generation, view.budget), present=known[1])

    def watch_marks(self) -> None:
        self._repaint_changed()

    @property
    def columns(self) -> ColumnSet:
        """The columns of the rows shown (their packer's)."""
        return self._columns

    def set_filter(
        self, row_filter: RowFilter | None = None, *, fates=None, sections=None, text: str | None = None
    ) -> None:
        """Show only matching rows: pass a `RowFilter`, or change parts of the current one."""
        spec = row_filter if row_filter is not None else self.row_filter
        if fates is not None or sections is not None or text is not None:
            spec = RowFilter(
                fates=frozenset(fates) if fates is not None else spec.fates,
                sections=frozenset(sections) if sections is not None else spec.sections,
                text=text if text is not None else spec.text,
            )
        self.row_filter = spec  # an equal filter changes nothing

    def watch_row_filter(self) -> None:
        self._rebuild(keep=self._selected_entry, fallback=self._cursor, reveal=True)

    def sort_by(self, column: str | None, reverse: bool | None = None) -> None:
        """Sort by a column id (see `columns.COLUMNS`); None restores packet order.

        `reverse=None`: a new column starts in its natural direction (numbers
        high first); the current column flips direction.
        """
        by_id = self._columns.by_id
        if column is not None and column not in by_id:
            raise ValueError(f"unknown column {column!r}")
        if reverse is None:
            if column is not None and column == self._sort_column:
                reverse = not self._sort_reverse
            else:
                reverse = by_id[column].descending if column else False
        if (column, reverse) == (self._sort_column, self._sort_reverse):
            return
        self._sort_column, self._sort_reverse = column, reverse
        self._layout = None
        self._rebuild(keep=self._selected_entry, fallback=self._cursor, reveal=True)

    def select_key(self, key: str) -> bool:
        """Move the cursor to an entry; False when it is not shown."""
        position = key_position(self._rows, self._shown, key)
        if position is None:
            return False
        self._move_cursor(position)
        return True

    @property
    def fate_symbols(self) -> dict[Fate, str]:
        """The glyph drawn for each fate (a theme may change them, see `themes.fate_symbols`)."""
        return dict(self._fate_symbols)

    @fate_symbols.setter
    def fate_symbols(self, symbols: dict[Fate, str]) -> None:
        self._fate_symbols = {**FATE_SYMBOL, **symbols}
        self._line_cache.clear()
        self._drawn.clear()
        self.refresh()

    @property
    def sort_column(self) -> str | None:
        return self._sort_column

    @property
    def sort_reverse(self) -> bool:
        return self._sort_reverse

    @property
    def version(self) -> Hashable:
        return self._version

    @property
    def cursor_row(self) -> int:
        """Position of the cursor among the rows shown (0 when none is)."""
        return self._cursor

    @property
    def selected_row(self) -> Row | None:
        if not self._shown:
            return None
        return self._rows[self._shown[self._cursor]]

    @property
    def selected_key(self) -> str | None:
        row = self.selected_row
        return row.key if row is not None else None

    @property
    def view_rows(self) -> list[Row]:
        """The rows shown, in display order."""
        rows = self._rows
        return [rows[i] for i in self._shown]

    def rows_on_screen(self) -> list[int]:
        """Indices (into the rows) of the rows drawn now: what the next view's first frame will likely draw."""
        top = self.scroll_offset.y
        return list(self._shown[top : top + max(1, self._page_rows)])

    @property
    def shown_count(self) -> int:
        return len(self._shown)

    @property
    def total_count(self) -> int:
        return len(self._rows)

    # -- the rows shown -----------------------------------------------------------

    def _note_rows(self, present: frozenset[str] | None) -> None:
        """Take the rows' columns (a packer switch brings others) and which optional columns have values."""
        rows = self._rows
        columns = rows.columns if isinstance(rows, ViewRows) else rows[0].columns if rows else self._columns
        if columns is not self._columns:
            self._columns = columns
            self._layout = None
            if self._sort_column is not None and self._sort_column not in columns.by_id:
                self._sort_column, self._sort_reverse = None, False  # that packer's number is gone
        if present is None:
            present = optional_present(rows)
        if present != self._present:
            self._present = present
            self._layout = None

    @property
    def _selected_entry(self) -> Entry | None:
        row = self.selected_row
        return row.outcome.entry if row is not None else None

    def _rebuild(self, keep: Entry | None, fallback: int, reveal: bool = False) -> None:
        """Filter and sort, then put the cursor back on the entry `keep` (else row `fallback`).

        When the selected entry was on screen it stays on the same screen line;
        otherwise the scroll offset is kept. `reveal` scrolls it into view.
        """
        rows = self._rows
        old_cursor, old_top = self._cursor, self.scroll_offset.y
        indices: Sequence[int]
        if not self.row_filter.active and self._sort_column is None and not self._sort_reverse:
            indices = range(len(rows))  # every row in packet order: no 50,000-index list per step
        else:
            indices = self.row_filter.apply(rows) if self.row_filter.active else range(len(rows))
            if self._sort_column is not None or self._sort_reverse:
                indices = sorted_indices(rows, indices, self._sort_column, self._sort_reverse, self._columns)
        self._shown = indices
        cursor = None if keep is None else position_of(rows, indices, keep, near=fallback)
        if cursor is None:
            cursor = fallback
        self._cursor = int(clamp(cursor, 0, max(0, len(indices) - 1)))
        if not self._ready:  # before mount: no size to scroll in, nobody to tell
            return
        if (len(indices), len(rows)) != self._counted:  # for the filter line
            self._counted = (len(indices), len(rows))
            self.post_message(RowsCounted(*self._counted))
        set_virtual_size(self, Size(max(1, self._render_width), len(indices) + 1))  # a layout only if it must
        page = self._page_rows
        if page > 0:
            was_visible = old_top <= old_cursor < old_top + page
            top = old_top + (self._cursor - old_cursor) if was_visible else old_top
            top = int(clamp(top, 0, max(0, len(indices) - page)))
            if was_visible or reveal:
                top = int(clamp(top, self._cursor - page + 1, self._cursor))
            # force: after Esc clears a filter the rows outgrow the screen, but the scrollbar (which Textual
            # asks before scrolling) only appears at the next layout; unforced, the scroll was refused and the
            # selected row, which Enter opens, sat off screen.
            self.scroll_to(y=max(0, top), animate=False, force=True)
        self._repaint_changed()
        self._post_selected()

    def _repaint_changed(self) -> None:
        """Repaint only the screen lines whose content changed since they were drawn.

        A slider step changes a few fates; with an unchanged cap most lines on
        screen are the same. Textual re-styles every line of a widget that asks
        for a full repaint (~50 µs a line, ~1.7 ms a ctx-large step), so only the
        lines that differ are marked dirty. A new layout (columns, width, sort)
        repaints everything.
        """
        width = self._render_width
        layout = self._layout
        if not self._drawn or layout is None or layout.width != width:
            self.refresh()
            return
        drawn, top = self._drawn, self.scroll_offset.y
        lines = self.scrollable_content_region.height
        changed = [y for y in range(1, lines) if self._line_key(y, width, top) != drawn.get(y)]
        if changed:
            self.refresh(*(Region(0, y, width, 1) for y in changed))

    @property
    def _page_rows(self) -> int:
        """Data rows visible at once (the header takes one line)."""
        return max(0, self.scrollable_content_region.height - 1)

    def _post_selected(self) -> None:
        key = self.selected_key
        if key != self._posted_key:
            self._posted_key = key
            self.post_message(self.Selected(self, key))

    def _move_cursor(self, position: int) -> None:
        if not self._shown:
            return
        self._cursor = int(clamp(position, 0, len(self._shown) - 1))
        page = self._page_rows
        top = self.scroll_offset.y
        if page > 0:
            if self._cursor < top:
                self.scroll_to(y=self._cursor, animate=False)
            elif self._cursor >= top + page:
                self.scroll_to(y=self._cursor - page + 1, animate=False)
        self.refresh()
        self._post_selected()

    # -- actions ----------------------------------------------------------------

    def action_cursor(self, delta: int) -> None:
        self._move_cursor(self._cursor + delta)

    def action_page(self, direction: int) -> None:
        self._move_cursor(self._cursor + direction * max(1, self._page_rows - 1))

    def action_first(self) -> None:
        self._move_cursor(0)

    def action_last(self) -> None:
        self._move_cursor(len(self._shown) - 1)

    def action_activate(self) -> None:
        key = self.selected_key
        if key is not None:
            self.post_message(self.Activated(self, key))

    def cycle_sort(self) -> None:
        """Sort by the next column on screen (after the last one: packet order again); hidden ones are skipped."""
        shown = {column.id for column, _x, _w in self._get_layout(self._render_width).columns}
        order: list[str | None] = [None, *(c.id for c in self._columns.columns if c.id in shown and c.id != MARK_ID)]
        current = self._sort_column if self._sort_column in order else None
        column = order[(order.index(current) + 1) % len(order)]
        self.sort_by(column, self._columns.by_id[column].descending if column else False)

    def reverse_sort(self) -> None:
        self.sort_by(self._sort_column, not self._sort_reverse)

    def action_cycle_sort(self) -> None:
        self.cycle_sort()

    def action_reverse_sort(self) -> None:
        self.reverse_sort()

    # -- mouse ------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        event.stop()
        if offset.y == 0:
            column = self._column_at(offset.x)
            if column is not None:
                self.sort_by(column)  # the sorted column's header flips direction
            return
        position = self.scroll_offset.y + offset.y - 1
        if 0 <= position < len(self._shown):
            self._move_cursor(position)
            if event.chain == 2:
                self.action_activate()

    def _column_at(self, x: int) -> str | None:
        for column, start, width in self._get_layout(self._render_width).columns:
            if start <= x < start + width + 1:
                return column.id
        return None

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_resize(self) -> None:
        self.virtual_size = Size(max(1, self._render_width), len(self._shown) + 1)
        self._line_cache.clear()
        self._drawn.clear()
        self.refresh()

    # -- rendering --------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line_cache.clear()
        self._drawn.clear()
        self._layout = None
        self._styles = None

    @property
    def _render_width(self) -> int:
        return self.scrollable_content_region.width

    def _base_style(self) -> Style:
        """The widget's own style (Textual recomputes `rich_style` from every ancestor on each call)."""
        if self._styles is None:
            self._styles = {}
        style = self._styles.get("")
        if style is None:
            style = self._styles[""] = self.rich_style
        return style

    def _style(self, name: str) -> Style:
        if self._styles is None:
            self._styles = {}
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(name)
        return style

    def _get_layout(self, width: int) -> Layout:
        layout = self._layout
        if layout is not None and layout.width == width:
            return layout
        placed = place_columns(self._columns, self._present, width)
        header = header_strip(
            placed,
            width,
            self._sort_column,
            self._sort_reverse,
            self._style("entries-table--header"),
            self._style("entries-table--header-sorted"),
        )
        if self._layout is None or self._layout.columns != placed:
            self._line_cache.clear()  # lines are cached by content: other columns, other lines
        self._layout = Layout(width, placed, header)
        return self._layout

    def _line_key(self, y: int, width: int, top: int) -> tuple:
        """What screen line `y` shows at this width and scroll offset, as a hashable (a row line's cache key)."""
        if y == 0:
            return ("header",)
        position = top + y - 1
        if not 0 <= position < len(self._shown):
            return ("note", len(self._rows)) if position == 0 and self._rows else ("blank",)
        row = self._rows[self._shown[position]]
        state = 0
        if position == self._cursor:
            state = 1 if self.has_focus else 2
        # Keyed by what the line shows, not by which view it came from: a slider step changes a few
        # fates, and the other lines on screen are drawn from the cache (issue 11).
        return (row.fate, row.cells(), self.marks.get(row.key, " "), width, state)

    def render_line(self, y: int) -> Strip:
        width = self._render_width  # Textual computes it (and the scroll offset) anew on every call: once a line
        if width <= 0:
            return Strip.blank(0)
        layout = self._get_layout(width)
        top = self.scroll_offset.y
        key = self._line_key(y, width, top)
        self._drawn[y] = key
        if y == 0:
            return layout.header
        position = top + y - 1
        if not 0 <= position < len(self._shown):
            if position == 0 and self._rows:  # everything filtered out: say so
                muted = self._style("entries-table--muted")
                note = f"  no entries match the filter ({len(self._rows):,} hidden)"
                return Strip([Segment(fit(note, width), muted)], width)
            return Strip.blank(width, self._base_style())
        strip = self._line_cache.get(key)
        if strip is None:
            state = key[4]
            strip = self._render_row(self._rows[self._shown[position]], layout, state)
            self._line_cache[key] = strip
        return strip

    def _render_row(self, row: Row, layout: Layout, state: int) -> Strip:
        mark = self.marks.get(row.key, " ")
        cursor = None
        if state:
            cursor = self._style("entries-table--cursor" if state == 1 else "entries-table--cursor-blurred")
        return row_strip(
            row,
            layout,
            base=self._base_style(),
            fate_style=self._style(_FATE_CLASS[row.fate]),
            fate_symbol=self._fate_symbols.get(row.fate, "?"),
            mark=mark,
            mark_style=self._style(_MARK_CLASS.get(mark, "entries-table--muted")),
            cursor=cursor,
        )
