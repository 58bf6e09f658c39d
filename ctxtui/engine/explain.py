"""Explanations: reasons in words and numbers, thresholds and budget sweeps.

Thresholds are exact. Fates change only at a few budgets, and each can be
computed from the current plan (the next task that would fit, the next entry
whose cost would pass 80% of its share, the switch of the split to "everything
fits"...). `budget_stretches` walks those budgets only, so every entry's
smallest budgets for "in full" and "at all", including the ranges where
inclusion is not monotone, come out of a few hundred assemblies.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ctxtui.engine.assemble import Engine, Plan
from ctxtui.engine.budget import full_limit, pct_cap, split_shares
from ctxtui.engine.model import REASON_TEXT, Entry, Outcome, Reason

DROPPED, SUMMARIZED, INCLUDED = 0, 1, 2


def _n(value: int) -> str:
    return f"{value:,}"


def describe_outcome(outcome: Outcome) -> str:
    """The reason for a fate, with the numbers that decided it."""
    n = outcome.numbers
    section = outcome.entry.section
    reason = outcome.reason
    if reason in (Reason.FITS, Reason.FORCED_FIRST, Reason.OVER_CAP, Reason.AFTER_MISFIT):
        cap = n.get("cap", 0)
        if "pct" in n:
            head = (f"{section} cap {_n(cap)} (min of {round(n['pct'] * 100)}% of {_n(n['budget'])} = "
                    f"{_n(n['pct_cap'])} and {_n(n['remaining'])} remaining)")
        else:
            head = f"{section} cap {_n(cap)} (what was left after tiers 1-5)"
        used, needs = n.get("used_before", 0), n.get("needs", 0)
        if reason is Reason.FITS:
            return f"{head}; {_n(used)} used before it; needs {_n(needs)} → {_n(used + needs)} ≤ {_n(cap)}: included"
        if reason is Reason.FORCED_FIRST:
            return (f"{head}; needs {_n(needs)}: nothing fits, so ctx forces the first one in "
                    f"({_n(needs - cap)} over the cap)")
        if reason is Reason.OVER_CAP:
            return (f"{head}; {_n(used)} used before it; needs {_n(needs)} → {_n(used + needs)} > {_n(cap)}: "
                    "the fill stops here")
        where = outcome.blocked_by.split(":", 1)[1] if outcome.blocked_by else "an earlier entry"
        return f"{head}; the fill stopped at {where} ({_n(used)} used), so later entries are not tried"
    if reason in (Reason.FULL, Reason.OVER_FULL_LIMIT):
        share, limit, used, needs = n["share"], n["full_limit"], n["used_before"], n["needs"]
        head = f"{section} share {_n(share)}; full-entry limit 80% = {_n(limit)}; {_n(used)} used before it; needs {_n(needs)}"
        if reason is Reason.FULL:
            return f"{head} → {_n(used + needs)} ≤ {_n(limit)}: included in full (rank {n['rank']})"
        return (f"{head} → {_n(used + needs)} > {_n(limit)}: title only under Also Noted "
                f"(+{_n(n['title_tokens'])} tokens, charged after the budget)")
    if reason is Reason.NOT_REACHED:
        return "an earlier tier used the whole budget: this tier was never filled"
    if reason is Reason.NO_SHARE:
        return f"the {section} share is {_n(n.get('share', 0))} tokens: nothing can go in"
    if reason is Reason.SUPERSEDED:
        return "marked ~~Superseded: score 0, skipped (its tokens still count in the split)"
    if reason is Reason.CONSTITUTION_PATTERN:
        rules = n.get("rules_in_file", 0)
        return (f"CONSTITUTION.md has {rules} rule{'' if rules == 1 else 's'}; ctx's single-line pattern "
                "only finds a rule when the whole file is one checkbox line, so none reach the packet")
    if reason is Reason.BEYOND_SCAN_LIMIT:
        return "ctx looks at the first 1,000 bullets of CONVENTIONS.md only"
    if reason is Reason.ALWAYS:
        return "tier 1 content is always included"
    return REASON_TEXT[reason]


# -- fate vectors -------------------------------------------------------------


class FateIndex:
    """A fixed order of all candidates, so a plan becomes a compact fate vector."""

    def __init__(self, engine: Engine):
        parsed = engine.parsed
        self.engine = engine
        self.entries: list[Entry] = [
            *parsed.constitution_candidates,
            *engine.tasks,
            *engine.conventions,
            *parsed.conventions_skipped,
            *engine.scored,
            *engine.steering,
            *(e for e in parsed.steering if parsed.steering_fates[e.key] != "always"),
        ]
        self.task_start = len(parsed.constitution_candidates)
        self.convention_start = self.task_start + len(engine.tasks)
        self.scored_start = self.convention_start + len(engine.conventions) + len(parsed.conventions_skipped)
        self.steering_start = self.scored_start + len(engine.scored)
        self.constitution_fate = INCLUDED if engine.constitution else DROPPED

    def vector(self, plan: Plan) -> bytearray:
        fates = bytearray(len(self.entries))
        if self.constitution_fate == INCLUDED:
            fates[: self.task_start] = bytes([INCLUDED]) * self.task_start
        fates[self.task_start : self.task_start + plan.task_count] = bytes([INCLUDED]) * plan.task_count
        c = self.convention_start
        fates[c : c + plan.convention_count] = bytes([INCLUDED]) * plan.convention_count
        scored = self.engine.scored
        s = self.scored_start
        for fill in plan.sections:
            for i, full in zip(fill.order, fill.full):
                if full:
                    fates[s + i] = INCLUDED
                elif not scored[i].superseded:
                    fates[s + i] = SUMMARIZED
        t = self.steering_start
        fates[t : t + plan.steering_count] = bytes([INCLUDED]) * plan.steering_count
        return fates


# -- where fates can change ---------------------------------------------------


def _min_budget_for_pct(need: int, pct: float) -> int | None:
    """Smallest B with int(float(B) * pct) >= need; None when no budget reaches it."""
    if need <= 0:
        return 0
    if pct <= 0:
        return None
    guess = int(need / pct)
    low = max(0, guess - 2)
    while pct_cap(low, pct) >= need and low > 0:
        low = max(0, low - 4)
    while pct_cap(low, pct) < need:
        low += 1
    return low


def next_change(engine: Engine, plan: Plan) -> int | None:
    """The smallest budget above plan.budget at which any fate might change.

    A safe lower bound: fates stay as they are on [plan.budget, result).
    None when nothing can change any more.
    """
    b = plan.budget
    t1 = engine.tier1
    candidates: list[int] = []
    if plan.stopped_after == 1:
        return max(b + 1, t1 + 1)

    def prefix_candidate(cum: list[int], count: int, pct: float, offset: int) -> None:
        if count < len(cum) - 1:
            need = cum[count + 1]
            by_pct = _min_budget_for_pct(need, pct)
            if by_pct is not None:
                candidates.append(max(by_pct, need + offset))

    policy = engine.policy
    prefix_candidate(engine.task_cum, plan.task_count, policy.task_pct, t1)
    if plan.stopped_after == 2:
        candidates.append(t1 + plan.task_tokens + 1)
        return _first_above(b, candidates)
    prefix_candidate(engine.convention_cum, plan.convention_count, policy.convention_pct, t1 + plan.task_tokens)
    fixed = t1 + plan.task_tokens + plan.convention_tokens
    if plan.stopped_after == 3:
        candidates.append(fixed + 1)
        return _first_above(b, candidates)

    scored_candidate = _scored_change(engine, plan)
    if scored_candidate is not None:
        candidates.append(fixed + scored_candidate)

    if engine.steering:
        used = plan.budget - plan.remaining_before_steering
        if plan.remaining_before_steering <= 0:
            candidates.append(used + 1)
        elif plan.steering_count < len(engine.steering):
            candidates.append(used + engine.steering_cum[plan.steering_count + 1])
    return _first_above(b, candidates)


def _first_above(budget: int, candidates: list[int]) -> int | None:
    above = [c for c in candidates if c > budget]
    return min(above) if above else None


def _scored_change(engine: Engine, plan: Plan) -> int | None:
    """The smallest `remaining` above the current one at which a scored fill changes."""
    remaining = plan.remaining_before_scored
    sizes, present = engine.section_sizes, engine.section_present
    live = sum(present)
    if live == 0:
        return None
    total = sum(sizes)
    if live > 1 and remaining >= total:
        return None  # shares are the content sizes from here on: fills are final
    tokens = [e.tokens for e in engine.scored]
    targets: list[int | None] = []  # per section: full limit that changes the fill (0: share > 0)
    for fill in plan.sections:
        if fill.share <= 0:
            targets.append(0 if engine.section_members[fill.name] else None)
            continue
        best = None
        for pos, i in enumerate(fill.order):
            if not fill.full[pos] and not engine.scored[i].superseded:
                need = fill.used_before[pos] + tokens[i]
                best = need if best is None or need < best else best
        targets.append(best)

    def changed(rem: int) -> bool:
        if live > 1 and rem >= total:
            return True
        for share, target in zip(split_shares(rem, sizes, present), targets):
            if target is None:
                continue
            if target == 0 and share > 0:
                return True
            if target > 0 and full_limit(share) >= target:
                return True
        return False

    if all(t is None for t in targets):
        return total if live > 1 else None
    high = total if live > 1 else remaining + 1
    while not changed(high):
        high = high * 2 + 1
    low = remaining  # changed(low) is False by construction
    while high - low > 1:
        mid = (low + high) // 2
        if changed(mid):
            high = mid
        else:
            low = mid
    return high


@dataclass(slots=True)
class Stretch:
    """A run of budgets [start, end) over which every fate is the same (end None: forever)."""

    start: int
    end: int | None
    fates: bytearray
    plan: Plan


class ScanStopped(Exception):
    """Raised inside the scan when the caller's `should_stop` says so."""


