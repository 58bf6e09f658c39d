"""Table rows: engine outcomes as display strings, sort keys and filter text.

`rows_from_outcomes` is a pure function (no Textual): a `Row` formats the
numbers the engine already decided and neutralises untrusted titles, so the
table only places strings in cells. Formatting is deferred to first display:
at 10,000 rows eager formatting took ~55 ms per slider step, lazy ~3 ms.
`RowFilter` says which rows show; `sorted_indices` orders them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ctxtui.engine.explain.reasons import REASON_SHORT, reason_cell
from ctxtui.engine.model import Fate, Outcome
from ctxtui.engine.packers.ctx.sections import SECTIONS
from ctxtui.ui.safe_text import clean_line

# Display order of the table's columns; also the names `sort_by` accepts.
COLUMN_IDS = (
    "fate", "section", "title", "age", "recency", "relevance",
    "importance", "usage", "score", "tokens", "reason",
)

FATE_ORDER = {Fate.INCLUDED: 0, Fate.SUMMARIZED: 1, Fate.DROPPED: 2}
# One glyph per fate so the fate reads without colour; all are one cell wide
# (● and ◐ are East-Asian "ambiguous": two cells only in CJK-wide terminals).
FATE_SYMBOL = {Fate.INCLUDED: "●", Fate.SUMMARIZED: "◐", Fate.DROPPED: "✕"}

_SECTION_ORDER = {name: index for index, name in enumerate(SECTIONS)}
_REASON_ORDER = {reason: index for index, reason in enumerate(REASON_SHORT)}



_DISPLAY = ("section", "title", "age", "recency", "relevance", "importance", "usage", "score", "tokens", "reason")


class Row:
    """One entry as the table shows it: plain, already-safe strings plus sort keys.

    Immutable in use. The display strings are formatted on first access and
    kept: a slider step builds 10,000 rows but the table draws only the ~40 on
    screen, so eager formatting would cost more than the assembly itself.
    Sort keys (`sort_key`) and the filter text are read straight from the
    outcome. A `None` sort key means "no value" and sorts last either way.
    `order` is the engine's packet order.
    """

    __slots__ = ("key", "fate", "tier", "order", "outcome", "_cells", "_haystack")

    def __init__(self, outcome: Outcome, order: int) -> None:
        self.outcome = outcome
        self.key: str = outcome.entry.key
        self.fate: Fate = outcome.fate
        self.tier: int = outcome.tier
        self.order = order
        self._cells: tuple[str, ...] | None = None
        self._haystack: str | None = None

    def __repr__(self) -> str:
        return f"Row({self.key!r}, {self.fate.value}, {self.title!r})"

    def _format(self) -> tuple[str, ...]:
        outcome = self.outcome
        entry, score = outcome.entry, outcome.score
        if score is not None:
            age_days = score.age_days
            recency, relevance, total = score.recency, score.relevance, score.total
            importance = score.importance if score.importance is not None else entry.importance
            usage = score.usage if score.usage is not None else entry.usage
        else:
            age_days = recency = relevance = total = None
            importance, usage = entry.importance, entry.usage
        cells = (
            clean_line(entry.section),
            clean_line(entry.title),
            "" if age_days is None else f"{age_days}d",
            _f(recency), _f(relevance), _f(importance), _f(usage), _f(total),
            _n(entry.tokens),
            reason_cell(outcome),
        )
        self._cells = cells
        return cells

    def cell(self, column: str) -> str:
        """The display string for a column (the fate column shows `FATE_SYMBOL`)."""
        if column == "fate":
            return FATE_SYMBOL[self.fate]
        return getattr(self, column)

    def sort_key(self, column: int):
        """The sort value of column `COLUMN_IDS[column]`; None when the entry has none."""
        outcome = self.outcome
        if column == 0:
            return FATE_ORDER[outcome.fate]
        entry = outcome.entry
        if column == 1:
            return _SECTION_ORDER.get(entry.section, len(_SECTION_ORDER))
        if column == 2:
            return clean_line(entry.title).casefold()
        if column == 9:
            return entry.tokens
        if column == 10:
            return _REASON_ORDER.get(outcome.reason, len(_REASON_ORDER))
        score = outcome.score
        if column in (6, 7):  # importance, usage: a memory's, scored or not
            value = None if score is None else (score.importance if column == 6 else score.usage)
            if value is None:
                value = entry.importance if column == 6 else entry.usage
            return value
        if score is None:
            return None
        return (score.age_days, score.recency, score.relevance, None, None, score.total)[column - 3]

    @property
    def sort_keys(self) -> tuple:
        """All sort values, in `COLUMN_IDS` order."""
        return tuple(self.sort_key(i) for i in range(len(COLUMN_IDS)))

    @property
    def raw_section(self) -> str:
        return self.outcome.entry.section

    @property
    def haystack(self) -> str:
        """Lower-cased text the text filter searches: title, section, reason and key."""
        if self._haystack is None:
            entry = self.outcome.entry
            label = REASON_SHORT.get(self.outcome.reason, "")
            self._haystack = f"{clean_line(entry.title)}\n{entry.section}\n{label}\n{entry.key}".casefold()
        return self._haystack


def _display_property(index: int, name: str) -> property:
    def get(self: Row) -> str:
        cells = self._cells
        if cells is None:
            cells = self._format()
        return cells[index]

    get.__name__ = name
    return property(get, doc=f"The {name} column, formatted.")


for _index, _name in enumerate(_DISPLAY):
    setattr(Row, _name, _display_property(_index, _name))


def _n(value: int) -> str:
    return f"{value:,}"


def _f(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def rows_from_outcomes(outcomes: Iterable[Outcome]) -> list[Row]:
    """A `Row` per outcome, in the order given (packet order). Formatting happens on display."""
    return [Row(outcome, order) for order, outcome in enumerate(outcomes)]


@dataclass(frozen=True, slots=True)
class RowFilter:
    """Which rows the table shows. Empty sets and empty text mean "no restriction"."""

    fates: frozenset[Fate] = frozenset()
    sections: frozenset[str] = frozenset()
    text: str = ""  # case-insensitive substring of title, section, reason or key

    @property
    def active(self) -> bool:
        return bool(self.fates or self.sections or self.text)

    def matches(self, row: Row) -> bool:
        if self.fates and row.fate not in self.fates:
            return False
        if self.sections and row.raw_section not in self.sections:
            return False
        return not self.text or self.text.casefold() in row.haystack

    def apply(self, rows: Sequence[Row]) -> list[int]:
        """Indices of the rows that pass, in their original order."""
        if not self.active:
            return list(range(len(rows)))
        fates, sections, needle = self.fates, self.sections, self.text.casefold()
        return [
            index for index, row in enumerate(rows)
            if (not fates or row.fate in fates)
            and (not sections or row.outcome.entry.section in sections)
            and (not needle or needle in row.haystack)
        ]


def sorted_indices(rows: Sequence[Row], indices: list[int], column: str | None, reverse: bool) -> list[int]:
    """Order `indices` by a column; rows without a value go last either way.

    `column=None` keeps packet order. Ties keep packet order too (stable sort).
    """
    if column is None:
        return sorted(indices, key=lambda i: rows[i].order, reverse=reverse)
    c = COLUMN_IDS.index(column)
    keyed = [(rows[i].sort_key(c), i) for i in indices]
    present = [pair for pair in keyed if pair[0] is not None]
    missing = [i for key, i in keyed if key is None]
    # Stable: equal keys keep the order of `indices` (packet order), also when reversed.
    present.sort(key=lambda pair: pair[0], reverse=reverse)
    return [i for _key, i in present] + missing
