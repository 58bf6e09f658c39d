"""Reasons in words: why an entry got its fate, with the numbers that decided it.

Every sentence a user reads about a fate is written here, from the outcome's
typed numbers; the packers only decide, the CLI and the TUI only show. The
short forms fill the table's "reason" column.
"""

from __future__ import annotations

from enum import Enum

from ctxtui.engine.explain.thresholds import Threshold
from ctxtui.engine.model import Outcome, PatternMiss, PrefixFit, SectionFit, ShareFit
from ctxtui.engine.packers.cortex.outcomes import CortexNumbers, CortexReason
from ctxtui.engine.packers.ctx.sections import Reason
from ctxtui.engine.packers.nous.fates import NousReason
from ctxtui.engine.packers.shabka.fates import KNN_SIZE, ShabkaReason
from ctxtui.engine.packers.shabka.floats import rust_display

# ---------------------------------------------------------------- Cortex
# (short label, sentence) per reason of the cortex packer. Cortex here is
# always its vector-less path: the explanation says so, the packet never does.
CORTEX_PATH = "Cortex vector-less path"
CORTEX_REASONS: dict[CortexReason, tuple[str, str]] = {
    CortexReason.NO_PASS_2: ("summary", "in at summary level; pass 2 did not run (leftover ≤ 100)"),
    CortexReason.NOT_TOP_3: ("summary (not top 3)", "in at summary level; pass 2 only tries the top three"),
    CortexReason.EXPANSION_TOO_BIG: (
        "summary (expansion > leftover)",
        "in at summary level; its expansion costs more than pass 2's leftover",
    ),
    CortexReason.NOTHING_TO_EXPAND: (
        "summary (nothing to expand)",
        "in at summary level; its expanded text is no longer than its summary",
    ),
    CortexReason.EXPANDED: ("expanded", "expanded in pass 2: its expansion fits the leftover"),
    CortexReason.EXPANDED_OVERRUN: (
        "expanded (overrun)",
        "expanded in pass 2 against an unreduced leftover: the total passes the budget",
    ),
    CortexReason.MISFIT: ("misfit", "pass 1 stopped at this first misfit"),
    CortexReason.NAN_TOKENS: ("NaN tokens", "its summary has no length, so pass 1 stops here"),
    CortexReason.AFTER_MISFIT: ("after misfit", "after the first misfit: pass 1 had stopped"),
    CortexReason.NOT_GATHERED: ("not gathered", "not among the 20 most recently accessed memories"),
    CortexReason.ARCHIVED: ("archived", "archived: Cortex reads `archived = 0` rows only"),
    CortexReason.FALLBACK_NO_MATCH: ("no match", "substring fallback: its text does not contain the focus"),
    CortexReason.FALLBACK_NOT_NEWEST: ("not newest", "substring fallback: not among the 100 newest memories"),
    CortexReason.FALLBACK_OVER_LIMIT: ("over 20", "substring fallback: matched after the first 20 matches"),
    CortexReason.DUPLICATE: ("duplicate", "an earlier candidate has the same id"),
    CortexReason.FAILED: ("failed", "the retrieval threw: the CLI printed only its error line"),
}

