"""Cortex's token budget: summaries until the first misfit, then up to three expansions, with its overrun.

`TokenBudgetManager.fitToBudget` (`cortex/src/retrieval/budget.ts:22-71`),
on the ranked memories and `budget = context.maxTokens || 2000`
(engine.ts:141):

- pass 1 (28-46): each memory at its summary level while
  `used + summaryTokens <= budget`; the first that does not fit **stops the
  pass** — smaller ones after it are never tried. `compress()` runs on every
  memory the pass reaches, the misfit included, so one that cannot be
  compressed aborts the retrieval only if it is reached;
- pass 2 (48-68): if `leftover = budget - used > 100`, each of the top three
  is expanded when `0 < expandedTokens - summaryTokens <= leftover`.
  `leftover` is computed once and never reduced, so two or three expansions
  together can pass the budget — Cortex's overrun quirk;
- `tokensUsed` is the sum of the kept memories' tokens (engine.ts:146).

A plan is O(candidates) (at most 20); the budgets at which anything can
change are the pass-1 prefix sums and, above them, +101 and +each
expansion cost: `next_change` returns the first of those above a budget.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from ctxtui.engine.packers.cortex.compression import Compressed
from ctxtui.engine.text.js import JSError

DEFAULT_BUDGET = 2000
PASS2_MIN_LEFTOVER = 100
EXPAND_TOP = 3

SUMMARY, EXPANDED = "summary", "expanded"


class Fit(NamedTuple):
    """The two passes at one budget."""

    budget: float  # the budget used: maxTokens || 2000
    fitted: int  # memories taken in pass 1 (a prefix of the ranking)
    stopped_at: int | None  # index of the first misfit (None: every memory fitted)
    used_before: tuple[float, ...]  # pass-1 total before each reached memory (fitted + the misfit)
    pass1_used: float
    leftover: float  # budget - pass1_used, the one figure pass 2 compares with
    pass2: bool  # leftover > 100 and something fitted
    levels: tuple[str, ...]  # per fitted memory: "summary" or "expanded"
    tokens: tuple[float, ...]  # per fitted memory: what it is charged
    expand_costs: tuple[float, ...]  # per tried memory (top 3 when pass 2 ran): expanded - summary tokens
    running: tuple[float, ...]  # per tried memory: the usedTokens after its pass-2 step
    tokens_used: float  # the sum Cortex prints
    error: JSError | None = None  # compress() threw on a reached memory: the retrieval fails
    error_index: int | None = None


def effective_budget(max_tokens: float) -> float:
    """`context.maxTokens || 2000`: 0, -0 and NaN mean 2000; a negative budget stays (nothing fits)."""
    return max_tokens if (max_tokens == max_tokens and max_tokens != 0) else float(DEFAULT_BUDGET)


def fit(items: Sequence[Compressed], max_tokens: float) -> Fit:
    """fitToBudget over the ranked memories' compressions."""
    budget = effective_budget(max_tokens)
    used = 0.0
    used_before: list[float] = []
    tokens: list[float] = []
    stopped_at = None
    for index, item in enumerate(items):
        used_before.append(used)
        if item.error is not None:
            return Fit(
                budget,
                index,
                index,
                tuple(used_before),
                used,
                budget - used,
                False,
                (),
                (),
                (),
                (),
                0.0,
                item.error,
                index,
            )
        if used + item.summary_tokens <= budget:
            tokens.append(item.summary_tokens)
            used += item.summary_tokens
        else:
            stopped_at = index
            break
    fitted = len(tokens)
    pass1_used = used
    leftover = budget - used
    pass2 = leftover > PASS2_MIN_LEFTOVER and fitted > 0
    levels = [SUMMARY] * fitted
    costs: list[float] = []
    running: list[float] = []
    if pass2:
        for index in range(min(EXPAND_TOP, fitted)):
            cost = items[index].expanded_tokens - tokens[index]
            costs.append(cost)
            if cost <= leftover and cost > 0:
                levels[index] = EXPANDED
                tokens[index] = items[index].expanded_tokens
                used += cost
            running.append(used)
    total = 0.0
    for value in tokens:
        total += value
    return Fit(
        budget,
        fitted,
        stopped_at,
        tuple(used_before),
        pass1_used,
        leftover,
        pass2,
        tuple(levels),
        tuple(tokens),
        tuple(costs),
        tuple(running),
        total,
    )


def next_change(items: Sequence[Compressed], result: Fit, budget: int) -> int | None:
    """The smallest budget above `budget` at which this fit can differ; None: never again.

    Budget 0 means 2000 (the next budget, 1, is itself); a negative budget
    fits nothing until 0. Above that, the fit holds until the misfit fits
    (its prefix sum), pass 2 starts (pass-1 total + 101) or an expansion
    becomes affordable (pass-1 total + its cost).
    """
    if budget < 0:
        return 0
    if budget == 0:
        return 1
    if result.error is not None:
        return None  # the failing memory is reached at every larger budget too
    points: list[float] = []
    base = result.pass1_used
    if result.stopped_at is not None:
        points.append(base + items[result.stopped_at].summary_tokens)
    if result.fitted:
        points.append(base + PASS2_MIN_LEFTOVER + 1)
        for index in range(min(EXPAND_TOP, result.fitted)):
            cost = items[index].expanded_tokens - items[index].summary_tokens
            if cost > 0:
                points.append(base + cost)
    above = [c for c in (math.ceil(p) for p in points if p == p and not math.isinf(p)) if c > budget]
    return min(above) if above else None
