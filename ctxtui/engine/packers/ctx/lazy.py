"""One ctx outcome at a time: the packet order and any single entry's outcome, without building the rest.

The table shows ~40 of 50,000 entries, and the why panel one; building every
outcome on each slider step cost ~160 ms at 50,000 memories (issue 11). Here
an outcome is made for one candidate index, from the same per-entry functions
`outcomes.outcomes_of` uses (so the two cannot disagree; tests compare them
for whole corpora), and the packet order is a list of candidate indices that
depends only on the ranking, so it is cached per packet task count.
"""

from __future__ import annotations

from array import array
from typing import NamedTuple

from ctxtui.engine.model import Outcome
from ctxtui.engine.packers.ctx.outcomes import (
    PrefixTier,
    constitution_outcome,
    inactive_outcome,
    prefix_outcome,
    prefix_tiers,
    scored_outcome,
    skill_outcome,
    skipped_outcome,
    unused_steering,
    unused_steering_outcome,
)
from ctxtui.engine.packers.ctx.prepared import CtxPrepared
from ctxtui.engine.packers.ctx.state import CtxState, SectionFill

ORDER_CACHE = 16  # packet orders kept (one per task count met)


class Offsets(NamedTuple):
    """Where each group of candidates starts in `candidates()` (rules, tasks, conventions... skill)."""

    tasks: int
    conventions: int
    skipped: int
    scored: int
    steering: int
    unused_steering: int
    skill: int


class OutcomeContext(NamedTuple):
    """What any single outcome of one plan needs, computed once per plan."""

    state: CtxState
    offsets: Offsets
    tiers: tuple[PrefixTier, PrefixTier, PrefixTier]
    fills: dict[str, SectionFill]
    task_count: int
    positions: array[int]  # each scored entry's place in its section's ranking


def offsets_of(packer: CtxPrepared) -> Offsets:
    parsed = packer.parsed
    tasks = len(parsed.constitution_candidates)
    conventions = tasks + len(packer.tasks)
    skipped = conventions + len(packer.conventions)
    scored = skipped + len(parsed.conventions_skipped)
    steering = scored + len(packer.scored)
    unused = steering + len(packer.steering)
    return Offsets(tasks, conventions, skipped, scored, steering, unused, unused + len(unused_steering(packer)))


def task_count_of(state: CtxState) -> int:
    """The task count the scores were ranked with (no task reached: none)."""
    return state.task_count if (state.stopped_after or 99) > 1 else 0


def context_of(packer: CtxPrepared, state: CtxState) -> OutcomeContext:
    task_count = task_count_of(state)
    return OutcomeContext(
        state,
        offsets_of(packer),
        prefix_tiers(packer, state),
        {fill.name: fill for fill in state.sections},
        task_count,
        packer.positions(task_count),
    )


def packet_order(packer: CtxPrepared, state: CtxState) -> array[int]:
    """Candidate indices in `outcomes_of` order: rules (last when ctx cannot see them), tasks, conventions,
    scored entries by section in rank order (inactive memories after), steering, the skill."""
    return _order_and_places(packer, state)[0]


def packet_places(packer: CtxPrepared, state: CtxState) -> array[int]:
    """Each candidate's position in `packet_order` (its inverse), cached with it."""
    return _order_and_places(packer, state)[1]


def _order_and_places(packer: CtxPrepared, state: CtxState) -> tuple[array[int], array[int]]:
    task_count = task_count_of(state)
    with packer._lock:
        cached = packer.orders.get(task_count)
        if cached is not None:
            return cached
        at = offsets_of(packer)
        rules = range(at.tasks)
        order: list[int] = [*rules] if packer.constitution else []
        order += range(at.tasks, at.scored)  # tasks, conventions, conventions past the scan limit
        ranking, s = packer._ranking(task_count), at.scored
        for name in packer.section_names:
            order += [s + i for i in ranking[name]]
            order += [s + i for i in packer.inactive_members.get(name, ())]
        order += range(at.steering, at.skill)  # the steering tier, then the steering files outside it
        if packer.skill is not None:
            order.append(at.skill)
        if not packer.constitution:
            order += rules
        places = array("i", bytes(4 * len(order)))
        for place, index in enumerate(order):
            places[index] = place
        # Compact arrays: a list of 50,000 ints is 1.8 MB, an array 0.2 MB, and a few are kept per task count.
        packed = array("i", order)
        packer.orders[task_count] = packed, places
        while len(packer.orders) > min(ORDER_CACHE, packer.ranking_cache):
            packer.orders.popitem(last=False)
        return packed, places


def outcome_at(packer: CtxPrepared, context: OutcomeContext, index: int) -> Outcome:
    """The outcome of candidate `index` (its place in `candidates()`), equal to that entry's in `outcomes_of`."""
    at = context.offsets
    parsed = packer.parsed
    if index < at.tasks:
        return constitution_outcome(packer, parsed.constitution_candidates[index])
    if index < at.conventions:
        return prefix_outcome(context.tiers[0], index - at.tasks)
    if index < at.skipped:
        return prefix_outcome(context.tiers[1], index - at.conventions)
    if index < at.scored:
        return skipped_outcome(parsed.conventions_skipped[index - at.skipped])
    if index < at.steering:
        return _scored_at(packer, context, index - at.scored)
    if index < at.unused_steering:
        return prefix_outcome(context.tiers[2], index - at.steering)
    if index < at.skill:
        return unused_steering_outcome(packer, unused_steering(packer)[index - at.unused_steering])
    if index == at.skill and packer.skill is not None:
        return skill_outcome(packer, context.state)
    raise IndexError(f"no candidate {index}")


def _scored_at(packer: CtxPrepared, context: OutcomeContext, i: int) -> Outcome:
    entry = packer.scored[i]
    breakdown = packer.breakdown_at(i, context.task_count)
    if entry.key in packer.inactive:
        return inactive_outcome(packer, i, breakdown)
    place = context.positions[i]
    fill = context.fills.get(entry.section)
    full, used = fill.position(place) if fill is not None and fill.share > 0 else (False, 0)
    remaining = context.state.remaining_before_scored
    return scored_outcome(packer, fill, i, place + 1, full, used, breakdown, remaining)
