"""What the reason texts of every packer share: how a count is written, and a threshold in words.

Kept apart from the packers' modules (and `__init__`, which joins them) so
that each of them can use it without importing another.
"""

from __future__ import annotations

from ctxtui.engine.explain.thresholds import Threshold


def num(value: int) -> str:
    """A count or budget as the explanations write it: 12,345."""
    return f"{value:,}"


def describe_threshold(threshold: Threshold) -> str:
    """ "in full from a budget of 2,340 tokens; summarized from 1,900 tokens", or the budgets when not monotone."""

    def span(ranges: list[tuple[int, int | None]]) -> str:
        def one(lo: int, hi: int | None) -> str:
            if hi is None:
                return f"{num(lo)}+"
            return num(lo) if hi - 1 == lo else f"{num(lo)}–{num(hi - 1)}"

        return ", ".join(one(lo, hi) for lo, hi in ranges)

    def full_at(ranges: list[tuple[int, int | None]], anywhere: str) -> str:
        return f"in full at {span(ranges)} tokens" if ranges else f"never in full {anywhere}"

    if threshold.scanned_to is not None:
        limit = f" (budgets above {num(threshold.scanned_to)} tokens not examined: too many change points)"
        if threshold.any_at is None:
            return f"not in the packet at any budget up to {num(threshold.scanned_to)} tokens" + limit
        up_to = f"up to {num(threshold.scanned_to)} tokens"
        return f"{full_at(threshold.full_ranges, up_to)}; in the packet at {span(threshold.any_ranges)}" + limit
    if threshold.any_at is None:
        return "not in the packet at any budget"
    if threshold.monotone:
        parts = []
        if threshold.full_at is not None:
            parts.append(f"in full from a budget of {num(threshold.full_at)} tokens")
        else:
            parts.append("never in full at any budget")
        if threshold.any_at != threshold.full_at:
            parts.append(f"summarized from {num(threshold.any_at)} tokens")
        return "; ".join(parts)
    return (
        f"not monotone in the budget: {full_at(threshold.full_ranges, 'at any budget')}; "
        f"in the packet at {span(threshold.any_ranges)} tokens"
    )