REASON_TEXT: dict[Enum, str] = {
    Reason.ALWAYS: "tier 1 is always included",
    Reason.CONSTITUTION_PATTERN: "ctx's constitution pattern only matches a one-line file",
    Reason.FITS: "fits under the tier cap",
    Reason.FORCED_FIRST: "first item forced in although over the cap",
    Reason.OVER_CAP: "does not fit: the fill stopped here",
    Reason.AFTER_MISFIT: "after the first misfit: the fill had stopped",
    Reason.BEYOND_SCAN_LIMIT: "past the first 1000 bullets ctx scans",
    Reason.NOT_REACHED: "an earlier tier used the whole budget",
    Reason.NO_SHARE: "its section got no share of the budget",
    Reason.FULL: "fits within 80% of the section share",
    Reason.OVER_FULL_LIMIT: "would pass 80% of the section share: title only",
    Reason.SUPERSEDED: "superseded: skipped",
    Reason.ARCHIVED: "archived memory: skipped",
    Reason.STEERING_DISABLED: "a steering file failed to parse: all steering is off",
    Reason.NOT_ALWAYS: "steering inclusion is not 'always'",
    Reason.EMPTY_BODY: "empty steering body",
    Reason.TEMPLATE_BODY: "untouched steering template",
    Reason.NO_STEERING_TIER: "ctx 0.8.0 has no steering tier: steering files never reach its packet",
    Reason.SKILL_TOO_BIG: "the skill goes in whole or not at all, and it does not fit what is left",
    **{reason: text for reason, (_, text) in CORTEX_REASONS.items()},
    # shabka context-pack
    ShabkaReason.PACKED: "packed: fits what is left of the budget",
    ShabkaReason.MISFIT: "stopped at the first misfit: it does not fit what is left",
    ShabkaReason.AFTER_MISFIT: "ranked below the first misfit: the pack had stopped",
    ShabkaReason.KIND: "filtered out by -k (kind)",
    ShabkaReason.TAG: "filtered out by -t (tags)",
    ShabkaReason.PROJECT: "filtered out by -p (project)",
    ShabkaReason.PRIVATE: "hidden by privacy: a private memory of another user",
    ShabkaReason.PENDING: "pending: Shabka's search leaves pending memories out",
    ShabkaReason.ORPHAN: "a stored vector without a memory row",
    ShabkaReason.OUTSIDE_KNN: f"not among the {KNN_SIZE} nearest vectors to the query",
    ShabkaReason.NO_EMBEDDING: "no stored vector: Shabka's search never sees it",
    ShabkaReason.OTHER_DIMS: "its vector has another dimension than the store's: skipped",
    ShabkaReason.NOT_SEARCHED: "the store is not 128-dimensional: the hash query finds nothing",
    ShabkaReason.UNREADABLE: "Shabka cannot read this row: the whole command fails",
    ShabkaReason.FAILED: "the command failed (exit 1): nothing is packed",
    # nous
    NousReason.FITS: "its whole line is within the section's budget",
    NousReason.CUT: "the section is cut mid-text inside its line",
    NousReason.AFTER_CUT: "its line starts after the section's mid-text cut",
    NousReason.BLOCK_FITS: "its block fits what is left of the procedure budget",
    NousReason.FIRST_BLOCK: "the first procedure block is always shown, even over the budget",
    NousReason.BLOCK_OVER: "its block does not fit what is left: nous stops adding blocks here",
    NousReason.AFTER_STOP: "after the block that did not fit: nous had stopped adding blocks",
    NousReason.NOT_BUDGETED: "Recent Conversations has no budget in nous: always shown",
    NousReason.SECTION_OFF: "its section's budget is 0 or the intent plan skips its type: no section",
    NousReason.ABANDONED: "an abandoned episode: nous counts it as rendered but prints nothing",
    NousReason.GATE: "dropped by a nous gate before the section was formatted",
}

REASON_SHORT: dict[Enum, str] = {
    Reason.ALWAYS: "always",
    Reason.CONSTITUTION_PATTERN: "pattern miss",
    Reason.FITS: "fits",
    Reason.FORCED_FIRST: "forced first",
    Reason.OVER_CAP: "over cap",
    Reason.AFTER_MISFIT: "after misfit",
    Reason.BEYOND_SCAN_LIMIT: "past scan limit",
    Reason.NOT_REACHED: "not reached",
    Reason.NO_SHARE: "no share",
    Reason.FULL: "full",
    Reason.OVER_FULL_LIMIT: "title only",
    Reason.SUPERSEDED: "superseded",
    Reason.ARCHIVED: "archived",
    Reason.STEERING_DISABLED: "steering off",
    Reason.NOT_ALWAYS: "not always",
    Reason.EMPTY_BODY: "empty body",
    Reason.TEMPLATE_BODY: "template",
    Reason.NO_STEERING_TIER: "no tier 6",
    Reason.SKILL_TOO_BIG: "too big",
    **{reason: short for reason, (short, _) in CORTEX_REASONS.items()},
    ShabkaReason.PACKED: "packed",
    ShabkaReason.MISFIT: "misfit",
    ShabkaReason.AFTER_MISFIT: "after misfit",
    ShabkaReason.KIND: "-k filter",
    ShabkaReason.TAG: "-t filter",
    ShabkaReason.PROJECT: "-p filter",
    ShabkaReason.PRIVATE: "private",
    ShabkaReason.PENDING: "pending",
    ShabkaReason.ORPHAN: "orphan vector",
    ShabkaReason.OUTSIDE_KNN: f"not in {KNN_SIZE} nearest",
    ShabkaReason.NO_EMBEDDING: "no vector",
    ShabkaReason.OTHER_DIMS: "other dims",
    ShabkaReason.NOT_SEARCHED: "not searched",
    ShabkaReason.UNREADABLE: "unreadable",
    ShabkaReason.FAILED: "failed",
    NousReason.FITS: "fits",
    NousReason.CUT: "cut mid-text",
    NousReason.AFTER_CUT: "after the cut",
    NousReason.BLOCK_FITS: "fits",
    NousReason.FIRST_BLOCK: "first block",
    NousReason.BLOCK_OVER: "over budget",
    NousReason.AFTER_STOP: "after stop",
    NousReason.NOT_BUDGETED: "not budgeted",
    NousReason.SECTION_OFF: "section off",
    NousReason.ABANDONED: "abandoned",
    NousReason.GATE: "gate",
}

