"""Cortex's reasons in words (its vector-less path): the five score factors, then the pass that decided.

Cortex here is always its vector-less path: the explanation says so, the
packet never does.
"""

from __future__ import annotations

from enum import Enum

from ctxtui.engine.explain.reasons.shared import num
from ctxtui.engine.model import Outcome
from ctxtui.engine.packers.cortex.outcomes import CortexNumbers, CortexReason

# (short label, sentence) per reason of the cortex packer.
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

CORTEX_TEXT: dict[Enum, str] = {reason: text for reason, (_, text) in CORTEX_REASONS.items()}
CORTEX_SHORT: dict[Enum, str] = {reason: short for reason, (short, _) in CORTEX_REASONS.items()}


def _t(value: float | None) -> str:
    """A token count or budget: integers with separators, NaN and infinities as JavaScript prints them."""
    if value is None:
        return "?"
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return num(int(value)) if float(value).is_integer() else f"{value:g}"


def _f(value: float | None) -> str:
    """A score or factor, to four significant digits (the JSON packet has every digit)."""
    if value is None:
        return "?"
    if value != value:
        return "NaN"
    return f"{value:.4g}"


def cortex_cell(reason: Enum, n: CortexNumbers, label: str) -> str:
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
        fit = CORTEX_TEXT.get(reason, str(reason.value))
    return f"{head}; {fit}" if head else fit