def budget_stretches(engine: Engine, start: int = 0, stop: int | None = None,
                     should_stop: Callable[[], bool] | None = None, _into: list[Stretch] | None = None) -> list[Stretch]:
    """Every budget stretch from `start` on (to `stop`, or until nothing changes).

    `should_stop` is polled every 64 stretches; when it returns True the scan
    ends early and the last stretch's `end` is None-free: it is the budget the
    scan reached, so callers can tell a complete scan from a cut one.
    """
    stretches: list[Stretch] = [] if _into is None else _into
    index = FateIndex(engine)
    budget = start
    while True:
        if should_stop is not None and len(stretches) % 64 == 63 and should_stop():
            stretches[-1].end = budget
            raise ScanStopped(budget)
        plan = engine.plan(budget)
        fates = index.vector(plan)
        following = next_change(engine, plan)
        if stretches and stretches[-1].fates == fates:
            stretches[-1].end = following
        else:
            if stretches:
                stretches[-1].end = budget
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
        return len(self.full_ranges) <= 1 and len(self.any_ranges) <= 1 and all(
            r[1] is None for r in (*self.full_ranges, *self.any_ranges)
        )


def thresholds(engine: Engine, start: int = 0, max_seconds: float | None = None,
               should_stop: Callable[[], bool] | None = None) -> dict[str, Threshold]:
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
        collected = budget_stretches(engine, start, should_stop=stop_now, _into=collected)
    except ScanStopped as stopped:
        scanned_to = stopped.args[0]
    stretches = collected
    entries = FateIndex(engine).entries
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