# What each nous gate (retrieval_log disposition_stage) does, in words (context.py @47939528).
NOUS_GATES: dict[str, str] = {
    "diversity": "the diversity filter keeps at most 3 decisions per category, 2 facts per subject, "
    "2 episodes per first tag",
    "relevance_filter": "the adaptive relevance filter (min/max results per type, cut at a score gap) sliced it off",
    "recency_resolver": "the recency resolver found a newer fact on the same subject",
    "conversation_dedup": "it repeats what the recent conversation already says",
    "system_episode": "an internal/system episode (SYSTEM TASK, SYSTEM:, DO NOT USE TOOLS)",
    "temporal_tier_already_rendered": "already shown under Recent Conversations",
    "section_budget_truncation": "the section's token budget cut it (nous's 40-character probe did not find it)",
    "procedure_budget_accumulation": "the procedure budget was used up by earlier blocks",
    "procedure_score_floor": "its score is below the procedure score floor",
    "critic_track_overlap": "the critic track already carries this procedure",
    "embedding_slot_limit": "past the embedding slots",
    "total_slot_limit": "past the total procedure slots",
    "identity_overlap": "it overlaps the identity prompt",
    "kline_slot_limit": "past the K-line slots",
    "procedure_deleted": "the procedure was deleted",
    "procedure_fetch_failed": "fetching the procedure failed",
    "procedure_inactive": "the procedure is inactive",
}


def short_reason(reason: Enum) -> str:
    """A few words for the table's reason column."""
    return REASON_SHORT.get(reason, str(reason.value))


def _n(value: int) -> str:
    return f"{value:,}"


def reason_cell(outcome: Outcome) -> str:
    """The reason in a few words with its deciding numbers, e.g. "over cap 1,200+340>1,500".

    Only formatting: the sums are written out, never computed, so the cell
    shows exactly the numbers the packer compared.
    """
    reason, n = outcome.reason, outcome.numbers
    label = short_reason(reason)
    if isinstance(n, CortexNumbers):
        return _cortex_cell(reason, n, label)
    if isinstance(reason, ShabkaReason):
        return _shabka_cell(outcome, label)
    if isinstance(n, PrefixFit) and n.cap is not None and n.needs is not None:
        if reason in (Reason.FITS, Reason.OVER_CAP):
            sign = "≤" if reason is Reason.FITS else ">"
            return f"{label} {_n(n.used_before or 0)}+{_n(n.needs)}{sign}{_n(n.cap)}"
        if reason is Reason.FORCED_FIRST:
            return f"{label} {_n(n.needs)}>{_n(n.cap)}"
    if isinstance(n, SectionFit):
        if reason in (NousReason.FITS, NousReason.CUT, NousReason.AFTER_CUT) and n.kept is not None:
            return f"{label} at {_n(n.kept)} chars"
        if reason in (NousReason.BLOCK_FITS, NousReason.BLOCK_OVER) and n.needs is not None:
            sign = "≤" if reason is NousReason.BLOCK_FITS else ">"
            return f"{label} {_n(n.used_before or 0)}+{_n(n.needs)}{sign}{_n(n.budget)}"
    if reason is NousReason.GATE:
        stage = dict(outcome.entry.extra).get("stage")
        return f"{label}: {stage}" if stage else label
    if isinstance(n, ShareFit):
        if reason in (Reason.FULL, Reason.OVER_FULL_LIMIT) and n.full_limit is not None:
            sign = "≤" if reason is Reason.FULL else ">"
            return f"{label} {_n(n.used_before or 0)}+{_n(n.needs)}{sign}{_n(n.full_limit)}"
        if reason is Reason.NO_SHARE:
            return f"{label} ({_n(n.share)})"
    return label


