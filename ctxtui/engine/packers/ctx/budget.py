"""ctx's budget arithmetic: caps, the stop-at-first-misfit fill, the split and the full-entry limit.

These are the few formulas every ctx packet, threshold and sweep depends on,
kept in one place and written to give Go's exact integer and float results:
Go's `int` is int64 and wraps on overflow, and converting a float that is
NaN or out of range gives MinInt64 on amd64 (`budget.go:53-60,81`,
`assemble.go:73,86`) — visible only at budgets beyond about 10^17 or with a
`.ctxrc` percentage of `.nan`, but then exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine.text.go import go_div
from ctxtui.engine.text.go_strconv import f2i, i64

if TYPE_CHECKING:
    from collections.abc import Sequence

FULL_ENTRY_PCT = 80  # a scored section includes whole entries up to 80% of its share
SPLIT_MIN_PCT = 30  # each scored section is guaranteed 30% of what is left
DEFAULT_TASK_PCT = 0.40
DEFAULT_CONVENTION_PCT = 0.20


def pct_cap(budget: int, pct: float) -> int:
    """int(float64(budget) * pct): toward zero; NaN or out of range → MinInt64, as on amd64."""
    return f2i(float(budget) * pct)


def fit_prefix(cumulative: Sequence[int], cap: int) -> tuple[int, bool]:
    """How many items fit in `cap` taking them in order and stopping at the first misfit.

    `cumulative[i]` is the cost of the first i items (cumulative[0] == 0). When
    items exist but none fits, ctx forces the first one in; the second value
    says whether that happened.
    """
    # bisect_right(cumulative, cap) - 1, searched here: importing `bisect` loads an extension module
    # (~0.1 ms of a cold `pack`), for a search of a few steps.
    low, high = 0, len(cumulative)
    while low < high:
        middle = (low + high) // 2
        if cap < cumulative[middle]:
            high = middle
        else:
            low = middle + 1
    count = low - 1
    if count <= 0 and len(cumulative) > 1:
        return 1, True
    return max(count, 0), False


def split_shares(remaining: int, sizes: Sequence[int], present: Sequence[bool]) -> list[int]:
    """Divide `remaining` between scored sections, generalising ctx's Split.

    With two sections this is exactly ctx's Split: both absent → nothing; one
    absent → all to the other; empty content → halves; everything fits → each
    gets its size; else each gets a 30% floor and the rest in proportion to size,
    the last section taking what rounding leaves. With three sections the floors
    are 30% each of the same total and the proportional pool is what is left.
    """
    live = [i for i, here in enumerate(present) if here]
    shares = [0] * len(sizes)
    if not live:
        return shares
    if len(live) == 1:
        shares[live[0]] = remaining
        return shares
    total_content = sum(sizes[i] for i in live)
    if total_content == 0:
        each = go_div(remaining, len(live))
        for i in live[:-1]:
            shares[i] = each
        shares[live[-1]] = i64(remaining - each * (len(live) - 1))
        return shares
    if total_content <= remaining:
        for i in live:
            shares[i] = sizes[i]
        return shares
    floor = go_div(i64(remaining * SPLIT_MIN_PCT), 100)
    flex = remaining
    for _ in live:
        flex = i64(flex - floor)
    given = 0
    for i in live[:-1]:
        proportion = float(sizes[i]) / float(total_content)
        shares[i] = i64(floor + f2i(float(flex) * proportion))
        given = i64(given + shares[i])
    shares[live[-1]] = i64(remaining - given)
    return shares


def full_limit(share: int) -> int:
    """budget * FullEntryPct / 100 with Go's int64 product and truncating division."""
    return go_div(i64(share * FULL_ENTRY_PCT), 100)
