"""Table rows: engine outcomes as display strings, and which rows show in which order.

A `Row` formats the numbers the engine already decided, through the columns'
`cell` functions, and neutralises untrusted titles, so the table only places
strings in cells. Formatting is deferred to first display: at 10,000 rows
eager formatting took ~55 ms per slider step, lazy ~3 ms. `RowFilter` says
which rows show; `sorted_indices` orders them. No Textual here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from ctxtui.engine.explain.reasons import REASON_SHORT
from ctxtui.engine.fate import FATE_OF_CODE, Fate
from ctxtui.engine.model import Entry, Outcome, Plan
from ctxtui.safe_text import clean_line
from ctxtui.tui.widgets.entries.columns import CTX_COLUMNS, Column, ColumnSet, columns_for
from ctxtui.tui.widgets.entries.ordering import ascending, mask_of, narrowed, order_some_rows
from ctxtui.tui.widgets.entries.passing import rows_passing
from ctxtui.tui.widgets.entries.vectors import candidate_flags, column_values, load_index

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


class ViewRows(Sequence[Row]):
    """A view's rows in packet order, each made when first asked for (issue 11).

    A slider step at 50,000 memories draws ~40 rows and explains one entry:
    building every outcome and row for it cost ~300 ms. Here row `k` is made
    from the plan's single outcome of candidate `plan.order[k]`; filtering by
    fate or section and finding an entry read compact per-candidate data (the
    fate vector, the entries) instead. What needs every row (a text filter, a
    sort by a number) asks for `every_row()`, built at once from the plan's
    outcomes, which is faster than one by one. `row.order` is its index here.
    """

    def __init__(self, plan: Plan, columns: ColumnSet = CTX_COLUMNS) -> None:
        self.plan = plan
        self.columns = columns
        self.order = plan.order
        self._entries = plan.packer.candidates()
        self._made: dict[int, Row] = {}
        self._every: list[Row] | None = None
        # The last filter's rows (in packet order), how many, and its flag per row (None: every row passed).
        self._passed: tuple[list[int], int, bytes | None] | None = None

    def __len__(self) -> int:
        return len(self.order)

    @overload
    def __getitem__(self, k: int) -> Row: ...
    @overload
    def __getitem__(self, k: slice) -> list[Row]: ...
    def __getitem__(self, k: int | slice) -> Row | list[Row]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if self._every is not None:
            return self._every[k]
        row = self._made.get(k)
        if row is None:
            if k < 0:
                k += len(self.order)
            row = self._made[k] = Row(self.plan.outcome_at(self.order[k]), k, self.columns)
        return row

    def __iter__(self) -> Iterator[Row]:
        return iter(self.every_row())

    @property
    def complete(self) -> bool:
        """Every row is built (a text filter or a sort by a number asked for them)."""
        return self._every is not None

    def every_row(self) -> list[Row]:
        """All rows, built at once from the plan's outcomes (keeping the rows already made)."""
        if self._every is None:
            made, columns = self._made, self.columns
            self._every = [made.get(k) or Row(o, k, columns) for k, o in enumerate(self.plan.outcomes)]
        return self._every

    def passing(self, row_filter: RowFilter) -> list[int]:
        """`row_filter.apply(self)` from per-candidate vectors (`vectors`): no row or outcome is made."""
        flags = candidate_flags(
            self.plan,
            self._entries,
            row_filter.fates,
            row_filter.sections,
            row_filter.text.casefold(),
            row_filter.keys,
        )
        if flags is None:
            passed, by_row = list(range(len(self))), None
        else:
            index = load_index(self._entries)
            found = index.last_passed = rows_passing(self.order, flags, self.plan.places, index.last_passed)
            passed, by_row = found.rows, found.by_row
        self._passed = (passed, len(passed), by_row)  # a sort of these rows narrows a kept ordering with them
        return passed

    def sorted_rows(self, column: Column, indices: Sequence[int], reverse: bool) -> list[int] | None:
        """`sorted_indices` from per-candidate vectors (None: the outcomes alone know the column's values).

        The ordering of every row is kept with the load while the packet order and the column's values
        stay the same objects (`ordering.Orderings`); the rows of a filter are then picked out of it."""
        values = column_values(self.plan, self._entries, column.id, column.sort_key, column.optional or column.own)
        if values is None:
            return None
        count, passed = len(self), self._passed
        if isinstance(indices, range) and indices == range(count):  # every row (no filter)
            return list(
                load_index(self._entries).orderings.every_row(column.id, self.order, values, reverse, self.plan.places)
            )
        # A filter's rows, as `passing` gave them: in packet order, their flags at hand.
        known = passed is not None and indices is passed[0] and len(indices) == passed[1]
        if not known and not ascending(indices):  # the caller's own order: ties keep it
            return order_some_rows(self.order, values, indices, reverse)
        if len(indices) * 16 < count:  # a few rows: their own values, whatever is kept
            return order_some_rows(self.order, values, indices, reverse)
        every = load_index(self._entries).orderings.every_row(column.id, self.order, values, reverse, self.plan.places)
        if len(indices) == count:
            return list(every)
        mask = passed[2] if known and passed is not None else None
        return narrowed(every, mask if mask is not None else mask_of(count, indices))

    def entry_at(self, k: int) -> Entry:
        return self._entries[self.order[k]]

    def key_at(self, k: int) -> str:
        return self._entries[self.order[k]].key

    def fate_at(self, k: int) -> Fate:
        return FATE_OF_CODE[self.plan.fates[self.order[k]]]

    def place_of_key(self, key: str) -> int | None:
        """Row index of the first candidate with this key (None: none)."""
        index = self.plan.packer.index_of(key)
        return None if index is None else self.plan.places[index]