def describe(outcome: Outcome) -> str:
    """The reason for a fate, with the numbers that decided it."""
    if isinstance(outcome.numbers, CortexNumbers):
        return describe_cortex(outcome)
    if isinstance(outcome.reason, NousReason):
        return describe_nous(outcome)
    n = outcome.numbers
    section = outcome.entry.section
    reason = outcome.reason
    if isinstance(reason, ShabkaReason):
        return _describe_shabka(outcome)
    if reason in (Reason.FITS, Reason.FORCED_FIRST, Reason.OVER_CAP, Reason.AFTER_MISFIT) and isinstance(n, PrefixFit):
        cap = n.cap or 0
        if n.pct is not None:
            head = (
                f"{section} cap {_n(cap)} (min of {round(n.pct * 100)}% of {_n(n.budget or 0)} = "
                f"{_n(n.pct_cap or 0)} and {_n(n.remaining or 0)} remaining)"
            )
        else:
            head = f"{section} cap {_n(cap)} (what was left after tiers 1-5)"
        used, needs = n.used_before or 0, n.needs or 0
        if reason is Reason.FITS:
            return f"{head}; {_n(used)} used before it; needs {_n(needs)} → {_n(used + needs)} ≤ {_n(cap)}: included"
        if reason is Reason.FORCED_FIRST:
            return (
                f"{head}; needs {_n(needs)}: nothing fits, so ctx forces the first one in "
                f"({_n(needs - cap)} over the cap)"
            )
        if reason is Reason.OVER_CAP:
            return (
                f"{head}; {_n(used)} used before it; needs {_n(needs)} → {_n(used + needs)} > {_n(cap)}: "
                "the fill stops here"
            )
        where = outcome.blocked_by.split(":", 1)[1] if outcome.blocked_by else "an earlier entry"
        return f"{head}; the fill stopped at {where} ({_n(used)} used), so later entries are not tried"
    if reason in (Reason.FULL, Reason.OVER_FULL_LIMIT) and isinstance(n, ShareFit):
        share, limit, used, needs = n.share, n.full_limit or 0, n.used_before or 0, n.needs
        head = (
            f"{section} share {_n(share)}; full-entry limit 80% = {_n(limit)}; {_n(used)} used before it; "
            f"needs {_n(needs)}"
        )
        if reason is Reason.FULL:
            return f"{head} → {_n(used + needs)} ≤ {_n(limit)}: included in full (rank {n.rank})"
        return (
            f"{head} → {_n(used + needs)} > {_n(limit)}: title only under Also Noted "
            f"(+{_n(n.title_tokens or 0)} tokens, charged after the budget)"
        )
    if reason is Reason.SKILL_TOO_BIG and isinstance(n, PrefixFit):
        return (
            f"the skill goes in whole or not at all: needs {_n(n.needs or 0)} tokens, "
            f"{_n(max(0, n.remaining or 0))} left after tiers 1-6"
        )
    if reason is Reason.FITS and outcome.tier == 7 and isinstance(n, PrefixFit):
        return f"the skill needs {_n(n.needs or 0)} tokens ≤ {_n(n.remaining or 0)} left after tiers 1-6: included"
    if reason is Reason.NOT_REACHED:
        return "an earlier tier used the whole budget: this tier was never filled"
    if reason is Reason.NO_SHARE:
        return f"the {section} share is {_n(n.share if isinstance(n, ShareFit) else 0)} tokens: nothing can go in"
    if reason is Reason.SUPERSEDED:
        return "marked ~~Superseded: score 0, skipped (its tokens still count in the split)"
    if reason is Reason.CONSTITUTION_PATTERN:
        rules = n.rules_in_file if isinstance(n, PatternMiss) else 0
        return (
            f"CONSTITUTION.md has {rules} rule{'' if rules == 1 else 's'}; ctx's single-line pattern "
            "only finds a rule when the whole file is one checkbox line, so none reach the packet"
        )
    if reason is Reason.BEYOND_SCAN_LIMIT:
        return "ctx looks at the first 1,000 bullets of CONVENTIONS.md only"
    if reason is Reason.ALWAYS:
        return "tier 1 content is always included"
    return REASON_TEXT.get(reason, str(reason.value))


