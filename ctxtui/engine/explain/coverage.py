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
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field

from ctxtui.engine.explain.reasons import short_reason
from ctxtui.engine.explain.thresholds import Change, ScanStopped, scan_changes
from ctxtui.engine.model import Outcome
from ctxtui.engine.packers.base import DROPPED, INCLUDED, SUMMARIZED, Packer

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


def coverage(packer: Packer, budget: int, *, should_stop: Callable[[], bool] | None = None) -> Coverage:
    """Coverage of every section at `budget`, exact unless `should_stop` cuts the scan (then it says how far it looked).

    The engine reads no clock: a time bound is the caller's `should_stop`
    (`ctxtui.deadline.stop_after`).

    The per-section counts follow the scan: each stretch touches only the
    entries whose fate changed (`thresholds.scan_changes`), so 50,000
    memories cost one pass over the entries, not one per stretch.
    """
    entries = packer.candidates()
    names: list[str] = []
    section_of = array("i", bytes(4 * len(entries)))
    places: dict[str, int] = {}
    for index, entry in enumerate(entries):
        place = places.get(entry.section)
        if place is None:
            place = places[entry.section] = len(names)
            names.append(entry.section)
        section_of[index] = place
    results = [SectionCoverage(name, 0) for name in names]
    for place in section_of:
        results[place].total += 1
    for fate, place in zip(packer.fate_vector(packer.plan(budget)), section_of, strict=True):
        result = results[place]
        if fate == INCLUDED:
            result.full_now += 1
        elif fate == SUMMARIZED:
            result.title_now += 1
        else:
            result.dropped_now += 1
    full = [0] * len(names)
    shown = [0] * len(names)
    ever_full = bytearray(len(entries))
    previous: bytearray | None = None
    last: Change | None = None
    scanned_to = None
    try:
        for change, _end in scan_changes(packer, 0, should_stop=should_stop):
            fates, touched = change.fates, set()
            for n in change.changed:
                old = previous[n] if previous is not None else DROPPED
                new = fates[n]
                place = section_of[n]
                full[place] += (new == INCLUDED) - (old == INCLUDED)
                shown[place] += (new != DROPPED) - (old != DROPPED)
                if new == INCLUDED:
                    ever_full[n] = 1
                touched.add(place)
            for place in sorted(touched) if previous is not None else range(len(names)):
                curve = results[place].curve
                if not curve or (curve[-1].full, curve[-1].shown) != (full[place], shown[place]):
                    curve.append(CurvePoint(change.start, full[place], shown[place]))
            previous, last = fates, change
    except ScanStopped as stopped:
        scanned_to = stopped.args[0]
    for result in results:
        result.most_at_once = max((p.full for p in result.curve), default=0)
    never: list[int] = []
    for n, place in enumerate(section_of):
        if ever_full[n]:
            results[place].can_be_full += 1
        else:
            never.append(n)
    if last is not None:
        # Their outcome where the packet has settled (or where the scan stopped): one by one when they are
        # few, else all at once (50,000 single outcomes cost ~4 s, the plan's outcomes ~0.3 s).
        plan = last.plan
        if len(never) < 1000:
            for n in never:
                results[section_of[n]].never_full.append(plan.outcome_at(n))
        else:
            outcomes, at = plan.outcomes, plan.places
            for n in never:
                results[section_of[n]].never_full.append(outcomes[at[n]])
    for result in results:
        for share in SHARES:
            need = math.ceil(share * result.can_be_full)
            result.budget_for[share] = (
                None if result.can_be_full == 0 else next((p.budget for p in result.curve if p.full >= need), None)
            )
    settles_at = last.start if last is not None and scanned_to is None else None
    return Coverage(budget, results, settles_at, scanned_to)


def never_full_summary(section: SectionCoverage) -> str:
    """ "25 never in full at any budget (23 summarized, 2 superseded)" in words, or "" when all can be."""
    if not section.never_full:
        return ""
    parts = ", ".join(f"{count} {label}" for label, count in section.never_full_reasons().items())
    return f"{len(section.never_full)} never in full at any budget ({parts})"