def rows_of(view: View) -> ViewRows:
    """The table's rows for a view, kept with the view (a worker may make them first)."""
    rows: ViewRows = view.memo("entries.rows", lambda v: ViewRows(v.plan, columns_for(v.packer_name)))
    return rows


def _entry_at(rows: Sequence[Row]) -> Callable[[int], Entry]:
    return rows.entry_at if isinstance(rows, ViewRows) else lambda i: rows[i].outcome.entry


def _key_at(rows: Sequence[Row]) -> Callable[[int], str]:
    return rows.key_at if isinstance(rows, ViewRows) else lambda i: rows[i].key


def _fate_at(rows: Sequence[Row]) -> Callable[[int], Fate]:
    return rows.fate_at if isinstance(rows, ViewRows) else lambda i: rows[i].fate


def optional_present(rows: Sequence[Row]) -> frozenset[str]:
    """The optional columns (ctx's importance and usage) some row has a value for: only those are shown.

    An optional column's number is the entry's own (a database memory's), so
    a view's rows are asked through their entries, without making 50,000 outcomes.
    """
    if not rows:
        return frozenset()
    columns = rows.columns if isinstance(rows, ViewRows) else rows[0].columns
    optional = [columns.by_id[i] for i in columns.optional_ids]
    if isinstance(rows, ViewRows):
        entries = rows.plan.packer.candidates()

        def probes() -> Iterator[Outcome]:
            # An outcome of the entry alone (no score, a placeholder reason): enough for an entry's own number.
            return (Outcome(entry, 0, Fate.DROPPED, Fate.DROPPED) for entry in entries)
    else:

        def probes() -> Iterator[Outcome]:
            return (row.outcome for row in rows)

    return frozenset(column.id for column in optional if any(column.sort_key(o) is not None for o in probes()))


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
        if isinstance(rows, ViewRows) and "\n" not in self.text:
            return rows.passing(self)
        if not self.active:
            return list(range(len(rows)))
        fates, sections, needle, keys = self.fates, self.sections, self.text.casefold(), self.keys
        indices = range(len(rows))
        # Compact data first (keys, fates, sections: no row is made); the text, which needs the reason, last.
        if keys is not None:
            key_at = _key_at(rows)
            indices = [i for i in indices if key_at(i) in keys]  # type: ignore[assignment]
        if fates:
            fate_at = _fate_at(rows)
            indices = [i for i in indices if fate_at(i) in fates]  # type: ignore[assignment]
        if sections:
            entry_at = _entry_at(rows)
            indices = [i for i in indices if entry_at(i).section in sections]  # type: ignore[assignment]
        if needle:
            every = rows.every_row() if isinstance(rows, ViewRows) else rows
            indices = [i for i in indices if needle in every[i].haystack]  # type: ignore[assignment]
        return list(indices)


def sorted_indices(
    rows: Sequence[Row], indices: Sequence[int], column: str | None, reverse: bool, columns: ColumnSet = CTX_COLUMNS
) -> list[int]:
    """Order `indices` by a column's sort key; rows without a value go last either way.

    `column=None` keeps packet order. Ties keep packet order too (stable sort).
    """
    if column is None or column not in columns.by_id:
        if isinstance(rows, ViewRows):  # a row's packet order is its index
            return sorted(indices, reverse=reverse)
        return sorted(indices, key=lambda i: rows[i].order, reverse=reverse)
    sort_key = columns.by_id[column].sort_key
    found = rows.sorted_rows(columns.by_id[column], indices, reverse) if isinstance(rows, ViewRows) else None
    if found is not None:
        return found
    every = rows.every_row() if isinstance(rows, ViewRows) else rows
    keyed = [(sort_key(every[i].outcome), i) for i in indices]
    valued = [pair for pair in keyed if pair[0] is not None]
    # Stable: equal keys keep the order of `indices` (packet order), also when reversed.
    valued.sort(key=lambda pair: pair[0], reverse=reverse)
    return [i for _key, i in valued] + [i for key, i in keyed if key is None]


def position_of(rows: Sequence[Row], indices: Sequence[int], entry: Entry, near: int = 0) -> int | None:
    """Where `entry` is among the rows shown (`indices`), by identity rather than by key alone.

    A key says what an entry is (sources/identity.py), so after a reload the
    same key is the same entry wherever it moved. The key with the same text is
    looked for first (a slider step, a line inserted above), then the same
    section and text (a key no packer keeps: a memory re-imported under a new
    id), then section and title (an edited body), and only then the key alone.
    Among several equal candidates the one nearest the old key's place (else
    position `near`) wins.
    """
    entry_at = _entry_at(rows)
    by_key = key_position(rows, indices, entry.key)
    if by_key is not None:
        found = entry_at(indices[by_key])
        if found is entry or (found.text == entry.text and found.section == entry.section):
            return by_key
    for same in (
        lambda e: e.section == entry.section and e.text == entry.text,
        lambda e: e.section == entry.section and e.title == entry.title,
    ):
        candidates = [position for position, index in enumerate(indices) if same(entry_at(index))]
        if candidates:
            place = by_key if by_key is not None else near
            return min(candidates, key=lambda position: abs(position - place))
    return by_key


def key_position(rows: Sequence[Row], indices: Sequence[int], key: str) -> int | None:
    """The position among `indices` of the first row shown with this key (None: none shown)."""
    if isinstance(rows, ViewRows):
        place = rows.place_of_key(key)
        if place is None:
            return None
        if place < len(indices) and indices[place] == place:  # every row in packet order (the usual case)
            return place
        try:
            return (indices if isinstance(indices, list) else list(indices)).index(place)
        except ValueError:
            return None
    key_at = _key_at(rows)
    return next((position for position, index in enumerate(indices) if key_at(index) == key), None)