# ---------------------------------------------------------------- shabka context-pack

_SIGNALS = (
    ("similarity", "0.25"),
    ("keyword", "0.15"),
    ("recency", "0.15"),
    ("importance", "0.15"),
    ("access", "0.10"),
    ("graph", "0.05"),
    ("trust", "0.15"),
)


def _g(value: float) -> str:
    """A Shabka number (an f32) as Rust prints it: the shortest digits that read back the same."""
    return rust_display(value)


def _shabka_cell(outcome: Outcome, label: str) -> str:
    n = outcome.numbers
    if isinstance(n, PrefixFit) and n.needs is not None and n.remaining is not None:
        if outcome.reason is ShabkaReason.PACKED:
            return f"{label} {_n(n.needs)}≤{_n(n.remaining)}"
        if outcome.reason is ShabkaReason.MISFIT:
            return f"{label} {_n(n.needs)}>{_n(n.remaining)}"
    return label


def describe_signals(extra: dict) -> str:
    """ "score 0.526 = 0.25×similarity 0.431 + …" from a ranked memory's signals."""
    if "score" not in extra:
        return ""
    parts = " + ".join(f"{weight}×{name} {_g(extra[name])}" for name, weight in _SIGNALS)
    return f"score {_g(extra['score'])} = {parts}"


def _describe_shabka(outcome: Outcome) -> str:
    reason, n = outcome.reason, outcome.numbers
    extra = dict(outcome.entry.extra)
    place = extra.get("knn_place")
    nearest = f" (#{place} of the {KNN_SIZE} nearest, distance {_g(extra['distance'])})" if place is not None else ""
    why = extra.get("why", "")
    if reason in (ShabkaReason.PACKED, ShabkaReason.MISFIT, ShabkaReason.AFTER_MISFIT) and isinstance(n, PrefixFit):
        needs, left, budget = n.needs or 0, n.remaining or 0, n.budget or 0
        rank = extra.get("rank")
        signals = describe_signals(extra)
        tail = f"; rank {rank}, {signals}" if signals else ""
        if reason is ShabkaReason.PACKED:
            return (
                f"packed: needs {_n(needs)} tokens, {_n(left)} left of {_n(budget)} "
                f"({_n(budget - left + needs)} used with it){tail}"
            )
        if reason is ShabkaReason.MISFIT:
            return (
                f"stopped at the first misfit: needs {_n(needs)} tokens, {_n(left)} left; Shabka's pack "
                f"stops here, so nothing ranked below it is tried{tail}"
            )
        blocker = outcome.blocked_by.split(":", 1)[1] if outcome.blocked_by else "an earlier memory"
        return (
            f"ranked below the first misfit ({blocker}): the pack had stopped there, so it was never tried "
            f"(needs {_n(needs)} tokens){tail}"
        )
    if reason is ShabkaReason.KIND:
        return f"filtered out by -k: {why}{nearest}"
    if reason is ShabkaReason.TAG:
        return f"filtered out by -t: {why}{nearest}"
    if reason is ShabkaReason.PROJECT:
        return f"filtered out by -p: {why}{nearest}"
    if reason is ShabkaReason.PRIVATE:
        return f"hidden by privacy: {why}{nearest}"
    if reason is ShabkaReason.PENDING:
        return (
            f"left out by Shabka's search query (status != 'pending'): {why}, yet it took a place among the "
            f"nearest{nearest}"
        )
    if reason is ShabkaReason.ORPHAN:
        return f"a stored vector whose memory row is gone: it took a place among the nearest{nearest}, then the join dropped it"
    if reason is ShabkaReason.OUTSIDE_KNN:
        return (
            f"not among the {KNN_SIZE} nearest stored vectors to the query: Shabka takes those {KNN_SIZE} "
            "before any filter, and looks no further"
        )
    if reason is ShabkaReason.NO_EMBEDDING:
        return "has no stored vector (no embeddings row): Shabka's search never sees it"
    if reason is ShabkaReason.OTHER_DIMS:
        return (
            f"its vector has {extra.get('dimensions')} dimensions, the store's most common is "
            f"{extra.get('store_dimensions')}: Shabka skips it when it rebuilds its vector index"
        )
    if reason is ShabkaReason.NOT_SEARCHED:
        return (
            f"this store's vectors are {extra.get('store_dimensions')}-dimensional, not the hash embedder's 128: "
            "Shabka's query finds nothing, and the provider that made them cannot be reproduced here"
        )
    if reason is ShabkaReason.UNREADABLE:
        return f"{why}: reading it fails the whole command (exit 1), so nothing is packed{nearest}"
    if reason is ShabkaReason.FAILED:
        failure = extra.get("failure", "Error")
        blame = outcome.blocked_by.split(":", 1)[1] if outcome.blocked_by else None
        return f"Shabka exits 1 before packing anything ({failure}" + (f", on {blame}" if blame else "") + ")"


