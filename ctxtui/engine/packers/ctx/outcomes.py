"""Why every ctx candidate has its fate at one budget: an outcome per entry, with the numbers behind it.

Derived from the packer's compact `CtxState` on first use (the slider path
never builds them): tier by tier, in packet order, with the rules ctx cannot
see last. Each outcome carries the typed numbers its reason text needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Entry, Outcome, ScoreBreakdown
from ctxtui.engine.packers.ctx.budget import pct_cap
from ctxtui.engine.packers.ctx.prepared import CtxPrepared
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.packers.ctx.sections import TIER_OF_SECTION
from ctxtui.engine.packers.ctx.state import CtxState, SectionFill
from ctxtui.engine.reason_numbers import AlwaysIn, PatternMiss, PrefixFit, ScanLimit, ShareFit


def outcomes_of(packer: CtxPrepared, state: CtxState) -> list[Outcome]:
    """An outcome for every candidate, in packet order (rules ctx cannot see last)."""
    out: list[Outcome] = []
    stop = state.stopped_after or 99
    parsed = packer.parsed

    # Rules ctx parses lead (tier 1); the rules it cannot see (quirk 1) go last,
    # after everything that can reach the packet.
    rules = [constitution_outcome(packer, entry) for entry in parsed.constitution_candidates]
    unseen: list[Outcome] = []
    if packer.constitution:
        out += rules
    else:
        unseen = rules

    tasks, conventions, steering = prefix_tiers(packer, state)
    out += prefix_outcomes(tasks)
    out += prefix_outcomes(conventions)
    out += [skipped_outcome(entry) for entry in parsed.conventions_skipped]

    out += _scored_outcomes(packer, state, stop)

    out += prefix_outcomes(steering)
    out += [unused_steering_outcome(packer, entry) for entry in unused_steering(packer)]
    if packer.skill is not None:
        out.append(skill_outcome(packer, state))
    return out + unseen


def unused_steering(packer: CtxPrepared) -> list[Entry]:
    """The steering files outside the steering tier, in file order (`candidates()` lists them after the tier's)."""
    return [entry for entry in packer.parsed.steering if entry not in packer.steering]


def skill_outcome(packer: CtxPrepared, state: CtxState) -> Outcome:
    """The skill (tier 7): all or nothing."""
    stop = state.stopped_after or 99
    skill = packer.skill
    assert skill is not None
    left = state.remaining_before_skill
    numbers = PrefixFit(cap=max(0, left), used_before=0, needs=skill.tokens, remaining=left)
    if stop <= 5 or left <= 0:
        return Outcome(skill, 7, Fate.DROPPED, Reason.NOT_REACHED, numbers)
    if state.skill_included:
        return Outcome(skill, 7, Fate.INCLUDED, Reason.FITS, numbers)
    if not skill.text:
        return Outcome(skill, 7, Fate.DROPPED, Reason.EMPTY_BODY, numbers)
    return Outcome(skill, 7, Fate.DROPPED, Reason.SKILL_TOO_BIG, numbers)


def _scored_outcomes(packer: CtxPrepared, state: CtxState, stop: int) -> list[Outcome]:
    task_count = state.task_count if stop > 1 else 0
    breakdowns = packer.breakdowns(task_count)
    ranking = packer.ranking(task_count)
    fills = {fill.name: fill for fill in state.sections}
    remaining = state.remaining_before_scored
    out: list[Outcome] = []
    append = out.append
    for name in packer.section_names:
        fill = fills.get(name)
        if fill is None or fill.share <= 0:
            for rank, i in enumerate(ranking[name], start=1):
                append(scored_outcome(packer, fill, i, rank, False, 0, breakdowns[i], remaining))
        else:
            for rank, (i, full, used) in enumerate(zip(fill.order, fill.fulls(), fill.befores(), strict=True), start=1):
                append(scored_outcome(packer, fill, i, rank, full, used, breakdowns[i], remaining))
        for i in packer.inactive_members.get(name, ()):
            append(inactive_outcome(packer, i, breakdowns[i]))
    return out


def scored_outcome(
    packer: CtxPrepared,
    fill: SectionFill | None,
    i: int,
    rank: int,
    full: bool,
    used: int,
    breakdown: ScoreBreakdown,
    remaining: int,
) -> Outcome:
    """Active scored entry `i` (a decision, learning or memory) at `rank` in its section's fill (None: not reached)."""
    entry = packer.scored[i]
    tier = TIER_OF_SECTION[entry.section]
    if fill is None or fill.share <= 0:
        why = Reason.SUPERSEDED if entry.superseded else Reason.NOT_REACHED if fill is None else Reason.NO_SHARE
        numbers = ShareFit(rank, entry.tokens, fill.share if fill else 0)
        return Outcome(entry, tier, Fate.DROPPED, why, numbers, breakdown)
    numbers = ShareFit(rank, entry.tokens, fill.share, fill.limit, used, packer.title_tokens[i], remaining)
    if full:
        return Outcome(entry, tier, Fate.INCLUDED, Reason.FULL, numbers, breakdown)
    if entry.superseded:
        return Outcome(entry, tier, Fate.DROPPED, Reason.SUPERSEDED, numbers, breakdown)
    return Outcome(entry, tier, Fate.SUMMARIZED, Reason.OVER_FULL_LIMIT, numbers, breakdown)


def inactive_outcome(packer: CtxPrepared, i: int, breakdown: ScoreBreakdown) -> Outcome:
    """Scored entry `i`, a memory whose status keeps it out (archived, superseded...)."""
    entry = packer.scored[i]
    return Outcome(
        entry, TIER_OF_SECTION[entry.section], Fate.DROPPED, Reason(packer.inactive[entry.key]), None, breakdown
    )


def constitution_outcome(packer: CtxPrepared, entry: Entry) -> Outcome:
    """A rule of CONSTITUTION.md: in (tier 1) when ctx's pattern sees the file's rules, else unseen."""
    if packer.constitution:
        return Outcome(entry, 1, Fate.INCLUDED, Reason.ALWAYS, AlwaysIn(packer.tier1))
    rules = len(packer.parsed.constitution_candidates)
    return Outcome(entry, 1, Fate.DROPPED, Reason.CONSTITUTION_PATTERN, PatternMiss(rules))


def skipped_outcome(entry: Entry) -> Outcome:
    """A convention past the bullets ctx looks at."""
    return Outcome(entry, 3, Fate.DROPPED, Reason.BEYOND_SCAN_LIMIT, ScanLimit(1000))


def unused_steering_outcome(packer: CtxPrepared, entry: Entry) -> Outcome:
    """A steering file that is not in the steering tier: no such tier in this version, or not "always"."""
    if not packer.version.steering:
        return Outcome(entry, 6, Fate.DROPPED, Reason.NO_STEERING_TIER)
    return Outcome(entry, 6, Fate.DROPPED, Reason(packer.parsed.steering_fates[entry.key]))


class PrefixTier(NamedTuple):
    """A stop-at-first-misfit tier at one budget (tasks, conventions, steering): what its outcomes need."""

    entries: Sequence[Entry]
    tier: int
    reached: bool
    cap: int
    taken: int  # entries in (a tuple's `count` is a method)
    forced: bool
    cumulative: Sequence[int]
    base: PrefixFit


def prefix_tiers(packer: CtxPrepared, state: CtxState) -> tuple[PrefixTier, PrefixTier, PrefixTier]:
    """The tasks, conventions and steering tiers of one assembly."""
    stop, budget = state.stopped_after or 99, state.budget
    settings = packer.settings
    tasks = PrefixTier(
        packer.candidate_tasks(),
        2,
        stop > 1,
        state.task_cap,
        state.task_count,
        state.task_forced,
        packer.task_cum,
        PrefixFit(
            budget=budget,
            pct=settings.task_pct,
            pct_cap=pct_cap(budget, settings.task_pct),
            remaining=budget - packer.tier1,
        ),
    )
    conventions = PrefixTier(
        packer.conventions,
        3,
        stop > 2,
        state.convention_cap,
        state.convention_count,
        state.convention_forced,
        packer.convention_cum,
        PrefixFit(
            budget=budget,
            pct=settings.convention_pct,
            pct_cap=pct_cap(budget, settings.convention_pct),
            remaining=state.remaining_before_conventions,
        ),
    )
    steering = PrefixTier(
        packer.steering,
        6,
        stop > 5 and state.remaining_before_steering > 0,
        max(0, state.remaining_before_steering),
        state.steering_count,
        state.steering_forced,
        packer.steering_cum,
        PrefixFit(remaining=state.remaining_before_steering),
    )
    return tasks, conventions, steering


def prefix_outcomes(tier: PrefixTier) -> list[Outcome]:
    """Outcomes for a stop-at-first-misfit tier (tasks, conventions, steering), in file order."""
    return [prefix_outcome(tier, index) for index in range(len(tier.entries))]


def prefix_outcome(tier: PrefixTier, index: int) -> Outcome:
    """The outcome of the tier's entry at `index`."""
    entry, base = tier.entries[index], tier.base
    if not tier.reached:
        return Outcome(entry, tier.tier, Fate.DROPPED, Reason.NOT_REACHED, base)
    count, cap, cumulative = tier.taken, tier.cap, tier.cumulative
    if index < count:
        numbers = base._replace(cap=cap, used_before=cumulative[index], needs=entry.tokens)
        return Outcome(entry, tier.tier, Fate.INCLUDED, Reason.FORCED_FIRST if tier.forced else Reason.FITS, numbers)
    if index == count:
        numbers = base._replace(cap=cap, used_before=cumulative[index], needs=entry.tokens)
        return Outcome(entry, tier.tier, Fate.DROPPED, Reason.OVER_CAP, numbers)
    numbers = base._replace(cap=cap, used_before=cumulative[count], needs=entry.tokens)
    blocker = tier.entries[count].key
    return Outcome(entry, tier.tier, Fate.DROPPED, Reason.AFTER_MISFIT, numbers, blocked_by=blocker)
