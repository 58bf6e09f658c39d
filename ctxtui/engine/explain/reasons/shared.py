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
    """ "In full from 2,340; as a title from 1,900", or the ranges when not monotone."""

    def span(ranges: list[tuple[int, int | None]]) -> str:
        def one(lo: int, hi: int | None) -> str:
            if hi is None:
                return f"{num(lo)}+"
            return num(lo) if hi - 1 == lo else f"{num(lo)}–{num(hi - 1)}"

        return ", ".join(one(lo, hi) for lo, hi in ranges)

    if threshold.scanned_to is not None:
        limit = f" (budgets above {num(threshold.scanned_to)} not examined: too many change points)"
        if threshold.any_at is None:
            return f"does not appear at any budget up to {num(threshold.scanned_to)}" + limit
        ranges = span(threshold.full_ranges) or "never"
        return f"in full at {ranges}; at all at {span(threshold.any_ranges)}" + limit
    if threshold.any_at is None:
        return "never appears at any budget"
    if threshold.monotone:
        parts = []
        if threshold.full_at is not None:
            parts.append(f"in full from budget {num(threshold.full_at)}")
        else:
            parts.append("never in full")
        if threshold.any_at != threshold.full_at:
            parts.append(f"at all (as a title) from {num(threshold.any_at)}")
        return "; ".join(parts)
    full = span(threshold.full_ranges) or "never"
    return f"not monotone in the budget: in full at {full}; at all at {span(threshold.any_ranges)}"