def _nous_budget(n: SectionFit) -> str:
    """ "section 'facts' budget 3,750 tokens (1,500 ×2.5 for the model)", or its share of another total."""
    scaled = n.base is not None and n.factor not in (None, 1.0)
    own = f"{_n(n.base)} ×{n.factor:g} for the model" if scaled else ""
    if n.full is not None and n.full != n.budget:
        origin = f"{_n(n.full)} = {own}" if scaled else _n(n.full)
        return (
            f"section '{n.section}' budget {_n(n.budget)} tokens (its share of the total {_n(n.total or 0)}; "
            f"the turn's own is {origin})"
        )
    return f"section '{n.section}' budget {_n(n.budget)} tokens" + (f" ({own})" if own else "")


def describe_nous(outcome: Outcome) -> str:
    """A nous candidate's fate in words: its section's budget, where the cut fell, or the gate that dropped it."""
    reason, n = outcome.reason, outcome.numbers
    extra = dict(outcome.entry.extra)
    if reason is NousReason.GATE:
        stage = extra.get("stage") or "an unnamed stage"
        what = NOUS_GATES.get(str(stage), "")
        return (
            f"dropped by nous before the section was built: {extra.get('disposition')} at {stage}"
            + (f" ({what})" if what else "")
            + "; no budget brings it back"
        )
    if reason is NousReason.ABANDONED:
        return (
            "an abandoned episode: nous logs it as rendered, but _format_episodes prints nothing for it "
            "(context.py:2361-2362)"
        )
    if reason is NousReason.NOT_BUDGETED:
        return "Recent Conversations has no budget in nous (context.py:1466-1525): always shown"
    if not isinstance(n, SectionFit):
        return REASON_TEXT.get(reason, str(reason.value))
    if reason is NousReason.SECTION_OFF:
        return (
            f"section '{n.section}' budget is 0 at this budget (or the intent plan skips it): nous does not "
            "build the section"
        )
    head = _nous_budget(n)
    if reason in (NousReason.FITS, NousReason.CUT, NousReason.AFTER_CUT):
        start, end, text = n.start or 0, n.end or 0, n.text_chars or 0
        span = f"its line is characters {_n(start)}–{_n(end)} of {_n(text)}"
        if n.kept is None:
            return (
                f"{head} = {_n(n.max_chars or 0)} characters; the whole section ({_n(text)} characters) fits: included"
            )
        cut = f'{head}: cut mid-text after {_n(n.kept)} characters (then "...")'
        if reason is NousReason.FITS:
            return f"{cut}; {span}: all of it is before the cut"
        if reason is NousReason.CUT:
            return f"{cut}; {span}: {_n(n.kept - start)} of its {_n(end - start)} characters survive"
        return f"{cut}; {span}: it starts after the cut, not in the packet"
    used, needs = n.used_before or 0, n.needs or 0
    if reason is NousReason.FIRST_BLOCK:
        return (
            f"{head}; the first block is always shown (context.py:1215-1216): it needs {_n(needs)} tokens, "
            f"{_n(needs - n.budget)} over the budget"
        )
    if reason is NousReason.BLOCK_FITS:
        return f"{head}; {_n(used)} used before it + {_n(needs)} = {_n(used + needs)} ≤ {_n(n.budget)}: shown whole"
    if reason is NousReason.BLOCK_OVER:
        return (
            f"{head}; {_n(used)} used before it + {_n(needs)} = {_n(used + needs)} > {_n(n.budget)}: not shown, "
            "and nous stops adding blocks here"
        )
    if reason is NousReason.AFTER_STOP:
        return f"{head}; an earlier block did not fit and nous stops at the first misfit: not shown"
    return REASON_TEXT.get(reason, str(reason.value))


