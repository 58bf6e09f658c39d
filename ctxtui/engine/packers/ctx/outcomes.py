"""Why every ctx candidate has its fate at one budget: an outcome per entry, with the numbers behind it.

Derived from the packer's compact `CtxState` on first use (the slider path
never builds them): tier by tier, in packet order, with the rules ctx cannot
see last. Each outcome carries the typed numbers its reason text needs.
"""

from __future__ import annotations

from collections.abc import Sequence

from ctxtui.engine.model import AlwaysIn, Entry, Fate, Outcome, PatternMiss, PrefixFit, ScanLimit, ShareFit
from ctxtui.engine.packers.ctx.budget import pct_cap
from ctxtui.engine.packers.ctx.prepared import CtxPrepared
from ctxtui.engine.packers.ctx.sections import TIER_OF_SECTION, Reason
from ctxtui.engine.packers.ctx.state import CtxState


def outcomes_of(packer: CtxPrepared, state: CtxState) -> list[Outcome]:
    """An outcome for every candidate, in packet order (rules ctx cannot see last)."""
    out: list[Outcome] = []
    stop = state.stopped_after or 99
    parsed = packer.parsed

    # Rules ctx parses lead (tier 1); the rules it cannot see (quirk 1) go last,
    # after everything that can reach the packet.
    rules_reached = bool(packer.constitution)
    unseen: list[Outcome] = []
    for entry in parsed.constitution_candidates:
        if rules_reached:
            out.append(Outcome(entry, 1, Fate.INCLUDED, Reason.ALWAYS, AlwaysIn(packer.tier1)))
        else:
            unseen.append(
                Outcome(
                    entry,
                    1,
                    Fate.DROPPED,
                    Reason.CONSTITUTION_PATTERN,
                    PatternMiss(len(parsed.constitution_candidates)),
                )
            )

    budget = state.budget
    out += prefix_outcomes(
        packer.tasks,
        2,
        reached=stop > 1,
        cap=state.task_cap,
        count=state.task_count,
        forced=state.task_forced,
        cumulative=packer.task_cum,
        base=PrefixFit(
            budget=budget,
            pct=packer.settings.task_pct,
            pct_cap=pct_cap(budget, packer.settings.task_pct),
            remaining=budget - packer.tier1,
        ),
    )
    out += prefix_outcomes(
        packer.conventions,
        3,
        reached=stop > 2,
        cap=state.convention_cap,
        count=state.convention_count,
        forced=state.convention_forced,
        cumulative=packer.convention_cum,
        base=PrefixFit(
            budget=budget,
            pct=packer.settings.convention_pct,
            pct_cap=pct_cap(budget, packer.settings.convention_pct),
            remaining=state.remaining_before_conventions,
        ),
    )
    for entry in parsed.conventions_skipped:
        out.append(Outcome(entry, 3, Fate.DROPPED, Reason.BEYOND_SCAN_LIMIT, ScanLimit(1000)))

    out += _scored_outcomes(packer, state, stop)

    steering_reached = stop > 5 and state.remaining_before_steering > 0
    out += prefix_outcomes(
        packer.steering,
        6,
        reached=steering_reached,
        cap=max(0, state.remaining_before_steering),
        count=state.steering_count,
        forced=state.steering_forced,
        cumulative=packer.steering_cum,
        base=PrefixFit(remaining=state.remaining_before_steering),
    )
    for entry in parsed.steering:
        verdict = parsed.steering_fates[entry.key]
        if not packer.version.steering:
            out.append(Outcome(entry, 6, Fate.DROPPED, Reason.NO_STEERING_TIER))
        elif verdict != "always":
            out.append(Outcome(entry, 6, Fate.DROPPED, Reason(verdict)))
    if packer.skill is not None:
        out.append(_skill_outcome(packer, state, stop))
    return out + unseen


def _skill_outcome(packer: CtxPrepared, state: CtxState, stop: int) -> Outcome:
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
    scored, title_tokens = packer.scored, packer.title_tokens
    remaining = state.remaining_before_scored
    out: list[Outcome] = []
    append = out.append
    for name in packer.section_names:
        tier = TIER_OF_SECTION[name]
        fill = fills.get(name)
        members = ranking[name]
        if fill is None or fill.share <= 0:
            reason = Reason.NOT_REACHED if fill is None else Reason.NO_SHARE
            share = fill.share if fill else 0
            for rank, i in enumerate(members, start=1):
                entry = scored[i]
                why = Reason.SUPERSEDED if entry.superseded else reason
                append(Outcome(entry, tier, Fate.DROPPED, why, ShareFit(rank, entry.tokens, share), breakdowns[i]))
        else:
            share, limit = fill.share, fill.limit
            for rank, (i, full, used) in enumerate(zip(fill.order, fill.fulls(), fill.befores(), strict=True), start=1):
                entry = scored[i]
                numbers = ShareFit(rank, entry.tokens, share, limit, used, title_tokens[i], remaining)
                if full:
                    append(Outcome(entry, tier, Fate.INCLUDED, Reason.FULL, numbers, breakdowns[i]))
                elif entry.superseded:
                    append(Outcome(entry, tier, Fate.DROPPED, Reason.SUPERSEDED, numbers, breakdowns[i]))
                else:
                    append(Outcome(entry, tier, Fate.SUMMARIZED, Reason.OVER_FULL_LIMIT, numbers, breakdowns[i]))
        for i in packer.inactive_members.get(name, ()):
            entry = scored[i]
            append(Outcome(entry, tier, Fate.DROPPED, packer.inactive[entry.key], None, breakdowns[i]))
    return out


def prefix_outcomes(
    entries: Sequence[Entry],
    tier: int,
    *,
    reached: bool,
    cap: int,
    count: int,
    forced: bool,
    cumulative: Sequence[int],
    base: PrefixFit,
) -> list[Outcome]:
    """Outcomes for a stop-at-first-misfit tier (tasks, conventions, steering)."""
    if not reached:
        return [Outcome(e, tier, Fate.DROPPED, Reason.NOT_REACHED, base) for e in entries]
    out = []
    blocker = entries[count].key if count < len(entries) else None
    for index, entry in enumerate(entries):
        if index < count:
            numbers = base._replace(cap=cap, used_before=cumulative[index], needs=entry.tokens)
            out.append(Outcome(entry, tier, Fate.INCLUDED, Reason.FORCED_FIRST if forced else Reason.FITS, numbers))
        elif index == count:
            numbers = base._replace(cap=cap, used_before=cumulative[index], needs=entry.tokens)
            out.append(Outcome(entry, tier, Fate.DROPPED, Reason.OVER_CAP, numbers))
        else:
            numbers = base._replace(cap=cap, used_before=cumulative[count], needs=entry.tokens)
            out.append(Outcome(entry, tier, Fate.DROPPED, Reason.AFTER_MISFIT, numbers, blocked_by=blocker))
    return out
