"""The entries table's columns: fixed ones around the active packer's score components.

Every table shows a fate glyph, a change mark, the section and the title on
the left and the tokens and the reason on the right; between them sit the
numbers that ranked the entries, which depend on the packer (ctx: age,
recency, relevance, importance, usage, score; Shabka: its seven signals;
Cortex: its five factors, intent weight and diversity; nous: logged ranks
and section budgets). Those come from `engine.explain.components`, so adding
a packer adds no column code here. Sort keys and cells read the engine's
`Outcome` (no Textual here): a sort key of None means "no value" and sorts
last either way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ctxtui.engine.explain.components import Component, components_for
from ctxtui.engine.explain.reasons import REASON_SHORT, reason_cell
from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Outcome
from ctxtui.engine.packers.ctx.sections import SECTIONS
from ctxtui.safe_text import clean_line
from ctxtui.tui.safe_text import steady_width

FATE_ORDER = {fate: index for index, fate in enumerate(Fate)}  # included, summarized, dropped
_SECTION_ORDER = {name: index for index, name in enumerate(SECTIONS)}
_REASON_ORDER = {reason: index for index, reason in enumerate(REASON_SHORT)}

FATE_ID, MARK_ID = "fate", "mark"  # drawn by the table itself (the theme's glyph; the view's marks)


@dataclass(frozen=True, slots=True)
class Column:
    id: str  # also the name `EntriesTable.sort_by` takes
    label: str  # the header
    width: int  # 0: takes the remaining width (the title)
    sort_key: Callable[[Outcome], Any]
    cell: Callable[[Outcome], str] | None = None  # None: the table draws it (fate glyph, change mark)
    align: str = "left"  # "left" or "right"
    descending: bool = False  # natural direction when first sorted
    optional: bool = False  # hidden unless some entry has a value (ctx's importance and usage)
    help: str = ""  # for the help screen
    own: bool = False  # the number is the entry's own, the same at every budget (sorted per load: vectors.py)


def _component_column(component: Component) -> Column:
    value = component.value

    def sort_key(outcome: Outcome) -> Any:
        found = value(outcome)
        return found if isinstance(found, (int, float)) else None

    return Column(
        component.id,
        component.header,
        component.width,
        sort_key,
        component.text,
        "right",
        True,
        component.optional,
        component.help,
        component.own,
    )


_FATE = Column(
    FATE_ID,
    " ",
    1,
    lambda o: FATE_ORDER[o.fate],
    help="the entry's fate: included (in full), summarized (title only) or dropped",
)
_MARK = Column(
    MARK_ID,
    " ",
    1,
    lambda o: 0,
    help="▲ ▼: moved up or down on the last step; ◆: differs from the pin or the compared version; ✎: edited",
)
_SECTION = Column(
    "section",
    "section",
    12,
    lambda o: _SECTION_ORDER.get(o.entry.section, len(_SECTION_ORDER)),
    lambda o: clean_line(o.entry.section),
    help="the part of the packet the entry belongs to",
)
_TITLE = Column(
    "title",
    "title",
    0,
    lambda o: clean_line(o.entry.title).casefold(),
    lambda o: steady_width(clean_line(o.entry.title)),  # emoji sequences reduced to what every terminal draws alike
    help="the entry's title (its first line for tasks and rules)",
)
_TOKENS = Column(
    "tokens",
    "tokens",
    7,
    lambda o: o.entry.tokens,
    lambda o: f"{o.entry.tokens:,}",
    "right",
    True,
    help="what the entry costs in full, in tokens as the packer counts them",
)
_REASON = Column(
    "reason",
    "reason",
    26,
    lambda o: _REASON_ORDER.get(o.reason, len(_REASON_ORDER)),
    reason_cell,
    help="why the entry landed where it did, in short (the why panel says it in full)",
)


@dataclass(frozen=True, slots=True)
class ColumnSet:
    """The columns of one packer's table, in order, and by id."""

    columns: tuple[Column, ...]
    by_id: dict[str, Column] = field(compare=False, hash=False)
    text_columns: tuple[Column, ...] = ()  # the columns a `Row` formats (not the fate glyph, not the mark)
    text_index: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
    hide_order: tuple[str, ...] = ()  # when the table is narrow, columns go in this order

    @property
    def optional_ids(self) -> tuple[str, ...]:
        return tuple(column.id for column in self.columns if column.optional)


@cache
def columns_for(packer_name: str) -> ColumnSet:
    """The columns of `packer_name`'s table (built once per packer)."""
    scores = tuple(_component_column(component) for component in components_for(packer_name))
    columns = (_FATE, _MARK, _SECTION, _TITLE, *scores, _TOKENS, _REASON)
    text = tuple(column for column in columns if column.cell is not None)
    # Narrow: optional numbers go first, then the other numbers (the first, e.g. ctx's age, last of
    # them), then the section, then the final number (the score), then the reason.
    optional = [c.id for c in scores if c.optional]
    required = [c.id for c in scores if not c.optional]
    numbers = [*required[1:-1], *required[:1]] if len(required) > 1 else []
    hide = (*optional, *numbers, "section", *required[-1:], "reason")
    return ColumnSet(
        columns,
        {column.id: column for column in columns},
        text,
        {column.id: index for index, column in enumerate(text)},
        hide,
    )


CTX_COLUMNS = columns_for("ctx-0.8.1")
COLUMNS: tuple[Column, ...] = CTX_COLUMNS.columns  # the ctx table's, e.g. for the help screen's legend
COLUMN_BY_ID: dict[str, Column] = CTX_COLUMNS.by_id