def describe_threshold(threshold: Threshold) -> str:
    """ "In full from 2,340; as a title from 1,900", or the ranges when not monotone."""

    def span(ranges: list[tuple[int, int | None]]) -> str:
        def one(lo: int, hi: int | None) -> str:
            if hi is None:
                return f"{_n(lo)}+"
            return _n(lo) if hi - 1 == lo else f"{_n(lo)}–{_n(hi - 1)}"

        return ", ".join(one(lo, hi) for lo, hi in ranges)

    if threshold.scanned_to is not None:
        limit = f" (budgets above {_n(threshold.scanned_to)} not examined: too many change points)"
        if threshold.any_at is None:
            return f"does not appear at any budget up to {_n(threshold.scanned_to)}" + limit
        ranges = span(threshold.full_ranges) or "never"
        return f"in full at {ranges}; at all at {span(threshold.any_ranges)}" + limit
    if threshold.any_at is None:
        return "never appears at any budget"
    if threshold.monotone:
        parts = []
        if threshold.full_at is not None:
            parts.append(f"in full from budget {_n(threshold.full_at)}")
        else:
            parts.append("never in full")
        if threshold.any_at != threshold.full_at:
            parts.append(f"at all (as a title) from {_n(threshold.any_at)}")
        return "; ".join(parts)
    full = span(threshold.full_ranges) or "never"
    return f"not monotone in the budget: in full at {full}; at all at {span(threshold.any_ranges)}"


# ---------------------------------------------------------------- Cortex


def _t(value: float | None) -> str:
    """A token count or budget: integers with separators, NaN and infinities as JavaScript prints them."""
    if value is None:
        return "?"
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return _n(int(value)) if float(value).is_integer() else f"{value:g}"


def _f(value: float | None) -> str:
    """A score or factor, to four significant digits (the JSON packet has every digit)."""
    if value is None:
        return "?"
    if value != value:
        return "NaN"
    return f"{value:.4g}"


def _cortex_cell(reason: Enum, n: CortexNumbers, label: str) -> str:
    if reason in (CortexReason.MISFIT,) and n.used_before is not None:
        return f"{label} {_t(n.used_before)}+{_t(n.summary_tokens)}>{_t(n.budget)}"
    if reason in (CortexReason.EXPANDED, CortexReason.EXPANDED_OVERRUN) and n.expand_cost is not None:
        return f"{label} +{_t(n.expand_cost)}≤{_t(n.leftover)}"
    if reason is CortexReason.EXPANSION_TOO_BIG and n.expand_cost is not None:
        return f"{label} +{_t(n.expand_cost)}>{_t(n.leftover)}"
    if reason in (CortexReason.NO_PASS_2, CortexReason.NOT_TOP_3, CortexReason.NOTHING_TO_EXPAND) and (
        n.used_before is not None
    ):
        return f"{label} {_t(n.used_before)}+{_t(n.summary_tokens)}≤{_t(n.budget)}"
    return label


def cortex_score_line(n: CortexNumbers) -> str:
    """How the score came about: the five factors, the cap, the intent weight, the diversity damping."""
    if n.score is None:
        return ""
    parts = (
        f"0.3×confidence {_f(n.confidence)} + 0.2×importance {_f(n.importance)} + 0.15×recency "
        f"{_f(n.recency)} ({_f(n.days_old)} days old) + 0.1×access {_f(n.access)} + 0.25×topic {_f(n.topic)}"
    )
    damping = (
        ""
        if not n.same_type_before
        else (
            f" × diversity 0.9^{n.same_type_before} = {_f(n.diversity)} ({n.same_type_before} of its type ranked above)"
        )
    )
    return (
        f"score {_f(n.score)} = min(1, {parts}) = {_f(n.base)} × intent weight {_f(n.intent_weight)}"
        f"{damping}; rank {n.rank} of {n.candidates} candidates"
    )


