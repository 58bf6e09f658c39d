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
from collections.abc import Sequence
from typing import NamedTuple

from ctxtui.engine.model import Outcome
from ctxtui.engine.packers.ctx.order import Places, Segments
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


def packet_order(packer: CtxPrepared, state: CtxState) -> Segments:
    """Candidate indices in `outcomes_of` order: rules (last when ctx cannot see them), tasks, conventions,
    scored entries by section in rank order (inactive memories after), steering, the skill."""
    return _order_and_places(packer, state)[0]


def packet_places(packer: CtxPrepared, state: CtxState) -> Places:
    """Each candidate's position in `packet_order` (its inverse), cached with it."""
    return _order_and_places(packer, state)[1]


def _order_and_places(packer: CtxPrepared, state: CtxState) -> tuple[Segments, Places]:
    task_count = task_count_of(state)
    with packer._lock:
        cached = packer.orders.get(task_count)
        if cached is not None:
            return cached
        at = offsets_of(packer)
        rules = range(at.tasks)
        lead = packer.constitution  # the rules lead when ctx sees them, else they come last
        ranking, s = packer._ranking(task_count), at.scored
        pieces: list[tuple[Sequence[int], int]] = [(rules, 0)] if lead else []
        pieces.append((range(at.tasks, at.scored), 0))  # tasks, conventions, conventions past the scan limit
        ranked_start: dict[str, int] = {}
        inactive_place: dict[int, int] = {}
        place = (len(rules) if lead else 0) + (at.scored - at.tasks)
        for name in packer.section_names:
            members, inactive = ranking[name], packer.inactive_members.get(name, [])
            ranked_start[name] = place
            place += len(members)
            for k, i in enumerate(inactive):
                inactive_place[i] = place + k
            place += len(inactive)
            pieces += [(members, s), (inactive, s)]
        tail = range(at.steering, at.skill + (1 if packer.skill is not None else 0))  # steering, the skill
        pieces.append((tail, 0))
        if not lead:
            pieces.append((rules, 0))
        order = Segments(pieces)
        # Positions of the candidates before and after the scored ones, in candidate order.
        head = len(rules) if lead else 0
        before = Segments(
            [(rules, 0 if lead else len(order) - len(rules)), (range(at.tasks, at.scored), head - at.tasks)]
        )
        after = Segments([(tail, place - at.steering)])
        places = Places(
            before, s, packer.scored_sections, packer._positions_for(task_count), ranked_start, inactive_place, after
        )
        packer.orders[task_count] = order, places
        while len(packer.orders) > ORDER_CACHE:
            packer.orders.pop(next(iter(packer.orders)), None)
        return order, places


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
