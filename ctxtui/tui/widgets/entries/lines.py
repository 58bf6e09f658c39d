"""The entries table's lines: where each column goes at a width, the header line, and a row's line.

Pure functions of the columns, a width and styles, so the table widget keeps
only state (rows, cursor, caches) and Textual's plumbing. Every cell is fitted
to its column, so a line's length is known without measuring it again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from ctxtui.tui.safe_text import fit
from ctxtui.tui.widgets.entries.columns import MARK_ID, Column, ColumnSet
from ctxtui.tui.widgets.entries.rows import Row

TITLE_MIN = 24
REASON_MIN = 18

Placed = tuple[tuple[Column, int, int], ...]  # (column, x, width), in drawing order


@dataclass(frozen=True, slots=True)
class Layout:
    width: int
    columns: Placed
    header: Strip


def place_columns(columns: ColumnSet, present: frozenset[str], width: int) -> Placed:
    """Where each shown column goes: the title takes what the others leave, and when that is too little
    the reason column gives up some width first, then whole columns go (`hide_order`)."""
    hidden = {column_id for column_id in columns.optional_ids if column_id not in present}
    widths = {c.id: c.width for c in columns.columns}

    def title_room() -> int:
        return width - sum(widths[c.id] + 1 for c in columns.columns if c.width and c.id not in hidden) - 1

    widths["reason"] -= min(widths["reason"] - REASON_MIN, max(0, TITLE_MIN - title_room()))
    for column_id in columns.hide_order:
        if title_room() >= TITLE_MIN:
            break
        hidden.add(column_id)
    title_width = max(1, title_room())
    placed: list[tuple[Column, int, int]] = []
    x = 1
    for column in columns.columns:
        if column.id in hidden:
            continue
        w = widths[column.id] or title_width
        placed.append((column, x, w))
        x += w + 1
    return tuple(placed)


def header_strip(
    placed: Placed, width: int, sort: str | None, reverse: bool, style: Style, sorted_style: Style
) -> Strip:
    """The header line; the sorted column's label carries ▲ or ▼."""
    segments = []
    for column, _x, w in placed:
        # Each label gets its column plus the gap before it, so the sort
        # arrow sits right before the label and never cuts it.
        if column.id == sort:
            label = ("▼" if reverse else "▲") + column.label
            segments.append(Segment(fit(label, w + 1, column.align == "right"), sorted_style))
        else:
            segments.append(Segment(fit(" " + column.label, w + 1, column.align == "right"), style))
    segments.append(Segment(" ", style))
    return Strip(segments).adjust_cell_length(width, style)


def row_strip(
    row: Row,
    layout: Layout,
    *,
    base: Style,
    fate_style: Style,
    fate_symbol: str,
    mark: str,
    mark_style: Style,
    cursor: Style | None,
) -> Strip:
    """A row's line: its cells fitted to their columns; `cursor` (a background) marks the selected row."""
    segments = [Segment(" ", base)]
    append = segments.append
    gap = Segment(" ", base)
    cell: Callable[[str], str] = row.cell
    for column, _x, w in layout.columns:
        cid = column.id
        if cid == MARK_ID:
            append(Segment(mark, mark_style))
        elif column.cell is None:  # the fate column: the theme's glyph
            append(Segment(fit(fate_symbol, w), fate_style))
        else:
            append(Segment(fit(cell(cid), w, column.align == "right"), fate_style if cid == "reason" else base))
        append(gap)
    end = layout.columns[-1][1] + layout.columns[-1][2] + 1 if layout.columns else 1
    if end > layout.width and len(segments) > 1:
        segments.pop()  # the last column's gap falls outside the line: drop it rather than crop every line
        end -= 1
    if cursor is not None:
        # The cursor keeps each cell's colour and changes only the background;
        # the ▌ and bold mark it without colour too (NO_COLOR, monochrome).
        segments[0] = Segment("▌", base)
        segments = list(Segment.apply_style(segments, post_style=Style(bgcolor=cursor.bgcolor, bold=True)))
        base = base + Style(bgcolor=cursor.bgcolor)
    if end < layout.width:
        segments.append(Segment(" " * (layout.width - end), base))
    strip = Strip(segments, max(end, layout.width))
    return strip if end <= layout.width else strip.crop(0, layout.width)
