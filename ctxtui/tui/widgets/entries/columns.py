"""The entries table's columns, defined once: id, header, width, alignment, natural direction, sort key, cell.

Adding a column touches this file only: the table lays the columns out in this
order, `Row` formats their cells, `sorted_indices` sorts by their keys, and the
command palette offers "Sort by <id>" for each. Sort keys and cells read the
engine's `Outcome` (no Textual here): a sort key of None means "no value" and
sorts last either way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ctxtui.engine.explain.reasons import REASON_SHORT, reason_cell
from ctxtui.engine.model import Fate, Outcome
from ctxtui.engine.packers.ctx.sections import SECTIONS
from ctxtui.safe_text import clean_line
from ctxtui.tui.safe_text import steady_width

FATE_ORDER = {fate: index for index, fate in enumerate(Fate)}  # included, summarized, dropped
_SECTION_ORDER = {name: index for index, name in enumerate(SECTIONS)}
_REASON_ORDER = {reason: index for index, reason in enumerate(REASON_SHORT)}


@dataclass(frozen=True, slots=True)
class Column:
    id: str  # also the name `EntriesTable.sort_by` takes
    label: str  # the header
    width: int  # 0: takes the remaining width (the title)
    sort_key: Callable[[Outcome], Any]
    cell: Callable[[Outcome], str] | None = None  # None: the table draws the theme's fate glyph
    align: str = "left"  # "left" or "right"
    descending: bool = False  # natural direction when first sorted


def _scored(field: str) -> Callable[[Outcome], Any]:
    """A number of the score breakdown; None for entries that are not scored."""

    def value(outcome: Outcome) -> Any:
        score = outcome.score
        return None if score is None else getattr(score, field)

    return value


def _memory(field: str) -> Callable[[Outcome], float | None]:
    """Importance or usage: the score's when scored, else the memory's own (None for markdown entries)."""

    def value(outcome: Outcome) -> float | None:
        score = outcome.score
        found = None if score is None else getattr(score, field)
        return getattr(outcome.entry, field) if found is None else found

    return value


def _decimal(value: Callable[[Outcome], float | None]) -> Callable[[Outcome], str]:
    def cell(outcome: Outcome) -> str:
        number = value(outcome)
        return "" if number is None else f"{number:.2f}"

    return cell


_age = _scored("age_days")
_recency, _relevance, _total = _scored("recency"), _scored("relevance"), _scored("total")
_importance, _usage = _memory("importance"), _memory("usage")


def _title_cell(outcome: Outcome) -> str:
    """The title as the table draws it: sanitised, and emoji sequences reduced to what every terminal draws alike."""
    return steady_width(clean_line(outcome.entry.title))


def _age_cell(outcome: Outcome) -> str:
    days = _age(outcome)
    return "" if days is None else f"{days}d"


COLUMNS: tuple[Column, ...] = (
    Column("fate", " ", 1, lambda o: FATE_ORDER[o.fate]),
    Column(
        "section",
        "section",
        12,
        lambda o: _SECTION_ORDER.get(o.entry.section, len(_SECTION_ORDER)),
        lambda o: clean_line(o.entry.section),
    ),
    Column("title", "title", 0, lambda o: clean_line(o.entry.title).casefold(), _title_cell),
    Column("age", "age", 5, _age, _age_cell, "right"),
    Column("recency", "rec", 4, _recency, _decimal(_recency), "right", True),
    Column("relevance", "rel", 4, _relevance, _decimal(_relevance), "right", True),
    Column("importance", "imp", 4, _importance, _decimal(_importance), "right", True),
    Column("usage", "use", 4, _usage, _decimal(_usage), "right", True),
    Column("score", "score", 5, _total, _decimal(_total), "right", True),
    Column("tokens", "tokens", 7, lambda o: o.entry.tokens, lambda o: f"{o.entry.tokens:,}", "right", True),
    Column("reason", "reason", 26, lambda o: _REASON_ORDER.get(o.reason, len(_REASON_ORDER)), reason_cell),
)
COLUMN_BY_ID: dict[str, Column] = {column.id: column for column in COLUMNS}
MEMORY_COLUMNS = ("importance", "usage")  # shown only when a memory database gives these values
