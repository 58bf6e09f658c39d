"""Thresholds: the budgets at which each entry appears in full, and at all, exactly.

Fates only change at budgets a packer can name (`Packer.next_change`), so
`budget_stretches` walks those budgets only, and every entry's smallest
budgets for "in full" and "at all" — and the ranges, where inclusion is not
monotone in the budget — come out of a few thousand plans. Works for every
packer through the interface; a packer without change points of its own is
examined budget by budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ctxtui.engine.model import Entry, Plan
from ctxtui.engine.packers.base import DROPPED, INCLUDED, Packer


@dataclass(slots=True)
class Stretch:
    """A run of budgets [start, end) over which every fate is the same (end None: forever)."""

    start: int
    end: int | None
    fates: bytearray
    plan: Plan | None  # kept for the last stretch only: at 10,000 entries every plan would cost gigabytes


class ScanStopped(Exception):
    """Raised inside the scan when the caller's `should_stop` says so."""


def budget_stretches(
    packer: Packer,
    start: int = 0,
    stop: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    _into: list[Stretch] | None = None,
) -> list[Stretch]:
    """Every budget stretch from `start` on (to `stop`, or until nothing changes).

    `should_stop` is polled every 64 plans; when it returns True the scan
    ends early and the last stretch's `end` is None-free: it is the budget the
    scan reached, so callers can tell a complete scan from a cut one.
    """
    stretches: list[Stretch] = [] if _into is None else _into
    budget = start
    planned = 0
    while True:
        planned += 1
        if should_stop is not None and planned % 64 == 0 and stretches and should_stop():
            stretches[-1].end = budget
            raise ScanStopped(budget)
        plan = packer.plan(budget)
        fates = packer.fate_vector(plan)
        following = packer.next_change(plan)
        if stretches and stretches[-1].fates == fates:
            stretches[-1].end = following
        else:
            if stretches:
                stretches[-1].end = budget
                stretches[-1].plan = None
            stretches.append(Stretch(budget, following, fates, plan))
        if following is None or (stop is not None and following > stop):
            return stretches
        budget = following


@dataclass(slots=True)
class Threshold:
    """The budgets at which one entry appears in full, and at all."""

    entry: Entry
    full_at: int | None
    any_at: int | None
    full_ranges: list[tuple[int, int | None]] = field(default_factory=list)
    any_ranges: list[tuple[int, int | None]] = field(default_factory=list)
    scanned_to: int | None = None  # None: every budget was examined; else budgets below this only

    @property
    def monotone(self) -> bool:
        """True when, once in, the entry stays in at every larger budget."""
        return (
            len(self.full_ranges) <= 1
            and len(self.any_ranges) <= 1
            and all(r[1] is None for r in (*self.full_ranges, *self.any_ranges))
        )


def thresholds(
    packer: Packer, start: int = 0, max_seconds: float | None = None, should_stop: Callable[[], bool] | None = None
) -> dict[str, Threshold]:
    """For every entry, the smallest budgets for "in full" and "at all", and the ranges.

    Exact and complete unless `max_seconds` or `should_stop` cut the scan (a
    workspace of 10,000 entries can have millions of change points): then each
    threshold says up to which budget it was examined (`scanned_to`).
    """
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds

    def stop_now() -> bool:
        return bool((deadline is not None and time.perf_counter() > deadline) or (should_stop and should_stop()))

    scanned_to = None
    collected: list[Stretch] = []
    try:
        collected = budget_stretches(packer, start, should_stop=stop_now, _into=collected)
    except ScanStopped as stopped:
        scanned_to = stopped.args[0]
    stretches = collected
    entries = packer.candidates()
    result = {}
    for n, entry in enumerate(entries):
        full_ranges = _ranges(stretches, n, lambda fate: fate == INCLUDED)
        any_ranges = _ranges(stretches, n, lambda fate: fate != DROPPED)
        result[entry.key] = Threshold(
            entry,
            full_at=full_ranges[0][0] if full_ranges else None,
            any_at=any_ranges[0][0] if any_ranges else None,
            full_ranges=full_ranges,
            any_ranges=any_ranges,
            scanned_to=scanned_to,
        )
    return result


def _ranges(stretches: list[Stretch], n: int, test: Callable[[int], bool]) -> list[tuple[int, int | None]]:
    """The budget ranges [start, end) over which entry `n`'s fate passes `test`, adjacent stretches joined."""
    starts: list[int] = []
    ends: list[int | None] = []
    for stretch in stretches:
        if test(stretch.fates[n]):
            if ends and ends[-1] == stretch.start:
                ends[-1] = stretch.end
            else:
                starts.append(stretch.start)
                ends.append(stretch.end)
    return list(zip(starts, ends, strict=True))