def describe_cortex(outcome: Outcome) -> str:
    """A Cortex outcome in words: the path, the score, and the pass that decided it, with its numbers."""
    n = outcome.numbers
    assert isinstance(n, CortexNumbers)
    reason = outcome.reason
    head = f"{CORTEX_PATH}: {cortex_score_line(n)}" if n.score is not None else CORTEX_PATH
    fit = ""
    if reason in (
        CortexReason.NO_PASS_2,
        CortexReason.NOT_TOP_3,
        CortexReason.EXPANSION_TOO_BIG,
        CortexReason.NOTHING_TO_EXPAND,
    ):
        before = n.used_before or 0
        fit = (
            f"pass 1 took its summary: {_t(before)} used before it + {_t(n.summary_tokens)} = "
            f"{_t(before + (n.summary_tokens or 0))} ≤ budget {_t(n.budget)}"
        )
        if reason is CortexReason.NO_PASS_2:
            fit += f"; no pass 2: leftover {_t(n.leftover)} ≤ 100"
        elif reason is CortexReason.NOT_TOP_3:
            fit += f"; pass 2 (leftover {_t(n.leftover)}) only tries the top 3, this is rank {n.rank}"
        elif reason is CortexReason.EXPANSION_TOO_BIG:
            fit += f"; not expanded in pass 2: expansion costs {_t(n.expand_cost)} > leftover {_t(n.leftover)}"
        else:
            fit += (
                f"; nothing to expand in pass 2: expanded {_t(n.expanded_tokens)} − summary "
                f"{_t(n.summary_tokens)} = {_t(n.expand_cost)} ≤ 0"
            )
    elif reason in (CortexReason.EXPANDED, CortexReason.EXPANDED_OVERRUN):
        fit = (
            f"expanded in pass 2: leftover {_t(n.leftover)} > 100, expansion costs {_t(n.expand_cost)} ≤ "
            f"{_t(n.leftover)} (the leftover is not reduced: Cortex's overrun quirk); charged "
            f"{_t(n.tokens)} tokens"
        )
        if reason is CortexReason.EXPANDED_OVERRUN:
            fit += (
                f"; running total {_t(n.used_after)} > budget {_t(n.budget)}: "
                f"{_t((n.used_after or 0) - (n.budget or 0))} over"
            )
    elif reason is CortexReason.MISFIT:
        fit = (
            f"pass 1 stopped at the first misfit: needs {_t(n.summary_tokens)} tokens, {_t(n.left)} left "
            f"({_t(n.used_before)} of budget {_t(n.budget)} used); smaller memories after it are never tried"
        )
    elif reason is CortexReason.NAN_TOKENS:
        fit = (
            "pass 1 stopped here: its summary is not text, so its token count is NaN and "
            "`used + NaN <= budget` is false"
        )
    elif reason is CortexReason.AFTER_MISFIT:
        where = outcome.blocked_by.split(":", 1)[1] if outcome.blocked_by else "an earlier memory"
        fit = f"pass 1 had stopped at {where}: later memories are never tried"
    elif reason is CortexReason.NOT_GATHERED:
        cutoff = f"; the 20th candidate's last_accessed is {n.cutoff}" if n.cutoff else ""
        accessed = n.last_accessed or "never (NULL, sorted last)"
        fit = (
            f"not a candidate: only the 20 most recently accessed active memories are gathered, whatever the "
            f"focus (last_accessed {accessed}{cutoff}; ties in rowid order)"
        )
    elif reason is CortexReason.ARCHIVED:
        fit = "not a candidate: archived (Cortex's query reads `archived = 0` rows only)"
    elif reason is CortexReason.FALLBACK_NO_MATCH:
        fit = (
            'substring fallback: its "summary type knowledge topic" text does not contain the focus (case-insensitive)'
        )
    elif reason is CortexReason.FALLBACK_NOT_NEWEST:
        fit = "substring fallback: only the 100 newest memories by created_at are searched"
    elif reason is CortexReason.FALLBACK_OVER_LIMIT:
        fit = "substring fallback: it matched, but only the first 20 matches are kept"
    elif reason is CortexReason.DUPLICATE:
        fit = "dropped when gathering: an earlier candidate has the same id"
    elif reason is CortexReason.FAILED:
        fit = f"the retrieval threw {n.error}: the CLI printed only that error line (exit status 0)"
    else:
        fit = REASON_TEXT.get(reason, str(reason.value))
    return f"{head}; {fit}" if head else fit
