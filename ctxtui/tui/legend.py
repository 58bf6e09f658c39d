"""What every symbol, line, column and term on screen means: the second half of the `?` help.

One place for the words, read by the help screen (the keys come from
`actions.py`; a column's meaning from its `Column.help`, a score's from
`engine.explain.components`, so a new packer's numbers are explained where
they are defined). The fate glyphs are the theme's (a theme may change them),
so they are passed in. Plain words, one word for one thing: an entry of which
only a shorter form reached the packet (ctx: its title under Also Noted) is
*summarized* everywhere (the engine's fate, the filter, the bars, the CLI);
numbers are tokens unless they say otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping

from ctxtui.engine.explain.components import components_for
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.registry import PACKERS
from ctxtui.tui.legend_reasons import NOTATION, REASON_WORDS
from ctxtui.tui.widgets.entries.columns import FATE_ID, MARK_ID, columns_for
from ctxtui.tui.widgets.tiers.bars import GLYPH_FREE, GLYPH_OVERRUN, GLYPH_SUMMARIZED, GLYPH_USED

# (key or symbol as shown, words); (None, heading) starts a group.
LegendItem = tuple[str | None, str]

_FATE_WORDS = {
    Fate.INCLUDED: "included: in the packet in full",
    Fate.SUMMARIZED: "summarized: only a shorter form is in the packet (ctx: its title, under Also Noted)",
    Fate.DROPPED: "dropped: not in the packet at this budget",
}

SYMBOLS: tuple[LegendItem, ...] = (
    ("▲", "mark column: the entry moved up on the last budget step (dropped → summarized → in full)"),
    ("▼", "mark column: the entry moved down on the last step; in a column header, ▲ ▼: the sort direction"),
    ("◆", "mark column: the entry's fate differs from the pin (P) or from the compared ctx version"),
    (
        "✎",
        "mark column: the entry's own text was edited (a decision's body grew) and its fate did not move; "
        "it is the same entry: its key (what it is) did not change, only its text",
    ),
    (GLYPH_USED, "tier bars: tokens of entries in full"),
    (GLYPH_SUMMARIZED, "tier bars: tokens of summarized entries"),
    (GLYPH_OVERRUN, "tier bars: tokens forced in past the cap (+N over)"),
    (GLYPH_FREE, "tier bars: room left under the cap, share or budget"),
    ("⚠ over", "status line: the packet uses more tokens than the budget within it"),
    ("…", "status line: the real tokenizer is still counting"),
    ("␛ ␇ �", "in text: a control character, or one that draws as nothing (zero-width space…); copies keep it"),
)

LINES: tuple[LegendItem, ...] = (
    (
        "status line",
        "project · budget · tokens used (~: as the packer counts them; within the budget + added after it) · "
        "the real tokenizer's count (o200k) · how many entries are ● ◐ ✕",
    ),
    (
        "settings line",
        "the packer (and why that one) and each setting with where it came from: (flag) a command-line "
        "option, (environment) a variable, (.ctxrc) the project's file, (default) the tool's own, "
        "(set here) changed with k; a nous turn's: (turn log) read from its log, (assumed …) or "
        "(inferred …) not logged, ctxtui's guess, said in the problems line (k changes it)",
    ),
    (
        "changes line",
        '▲▼ what the last step did, in words: how many entries moved to each fate ("3 moved to full, 1 to '
        'dropped"), and how many are new, gone (a reload) or edited; ◆ how many entries differ from the pin',
    ),
    (
        "filter line",
        "Filter: while a filter hides rows (/ text, f fate, e section, d differs or moved), how many "
        "entries the table shows of all of them and each filter in words; Esc shows all",
    ),
    (
        "refusal banner",
        "⊘ ctx would refuse this workspace (no .git, a missing file...): the packet shown is what "
        "it would build otherwise; `ctxtui pack` fails as ctx does unless --ignore-refusal",
    ),
    (
        "↶ the past",
        "the packet of a commit (h: history), read from git and packed at the commit's date; read-only: "
        "nothing is saved into the project; H: back to the working tree",
    ),
    ("memory.db found", "the project has .context/memory.db, which ctx never reads: m joins it to the packet"),
    ("ctx + N memories", "a memory database is joined: the packet is ctx's plus those memories"),
    (
        "tier bars",
        "one bar per tier or section: used / limit in tokens, (N%) the limit's part of the budget, "
        "+N vs pin the change against the pin",
    ),
)

TERMS: tuple[LegendItem, ...] = (
    (
        "packer",
        "the tool whose packet is shown: ctx 0.8.1, 0.8.0, ctx's MCP resource, Shabka, Cortex or nous (v switches)",
    ),
    ("budget", "the tokens the packet is built for (--budget, $CTX_TOKEN_BUDGET, .ctxrc token_budget, 8,000)"),
    ("~ tokens", "the packer's own count (ctx: UTF-8 bytes ÷ 4); o200k beside it is a real tokenizer's count"),
    (
        "tier",
        "one step of ctx's assembly, filled in order: 1 always in (constitution...), 2 tasks, 3 conventions, "
        "4 decisions, 5 learnings and memories, 6 steering, 7 a skill",
    ),
    ("cap", "the most a task or convention tier may use: its % of the budget (40%, 20%) or what is left, if less"),
    ("share", "a scored section's (decisions, learnings, memories) slice of what tiers 1-3 left, by its size"),
    (
        "full-entry limit",
        "80% of a share (full ≤ in narrow tier bars): entries go in full in score order while they fit under it",
    ),
    ("Also Noted", "where ctx lists summarized entries' titles; their tokens are added after the budget"),
    (
        "budgeted",
        "counted against the budget; unbudgeted (after the budget): added after it, as the Also Noted titles, "
        "so a packet can use more tokens than its budget",
    ),
    ("threshold", "the smallest budget, in tokens, at which an entry is in full, or in the packet at all"),
    (
        "advice",
        'the why panel\'s "To get it in full: …": changes that would put the entry in, each checked by building '
        'the packet again with it; the search stops after 3 s ("there may be other moves")',
    ),
    ("not monotone", "a larger budget does not always keep it in: the budgets where it is in are listed"),
    ("quirk", "one of ctx's surprising behaviours, reproduced on purpose (! lists those at work)"),
    ("knobs", "a packer's settings besides the budget (k): each change recomputes the packet at once"),
    ("pin", "a saved state (P) to compare with: ◆ marks, +N vs pin in the bars, d filters, the preview's diff"),
    ("coverage", "per section, how many entries are in full at each budget (g): where more budget stops helping"),
    (
        "edit / time",
        "why a commit changed an entry's fate (y, ctxtui log): its edit of the files, or the time passed since "
        "its parent (recency: 7, 30, 90 days), or both",
    ),
)


def column_items() -> list[LegendItem]:
    """Every packer's columns: the ones all tables have, then each packer's numbers under its name."""
    items: list[LegendItem] = [(None, "Columns (every packer)")]
    common = columns_for(PACKERS[0]).columns
    for column in common:
        if column.id in (FATE_ID, MARK_ID):
            items.append((f"{column.id} (no header)", column.help))
        elif not _is_component(column.id, PACKERS[0]):
            items.append((column.label, column.help))
    seen: dict[tuple[str, ...], str] = {}
    for packer in PACKERS:
        components = components_for(packer)
        if not components:
            continue
        ids = tuple(component.id for component in components)
        if ids in seen:
            continue  # ctx 0.8.0 has 0.8.1's numbers
        names = [p for p in PACKERS if tuple(c.id for c in components_for(p)) == ids]
        seen[ids] = packer
        items.append((None, "Columns of " + " and ".join(_short(name) for name in names)))
        for component in components:
            words = component.help if component.label == component.header else f"{component.label}: {component.help}"
            items.append((component.header, words))
    return items


def _is_component(column_id: str, packer: str) -> bool:
    return any(component.id == column_id for component in components_for(packer))


def _short(packer: str) -> str:
    names = {
        "ctx-0.8.1": "ctx 0.8.1",
        "ctx-0.8.0": "0.8.0",
        "shabka": "Shabka",
        "shabka-mcp": "its MCP tool",
        "cortex": "Cortex",
    }
    return names.get(packer, packer)


def legend(fate_symbols: Mapping[Fate, str]) -> list[LegendItem]:
    """Symbols, lines, columns and terms, with the theme's fate glyphs."""
    items: list[LegendItem] = [(None, "Symbols")]
    items += [(fate_symbols.get(fate, "?"), words) for fate, words in _FATE_WORDS.items()]
    items += SYMBOLS
    items.append((None, "Lines on screen"))
    items += LINES
    items += column_items()
    items.append((None, "Reasons (the reason column, every packer)"))
    items += list(REASON_WORDS.items())
    items.append((None, "Notation"))
    items += NOTATION
    items.append((None, "Words"))
    items += TERMS
    return items
