"""nous's reasons in words: the section budgets, where the mid-text cut fell, the blocks, and the gates.

A nous turn is rebuilt from its log, so a candidate a gate dropped before
the sections were built stays dropped; `NOUS_GATES` says what each gate does.
"""

from __future__ import annotations

from enum import Enum

from ctxtui.engine.explain.reasons.shared import num
from ctxtui.engine.model import Outcome
from ctxtui.engine.packers.nous.fates import NousReason
from ctxtui.engine.reason_numbers import SectionFit

NOUS_TEXT: dict[Enum, str] = {
    NousReason.FITS: "its whole line is within the section's budget",
    NousReason.CUT: "the section is cut mid-text inside its line",
    NousReason.AFTER_CUT: "its line starts after the section's mid-text cut",
    NousReason.BLOCK_FITS: "its block fits what is left of the procedure budget",
    NousReason.FIRST_BLOCK: "the first procedure block is always shown, even over the budget",
    NousReason.BLOCK_OVER: "its block does not fit what is left: nous stops adding blocks here",
    NousReason.AFTER_STOP: "after the block that did not fit: nous had stopped adding blocks",
    NousReason.NOT_BUDGETED: "Recent Conversations has no budget in nous: always shown",
    NousReason.SECTION_OFF: "its section's budget is 0 or the intent plan skips its type: no section",
    NousReason.ABANDONED: "an abandoned episode: nous prints nothing for it (and logs it budget_truncated)",
    NousReason.POINTER: "named in the critic's one-line pointer to the Procedure Catalog",
    NousReason.CATALOG: "a passive procedure slot: nous does not search them when the Procedure Catalog renders",
    NousReason.GATE: "dropped by a nous gate before the section was formatted",
}

NOUS_SHORT: dict[Enum, str] = {
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
    NousReason.POINTER: "pointer",
    NousReason.CATALOG: "catalog on",
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


def nous_cell(outcome: Outcome, label: str) -> str | None:
    """The reason column for a nous outcome whose numbers say more than the label; None: the label alone."""
    reason, numbers = outcome.reason, outcome.numbers
    if isinstance(numbers, SectionFit):
        if reason in (NousReason.FITS, NousReason.CUT, NousReason.AFTER_CUT) and numbers.kept is not None:
            return f"{label} at {num(numbers.kept)} chars"
        if reason in (NousReason.BLOCK_FITS, NousReason.BLOCK_OVER) and numbers.needs is not None:
            sign = "≤" if reason is NousReason.BLOCK_FITS else ">"
            return f"{label} {num(numbers.used_before or 0)}+{num(numbers.needs)}{sign}{num(numbers.budget)}"
    if reason is NousReason.GATE:
        stage = dict(outcome.entry.extra).get("stage")
        return f"{label}: {stage}" if stage else label
    return None


def _nous_budget(n: SectionFit) -> str:
    """ "section 'facts' budget 3,750 tokens (1,500 ×2.5 for the model)", or its share of another total."""
    base, factor = n.base, n.factor
    scaled = base is not None and factor is not None and factor != 1.0
    own = f"{num(base)} ×{factor:g} for the model" if base is not None and factor is not None and scaled else ""
    if n.full is not None and n.full != n.budget:
        origin = f"{num(n.full)} = {own}" if scaled else num(n.full)
        return (
            f"section '{n.section}' budget {num(n.budget)} tokens (its share of the total {num(n.total or 0)}; "
            f"the turn's own is {origin})"
        )
    return f"section '{n.section}' budget {num(n.budget)} tokens" + (f" ({own})" if own else "")


def _mid_text(reason: Enum, n: SectionFit, head: str) -> str:
    start, end, text = n.start or 0, n.end or 0, n.text_chars or 0
    span = f"its line is characters {num(start)}–{num(end)} of {num(text)}"
    if n.kept is None:
        return f"{head} = {num(n.max_chars or 0)} characters; the whole section ({num(text)} characters) fits: included"
    cut = f'{head}: cut mid-text after {num(n.kept)} characters (then "...")'
    if reason is NousReason.FITS:
        return f"{cut}; {span}: all of it is before the cut"
    if reason is NousReason.CUT:
        return f"{cut}; {span}: {num(n.kept - start)} of its {num(end - start)} characters survive"
    return f"{cut}; {span}: it starts after the cut, not in the packet"


def _logged_note(reason: Enum, n: SectionFit, logged: str) -> str:
    """At the turn's own budget, where nous's log (its 40-character check, context.py:315-331) says otherwise."""
    if n.full is None or n.full != n.budget:
        return ""
    if reason is not NousReason.AFTER_CUT and logged == "budget_truncated":
        return "; nous logged it budget_truncated: its first 40 characters are not in the cut text"
    if reason is NousReason.AFTER_CUT and logged == "rendered":
        return "; nous logged it rendered: its content is empty, or its first 40 characters show elsewhere"
    return ""


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
            "an abandoned episode: _format_episodes prints nothing for it (context.py:2361-2362), so nous's "
            "40-character check logs it budget_truncated"
        )
    if reason is NousReason.POINTER:
        return (
            "a critic pick, named in the one line nous prints under Recommended Procedures when the Procedure "
            "Catalog rendered (context.py:1418-1442); the line is never cut, only switched off with a 0 budget"
        )
    if reason is NousReason.CATALOG:
        return (
            "a passive (embedding) procedure: nous skips those slots when the Procedure Catalog renders "
            "(NOUS_PROC_CATALOG_ENABLED); only the critic's picks are named"
        )
    if reason is NousReason.NOT_BUDGETED:
        return "Recent Conversations has no budget in nous (context.py:1466-1525): always shown"
    if not isinstance(n, SectionFit):
        return NOUS_TEXT.get(reason, str(reason.value))
    if reason is NousReason.SECTION_OFF:
        return (
            f"section '{n.section}' budget is 0 at this budget (or the intent plan skips it): nous does not "
            "build the section"
        )
    head = _nous_budget(n)
    if reason in (NousReason.FITS, NousReason.CUT, NousReason.AFTER_CUT):
        return _mid_text(reason, n, head) + _logged_note(reason, n, str(extra.get("disposition") or ""))
    used, needs = n.used_before or 0, n.needs or 0
    if reason is NousReason.FIRST_BLOCK:
        return (
            f"{head}; the first block is always shown (context.py:1215-1216): it needs {num(needs)} tokens, "
            f"{num(needs - n.budget)} over the budget"
        )
    if reason is NousReason.BLOCK_FITS:
        return f"{head}; {num(used)} used before it + {num(needs)} = {num(used + needs)} ≤ {num(n.budget)}: shown whole"
    if reason is NousReason.BLOCK_OVER:
        return (
            f"{head}; {num(used)} used before it + {num(needs)} = {num(used + needs)} > {num(n.budget)}: not shown, "
            "and nous stops adding blocks here"
        )
    if reason is NousReason.AFTER_STOP:
        return f"{head}; an earlier block did not fit and nous stops at the first misfit: not shown"
    return NOUS_TEXT.get(reason, str(reason.value))
