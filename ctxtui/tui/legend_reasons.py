"""The reason column's words explained, for the help screen: one line per label any packer can show.

The labels are `engine.explain.reasons.short_reason`'s; a test holds this
table to every member of every packer's reason enum, so a new reason cannot
reach the screen unexplained. The numbers a reason cell carries are
explained once, under "Notation".
"""

from __future__ import annotations

REASON_WORDS: dict[str, str] = {
    # ctx (0.8.1, 0.8.0, MCP)
    "always": "tier 1: always in the packet, whatever it costs (the constitution's rules, the read order)",
    "pattern miss": "a rule a reader sees in CONSTITUTION.md that ctx's pattern does not match (it matches "
    "only a one-line file: one of ctx's quirks, !), so it never reaches the packet",
    "fits": "fitted under its cap or what was left (nous: its block fitted what was left of the section)",
    "forced first": "the first entry of its tier goes in even over the cap (ctx always takes one)",
    "over cap": "the first entry that did not fit under its tier's cap: the tier stops here",
    "after misfit": "after the tier's first misfit: never tried (ctx, Shabka and Cortex stop at the first)",
    "past scan limit": "a convention past the first 1,000 bullets: ctx does not look at it",
    "not reached": "its tier got no budget: what came before used it all, so the tier was never filled",
    "no share": "its section's share of what tiers 1-3 left was 0 tokens",
    "full": "in full: fitted under its section's full-entry limit (80% of the share) in score order",
    "summarized": "only its title is in the packet (Also Noted): its text did not fit under the full-entry limit",
    "superseded": "marked superseded (a ~~Superseded line in the entry, or the memory's status): never packed",
    "archived": "the memory's status is archived (Cortex: the row is archived): never packed",
    "steering off": "one steering file could not be read, which switches all steering off (a quirk of ctx's)",
    "not always": "a steering file whose inclusion is not `always`: ctx agent leaves it out",
    "empty body": "a steering file with nothing after its front matter",
    "template": "a steering file still holding ctx init's template text",
    "no tier 6": "this ctx version has no steering tier",
    "too big": "the skill goes in whole or not at all, and it is larger than what tiers 1-6 left",
    # Cortex (drift memory why)
    "summary": "Cortex pass 1 took its summary; pass 2 did not run (100 tokens or fewer were left)",
    "summary (not top 3)": "Cortex pass 2 expands only the top three: it stayed a summary",
    "summary (expansion > leftover)": "Cortex pass 2 found the full text dearer than what was left",
    "summary (nothing to expand)": "Cortex pass 2 found the full text no longer than the summary",
    "expanded": "Cortex pass 2 replaced its summary with the full text",
    "expanded (overrun)": "expanded, and the running total passed the budget (Cortex's quirk)",
    "misfit": "the first entry that did not fit what was left: the pack (Cortex pass 1, Shabka) stops here, "
    "smaller ones after it too (ctx's tiers do the same at their cap: over cap)",
    "NaN tokens": "its summary has no length, so Cortex's `used + NaN <= budget` is false and pass 1 stops",
    "not gathered": "active, but not among the 20 most recently accessed memories Cortex gathers",
    "no match": "Cortex's substring fallback: its text does not contain the focus",
    "not newest": "Cortex's substring fallback: not among the 100 newest by creation",
    "over 20": "Cortex's substring fallback: it matched, after the first 20 matches",
    "duplicate": "an earlier candidate had the same id",
    "failed": "the tool failed before packing anything: it printed only an error",
    # Shabka (context pack)
    "packed": "Shabka packed it: it fitted what was left of the budget",
    "kind filter": "Shabka's -k names another kind",
    "tag filter": "none of its tags is one of Shabka's -t",
    "project filter": "Shabka's -p names another project",
    "private": "private, and created by someone else",
    "pending": "status pending: Shabka's nearest-vector query leaves it out",
    "orphan vector": "a stored vector without a memory row: it took one of the 50 nearest places",
    "not in 50 nearest": "its vector is not among the 50 nearest to the query",
    "no vector": "no stored vector: Shabka's nearest-vector search never sees it",
    "other dims": "its vector has a minority dimension: skipped when Shabka rebuilds its index",
    "not searched": "the store's vectors are not 128-d: Shabka's hash query finds nothing",
    "unreadable": "Shabka cannot read this row: the command fails",
    # nous
    "cut mid-text": 'nous cuts its section inside this item\'s line ("..." follows)',
    "after the cut": "its line starts after the section's cut",
    "first block": "the first block is always shown, even over the section's budget",
    "over budget": "its block did not fit what was left of the section: the section stops here",
    "after stop": "after the block that did not fit",
    "not budgeted": "nous gives this section (Recent Conversations) no budget",
    "section off": "the section's budget is 0, or the intent plan skipped this type",
    "abandoned": "counted as rendered by nous, printed as nothing",
    "gate": "dropped by a gate nous logged before the section was formatted",
    "pointer": "named in the critic's one-line pointer (★ Recommended for this task …): with the Procedure "
    "Catalog on, nous prints that line instead of a Known Procedures list",
    "catalog on": "a passive procedure slot: nous does not search procedures when the Procedure Catalog renders",
}

NOTATION: tuple[tuple[str, str], ...] = (
    (
        "fits 0+33≤3,200",
        "the reason column's sum: tokens used before it in its tier + its own tokens, against the cap "
        "(≤ fitted, > did not); `full …≤N` and `summarized …>N` compare with the full-entry limit",
    ),
    ("forced first 40>30", "its tokens against a cap it was let past"),
    ("no share (0)", "the share its section got, in tokens"),
    ("18d", "age column: days between the entry's date and the packet's now"),
    ("98–19,238 tokens", "a range of budgets, in tokens, where the entry has that fate"),
    ("✕ ◐ ●", "the fate glyphs; ▲ ▼ ◆ ✎ the change marks (see Symbols)"),
)
