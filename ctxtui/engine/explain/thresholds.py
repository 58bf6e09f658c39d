"""Thresholds: the budgets at which each entry appears in full, and at all, exactly.

Fates only change at budgets a packer can name (`Packer.next_change`), so
`budget_stretches` walks those budgets only, and every entry's smallest
budgets for "in full" and "at all" — and the ranges, where inclusion is not
monotone in the budget — come out of a few thousand plans. Works for every
packer through the interface; a packer without change points of its own is
examined budget by budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

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


def changed_between(old: bytearray, new: bytearray) -> list[int]:
    """The candidate indices whose fate differs between two fate vectors of equal length.

    A step between two stretches changes a few fates of 50,000: the vectors are
    compared a chunk at a time (C-level slices), and only the chunks that differ
    are looked at byte by byte.
    """
    changed: list[int] = []
    size = len(new)
    for low in range(0, size, _CHUNK):
        high = min(low + _CHUNK, size)
        if old[low:high] != new[low:high]:
            changed.extend(i for i in range(low, high) if old[i] != new[i])
    return changed


_CHUNK = 256


class Change(NamedTuple):
    """One stretch of a scan: from `start` every fate is `fates`; `changed` differ from the stretch before.

    `end` is the next stretch's start, None when nothing changes any more, and
    the budget the scan reached when it was cut. Only the newest vector is kept
    (thousands of 50,000-byte vectors cost gigabytes); `plan` is the plan at `start`.
    """

    start: int
    fates: bytearray
    changed: list[int]  # every index for the first stretch
    plan: Plan


def scan_changes(
    packer: Packer, start: int = 0, should_stop: Callable[[], bool] | None = None
) -> Iterator[tuple[Change, int | None]]:
    """Each stretch with its end, from `start` on, keeping one fate vector at a time.

    Raises `ScanStopped(budget)` when `should_stop` (polled before each plan)
    says so; the stretches yielded so far then end at that budget.
    """
    budget = start
    current: Change | None = None
    while True:
        # Polled before every plan: at 50,000 memories one plan can take 0.2 s (a new task count re-ranks them all).
        if should_stop is not None and current is not None and should_stop():
            yield current, budget
            raise ScanStopped(budget)
        plan = packer.plan(budget)
        fates = packer.fate_vector(plan)
        following = packer.next_change(plan)
        if current is None:
            current = Change(budget, fates, list(range(len(fates))), plan)
        elif current.fates != fates:
            yield current, budget
            current = Change(budget, fates, changed_between(current.fates, fates), plan)
        if following is None:
            yield current, None
            return
        budget = following


def thresholds(packer: Packer, start: int = 0, should_stop: Callable[[], bool] | None = None) -> dict[str, Threshold]:
    """For every entry, the smallest budgets for "in full" and "at all", and the ranges.

    Exact and complete unless `should_stop` (the caller's time bound, as
    `ctxtui.deadline.stop_after`: the engine reads no clock) cuts the scan (a
    workspace of 10,000 entries can have millions of change points): then each
    threshold says up to which budget it was examined (`scanned_to`). Ranges
    are kept per entry as fates change (only the changed entries are touched
    per stretch), so the work after the scan is one pass over the entries.
    """
    entries = packer.candidates()
    full_ranges: dict[int, list[tuple[int, int | None]]] = {}
    any_ranges: dict[int, list[tuple[int, int | None]]] = {}
    full_open: dict[int, int] = {}  # entry → start of its open "in full" range
    any_open: dict[int, int] = {}
    previous: bytearray | None = None
    scanned_to = None
    end: int | None = None
    try:
        for change, following in scan_changes(packer, start, should_stop=should_stop):
            end = following  # the last stretch's end closes the ranges still open
            fates, at = change.fates, change.start
            for n in change.changed:
                old = previous[n] if previous is not None else DROPPED
                new = fates[n]
                was_full, is_full = old == INCLUDED, new == INCLUDED
                if was_full != is_full:
                    if is_full:
                        full_open[n] = at
                    else:
                        full_ranges.setdefault(n, []).append((full_open.pop(n), at))
                was_any, is_any = previous is not None and old != DROPPED, new != DROPPED
                if was_any != is_any:
                    if is_any:
                        any_open[n] = at
                    else:
                        any_ranges.setdefault(n, []).append((any_open.pop(n), at))
            previous = fates
    except ScanStopped as stopped:
        scanned_to = stopped.args[0]
    for opened, closed in ((full_open, full_ranges), (any_open, any_ranges)):
        for n, at in opened.items():
            closed.setdefault(n, []).append((at, end))
    result = {}
    no_ranges: list[tuple[int, int | None]] = []
    for n, entry in enumerate(entries):
        full = full_ranges.get(n, no_ranges)
        shown = any_ranges.get(n, no_ranges)
        result[entry.key] = Threshold(
            entry,
            full_at=full[0][0] if full else None,
            any_at=shown[0][0] if shown else None,
            full_ranges=list(full),
            any_ranges=list(shown),
            scanned_to=scanned_to,
        )
    return result