def _ranges(stretches: list[Stretch], n: int, test) -> list[tuple[int, int | None]]:
    ranges: list[list] = []
    for stretch in stretches:
        if test(stretch.fates[n]):
            if ranges and ranges[-1][1] == stretch.start:
                ranges[-1][1] = stretch.end
            else:
                ranges.append([stretch.start, stretch.end])
    return [(lo, hi) for lo, hi in ranges]


def describe_threshold(threshold: Threshold) -> str:
    """"In full from 2,340; as a title from 1,900", or the ranges when not monotone."""

    def span(ranges: list[tuple[int, int | None]]) -> str:
        def one(lo: int, hi: int | None) -> str:
            if hi is None:
                return f"{_n(lo)}+"
            return _n(lo) if hi - 1 == lo else f"{_n(lo)}–{_n(hi - 1)}"

        return ", ".join(one(lo, hi) for lo, hi in ranges)

    if threshold.scanned_to is not None:
        limit = f" (budgets above {_n(threshold.scanned_to)} not examined: too many change points)"
        if threshold.any_at is None:
            return f"does not appear at any budget up to {_n(threshold.scanned_to)}" + limit
        ranges = span(threshold.full_ranges) or "never"
        return f"in full at {ranges}; at all at {span(threshold.any_ranges)}" + limit
    if threshold.any_at is None:
        return "never appears at any budget"
    if threshold.monotone:
        parts = []
        if threshold.full_at is not None:
            parts.append(f"in full from budget {_n(threshold.full_at)}")
        else:
            parts.append("never in full")
        if threshold.any_at != threshold.full_at:
            parts.append(f"at all (as a title) from {_n(threshold.any_at)}")
        return "; ".join(parts)
    full = span(threshold.full_ranges) or "never"
    return f"not monotone in the budget: in full at {full}; at all at {span(threshold.any_ranges)}"


# -- sweeps ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SweepRow:
    budget: int
    tokens_used: int
    included: int
    summarized: int
    dropped: int


def sweep(engine: Engine, budgets) -> list[SweepRow]:
    """Tokens used and entries per fate at each budget."""
    index = FateIndex(engine)
    rows = []
    for budget in budgets:
        plan = engine.plan(budget)
        fates = index.vector(plan)
        included = fates.count(INCLUDED)
        summarized = fates.count(SUMMARIZED)
        rows.append(SweepRow(budget, plan.tokens_used, included, summarized, len(fates) - included - summarized))
    return rows

