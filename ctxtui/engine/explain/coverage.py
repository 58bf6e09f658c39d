"""Coverage: per section, how much is in at a budget, what never gets in full, and which budget buys what.

Answers "which budget should my agent get so the entries that matter are in
full?" exactly, from the budget stretches (the budgets between which no
fate changes): the count in full and at all per section is a step function
of the budget, so the budget for 50 %, 90 % and 100 % of what can ever be in
full, and the budget past which the packet stops changing, are read off it.
Entries never in full at any budget are listed with the reason in numbers
at the budget where everything has settled.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ctxtui.engine.explain.reasons import short_reason
from ctxtui.engine.explain.thresholds import ScanStopped, Stretch, budget_stretches
from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Outcome
from ctxtui.engine.packers.base import DROPPED, INCLUDED, Packer

SHARES = (0.5, 0.9, 1.0)


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """From `budget` on (to the next point), `full` entries of the section are in full and `shown` at all."""

    budget: int
    full: int
    shown: int


@dataclass(slots=True)
class SectionCoverage:
    """One section's coverage."""

    section: str
    total: int
    full_now: int = 0
    title_now: int = 0
    dropped_now: int = 0
    can_be_full: int = 0  # in full at some budget
    never_full: list[Outcome] = field(default_factory=list)  # their outcome where the packet has settled
    budget_for: dict[float, int | None] = field(default_factory=dict)  # share of can_be_full → smallest budget
    most_at_once: int = 0  # the most in full at any one budget
    curve: list[CurvePoint] = field(default_factory=list)

    def never_full_reasons(self) -> dict[str, int]:
        """How many never get in full, by short reason."""
        counts: dict[str, int] = {}
        for outcome in self.never_full:
            label = short_reason(outcome.reason)
            counts[label] = counts.get(label, 0) + 1
        return counts


@dataclass(slots=True)
class Coverage:
    """Every section's coverage at one budget, and where the packet stops changing."""

    budget: int
    sections: list[SectionCoverage]
    settles_at: int | None  # budgets from here on all give the same packet (None: the scan was cut)
    scanned_to: int | None = None  # set when the scan was cut short: budgets below this were examined


def coverage(
    packer: Packer, budget: int, *, max_seconds: float | None = None, should_stop: Callable[[], bool] | None = None
) -> Coverage:
    """Coverage of every section at `budget`, exact unless the scan is cut (then it says how far it looked)."""
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds

    def stop_now() -> bool:
        return bool((deadline is not None and time.perf_counter() > deadline) or (should_stop and should_stop()))

    stretches: list[Stretch] = []
    scanned_to = None
    try:
        budget_stretches(packer, 0, should_stop=stop_now, _into=stretches)
    except ScanStopped as stopped:
        scanned_to = stopped.args[0]
    entries = packer.candidates()
    by_section: dict[str, list[int]] = {}
    for index, entry in enumerate(entries):
        by_section.setdefault(entry.section, []).append(index)
    now = {o.entry.key: o.fate for o in packer.plan(budget).outcomes}
    last = stretches[-1] if stretches else None
    settled = {o.entry.key: o for o in last.plan.outcomes} if last is not None and last.plan is not None else {}
    sections = []
    for section, members in by_section.items():
        result = SectionCoverage(section, len(members))
        for i in members:
            fate = now.get(entries[i].key)
            if fate is Fate.INCLUDED:
                result.full_now += 1
            elif fate is Fate.SUMMARIZED:
                result.title_now += 1
            else:
                result.dropped_now += 1
        ever_full = bytearray(len(entries))
        for stretch in stretches:
            fates = stretch.fates
            full = sum(1 for i in members if fates[i] == INCLUDED)
            shown = sum(1 for i in members if fates[i] != DROPPED)
            if not result.curve or (result.curve[-1].full, result.curve[-1].shown) != (full, shown):
                result.curve.append(CurvePoint(stretch.start, full, shown))
            for i in members:
                if fates[i] == INCLUDED:
                    ever_full[i] = 1
        result.can_be_full = sum(ever_full[i] for i in members)
        result.most_at_once = max((p.full for p in result.curve), default=0)
        result.never_full = [settled[entries[i].key] for i in members if not ever_full[i] and entries[i].key in settled]
        for share in SHARES:
            need = math.ceil(share * result.can_be_full)
            result.budget_for[share] = (
                None if result.can_be_full == 0 else next((p.budget for p in result.curve if p.full >= need), None)
            )
        sections.append(result)
    settles_at = last.start if last is not None and scanned_to is None else None
    return Coverage(budget, sections, settles_at, scanned_to)


def never_full_summary(section: SectionCoverage) -> str:
    """ "25 never in full at any budget (23 summarized, 2 superseded)" in words, or "" when all can be."""
    if not section.never_full:
        return ""
    parts = ", ".join(f"{count} {label}" for label, count in section.never_full_reasons().items())
    return f"{len(section.never_full)} never in full at any budget ({parts})"
