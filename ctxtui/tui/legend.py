"""What every symbol, column and term on screen means: the second half of the `?` help.

One place for the words, read by the help screen (the keys come from
`actions.py`, the columns' meanings from `columns.COLUMNS`). The fate glyphs
are the theme's (a theme may change them), so they are passed in. Plain
words, one word for one thing: an entry whose title alone reached the packet
is *summarized* everywhere (the engine's fate, the filter, the bars, the
CLI); numbers are tokens unless they say otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping

from ctxtui.engine.model import Fate
from ctxtui.tui.widgets.entries.columns import COLUMNS
from ctxtui.tui.widgets.tiers.bars import GLYPH_FREE, GLYPH_OVERRUN, GLYPH_SUMMARIZED, GLYPH_USED

# (key or symbol as shown, words); (None, heading) starts a group.
LegendItem = tuple[str | None, str]

_FATE_WORDS = {
    Fate.INCLUDED: "included: in the packet in full",
    Fate.SUMMARIZED: 'summarized: only its title is in the packet, listed under "Also Noted"',
    Fate.DROPPED: "dropped: not in the packet at this budget",
}

TERMS: tuple[LegendItem, ...] = (
    ("budget", "the tokens the packet is built for (--budget, $CTX_TOKEN_BUDGET, .ctxrc token_budget, 8,000)"),
    ("~ tokens", "ctx's own estimate, UTF-8 bytes ÷ 4; o200k_base beside it is a real tokenizer's count"),
    (
        "tier",
        "one step of ctx's assembly, filled in order: 1 always in (constitution...), 2 tasks, 3 conventions, "
        "4 decisions, 5 learnings and memories, 6 steering, 7 a skill",
    ),
    ("cap", "the most a task or convention tier may use: its % of the budget (40%, 20%) or what is left, if less"),
    ("misfit", "the first entry that does not fit under its cap: ctx stops that tier there, smaller ones after it too"),
    ("share", "a scored section's (decisions, learnings, memories) slice of what tiers 1-3 left, by its size"),
    (
        "full-entry limit",
        "80% of a share (full ≤ in narrow tier bars): entries go in full in score order while they fit under it",
    ),
    ("Also Noted", "where summarized entries' titles are listed; their tokens are added after the budget"),
    (
        "budgeted",
        "counted against the budget; unbudgeted: added after it (the Also Noted titles), so a packet can use "
        "more tokens than its budget",
    ),
    ("threshold", "the smallest budget, in tokens, at which an entry is in full, or in the packet at all"),
    ("not monotone", "a larger budget does not always keep it in: the budgets where it is in are listed"),
    ("quirk", "one of ctx's surprising behaviours, reproduced on purpose (! lists those at work)"),
)


def legend(fate_symbols: Mapping[Fate, str]) -> list[LegendItem]:
    """Symbols, columns and terms, with the theme's fate glyphs."""
    items: list[LegendItem] = [(None, "Symbols")]
    items += [(fate_symbols.get(fate, "?"), words) for fate, words in _FATE_WORDS.items()]
    items += [
        ("▲ ▼", "beside an entry: it moved into (or up in) the packet, or out (or down), at the last change"),
        ("▲ ▼", "in a column header: the table is sorted by that column, ascending or descending"),
        (GLYPH_USED, "tier bars: tokens of entries in full"),
        (GLYPH_SUMMARIZED, "tier bars: tokens of summarized titles (Also Noted)"),
        (GLYPH_OVERRUN, "tier bars: tokens forced in past the cap (over)"),
        (GLYPH_FREE, "tier bars: room left under the cap"),
        ("⚠ over", "status line: the real tokenizer counts more tokens than the budget"),
    ]
    items.append((None, "Columns"))
    items += [(column.label.strip() or "fate", column.meaning) for column in COLUMNS]
    items.append(("", "other packers (Shabka, Cortex, nous) score by other signals: the why panel names them"))
    items.append((None, "Words"))
    items += TERMS
    return items
