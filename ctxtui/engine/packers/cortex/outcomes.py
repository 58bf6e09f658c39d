"""Why each memory got its fate in Cortex's packet: the reasons, and the numbers behind them.

Every outcome of the cortex packer carries a `CortexNumbers`: all five score
factors, the intent weight, the diversity multiplier, the final score and
rank, and the budget arithmetic of whichever pass decided it. The words for
each reason live in `engine.explain.reasons`.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class CortexReason(str, Enum):
    """Why a memory is in `drift memory why`'s answer, or not."""

    # pass 1 took it at summary level, and pass 2 …
    NO_PASS_2 = "no-pass-2"  # … did not run: leftover ≤ 100
    NOT_TOP_3 = "not-top-3"  # … only tries the top three
    EXPANSION_TOO_BIG = "expansion-too-big"  # … found the expansion dearer than the leftover
    NOTHING_TO_EXPAND = "nothing-to-expand"  # … found the expanded text no longer than the summary
    EXPANDED = "expanded"  # pass 2 expanded it
    EXPANDED_OVERRUN = "expanded-overrun"  # expanded, and the running total passed the budget (the quirk)
    MISFIT = "misfit"  # pass 1 stopped here: its summary does not fit what is left
    NAN_TOKENS = "nan-tokens"  # its summary has no length: `used + NaN <= budget` is false, pass 1 stops
    AFTER_MISFIT = "after-misfit"  # ranked after the first misfit: never tried
    NOT_GATHERED = "not-gathered"  # active, but not among the 20 most recently accessed
    ARCHIVED = "archived"  # archived is not 0: the query skips it
    FALLBACK_NO_MATCH = "fallback-no-match"  # substring fallback: its text does not contain the focus
    FALLBACK_NOT_NEWEST = "fallback-not-newest"  # substring fallback: not among the 100 newest by created_at
    FALLBACK_OVER_LIMIT = "fallback-over-limit"  # substring fallback: matched, after the first 20 matches
    DUPLICATE = "duplicate"  # an earlier candidate had the same id
    FAILED = "failed"  # the retrieval threw: the CLI printed only an error line


class CortexNumbers(NamedTuple):
    """The numbers behind a Cortex outcome; fields a reason does not use stay None."""

    rank: int | None = None  # 1-based position after ranking
    candidates: int | None = None  # totalCandidates
    confidence: float | None = None  # the five factors (scoring.ts:18-37)
    importance: float | None = None
    recency: float | None = None
    access: float | None = None
    topic: float | None = None
    days_old: float | None = None
    base: float | None = None  # the factors' sum, capped at 1
    intent_weight: float | None = None
    weighted: float | None = None  # base × intent weight
    same_type_before: int | None = None
    diversity: float | None = None  # 0.9 ** same_type_before
    score: float | None = None  # relevanceScore as printed
    summary_tokens: float | None = None
    expanded_tokens: float | None = None
    tokens: float | None = None  # what it is charged in the packet
    budget: float | None = None  # the budget used (maxTokens || 2000)
    used_before: float | None = None  # pass 1: tokens taken before it
    left: float | None = None  # pass 1: budget - used_before
    leftover: float | None = None  # pass 2: budget - pass-1 total (never reduced)
    expand_cost: float | None = None  # pass 2: expanded - summary tokens
    used_after: float | None = None  # pass 2: the running total after its step
    error: str | None = None  # the retrieval's error, as the CLI prints it
    last_accessed: str | None = None  # for memories that were not gathered
    cutoff: str | None = None  # the 20th candidate's last_accessed (or created_at on the fallback)


# The table's columns (`explain.components.CORTEX`) → the `CortexNumbers` field each reads.
COMPONENT_FIELDS = {
    "confidence": "confidence",
    "importance": "importance",
    "recency": "recency",
    "access": "access",
    "topic": "topic",
    "intent": "intent_weight",
    "diversity": "diversity",
    "score": "score",
}
