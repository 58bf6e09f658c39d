"""Table rows: engine outcomes as display strings, and which rows show in which order.

A `Row` formats the numbers the engine already decided, through the columns'
`cell` functions, and neutralises untrusted titles, so the table only places
strings in cells. Formatting is deferred to first display: at 10,000 rows
eager formatting took ~55 ms per slider step, lazy ~3 ms. `RowFilter` says
which rows show; `sorted_indices` orders them. No Textual here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ctxtui.engine.explain.reasons import REASON_SHORT
from ctxtui.engine.model import Entry, Fate, Outcome
from ctxtui.safe_text import clean_line
from ctxtui.tui.widgets.entries.columns import CTX_COLUMNS, ColumnSet, columns_for

if TYPE_CHECKING:
    from ctxtui.session import View


class Row:
    """One entry as the table shows it: plain, already-safe strings, formatted on first access.

    Immutable in use. A slider step builds 10,000 rows but the table draws only
    the ~40 on screen, so eager formatting would cost more than the assembly
    itself. `cell(id)` gives a column's text; each text column is also an
    attribute (`row.title`, `row.score`...). `order` is the engine's packet order.
    """

    __slots__ = ("_cells", "_haystack", "columns", "fate", "key", "order", "outcome", "tier")

    def __init__(self, outcome: Outcome, order: int, columns: ColumnSet = CTX_COLUMNS) -> None:
        self.outcome = outcome
        self.key: str = outcome.entry.key
        self.fate: Fate = outcome.fate
        self.tier: int = outcome.tier
        self.order = order
        self.columns = columns
        self._cells: tuple[str, ...] | None = None
        self._haystack: str | None = None

    def __repr__(self) -> str:
        return f"Row({self.key!r}, {self.fate.value}, {self.cell('title')!r})"

    def _format(self) -> tuple[str, ...]:
        outcome = self.outcome
        cells = self._cells = tuple(column.cell(outcome) for column in self.columns.text_columns)  # type: ignore[misc]
        return cells

    def cells(self) -> tuple[str, ...]:
        """Every text column's text, in the columns' order (what the line shows, with `fate`)."""
        cells = self._cells
        return cells if cells is not None else self._format()

    def cell(self, column_id: str) -> str:
        """The column's text for this row ("" for a column this packer's table does not have)."""
        index = self.columns.text_index.get(column_id)
        if index is None:
            return ""
        cells = self._cells
        if cells is None:
            cells = self._format()
        return cells[index]

    def __getattr__(self, name: str) -> str:
        if name in self.columns.text_index:
            return self.cell(name)
        raise AttributeError(name)

    @property
    def haystack(self) -> str:
        """Lower-cased text the text filter searches: title, section, reason and key."""
        if self._haystack is None:
            entry = self.outcome.entry
            label = REASON_SHORT.get(self.outcome.reason, "")
            self._haystack = f"{clean_line(entry.title)}\n{entry.section}\n{label}\n{entry.key}".casefold()
        return self._haystack


def rows_from_outcomes(outcomes: Iterable[Outcome], columns: ColumnSet = CTX_COLUMNS) -> list[Row]:
    """A `Row` per outcome, in the order given (packet order). Formatting happens on display."""
    return [Row(outcome, order, columns) for order, outcome in enumerate(outcomes)]


def rows_of(view: View) -> list[Row]:
    """The table's rows for a view, built once and kept with the view (a worker may build them first)."""
    return view.memo("entries.rows", lambda v: rows_from_outcomes(v.plan.outcomes, columns_for(v.packer_name)))


@dataclass(frozen=True, slots=True)
class RowFilter:
    """Which rows the table shows. Empty sets and empty text mean "no restriction"."""

    fates: frozenset[Fate] = frozenset()
    sections: frozenset[str] = frozenset()
    text: str = ""  # case-insensitive substring of title, section, reason or key
    keys: frozenset[str] | None = None  # only these entries (those that moved, or differ from the pin)
    keys_label: str = ""  # what `keys` are, in words ("differ from the pin")

    @property
    def active(self) -> bool:
        return bool(self.fates or self.sections or self.text or self.keys is not None)

    def apply(self, rows: Sequence[Row]) -> list[int]:
        """Indices of the rows that pass, in their original order."""
        if not self.active:
            return list(range(len(rows)))
        fates, sections, needle, keys = self.fates, self.sections, self.text.casefold(), self.keys
        return [
            index
            for index, row in enumerate(rows)
            if (keys is None or row.key in keys)
            and (not fates or row.fate in fates)
            and (not sections or row.outcome.entry.section in sections)
            and (not needle or needle in row.haystack)
        ]


def sorted_indices(
    rows: Sequence[Row], indices: list[int], column: str | None, reverse: bool, columns: ColumnSet = CTX_COLUMNS
) -> list[int]:
    """Order `indices` by a column's sort key; rows without a value go last either way.

    `column=None` keeps packet order. Ties keep packet order too (stable sort).
    """
    if column is None or column not in columns.by_id:
        return sorted(indices, key=lambda i: rows[i].order, reverse=reverse)
    sort_key = columns.by_id[column].sort_key
    keyed = [(sort_key(rows[i].outcome), i) for i in indices]
    present = [pair for pair in keyed if pair[0] is not None]
    missing = [i for key, i in keyed if key is None]
    # Stable: equal keys keep the order of `indices` (packet order), also when reversed.
    present.sort(key=lambda pair: pair[0], reverse=reverse)
    return [i for _key, i in present] + missing


def position_of(rows: Sequence[Row], indices: Sequence[int], entry: Entry, near: int = 0) -> int | None:
    """Where `entry` is among the rows shown (`indices`), by identity rather than by key alone.

    A key names a place (`tasks:.context/TASKS.md:4`): after a task is inserted
    above, the same key names another entry. So the entry is looked for by key
    with the same text first (a slider step: the same entry), then by section
    and text, then by section and title (an edited body), and only then by key.
    Among several equal candidates the one nearest the old key's place (else
    position `near`) wins.
    """
    by_key = None
    for position, index in enumerate(indices):
        if rows[index].key == entry.key:
            found = rows[index].outcome.entry
            if found is entry or (found.text == entry.text and found.section == entry.section):
                return position
            by_key = position
            break
    for same in (
        lambda e: e.section == entry.section and e.text == entry.text,
        lambda e: e.section == entry.section and e.title == entry.title,
    ):
        candidates = [position for position, index in enumerate(indices) if same(rows[index].outcome.entry)]
        if candidates:
            place = by_key if by_key is not None else near
            return min(candidates, key=lambda position: abs(position - place))
    return by_key
