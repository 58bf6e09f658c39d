"""Where a ctx packet can change: the next budget at which any fate might differ.

Fates change only at a few budgets, and each can be computed from the current
assembly: the next task that would fit, the next entry whose cost would pass
80% of its share, the switch of the split to "everything fits"... Thresholds
and sweeps walk those budgets only, so every entry's exact thresholds come out
of a few thousand assemblies instead of one per budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine.packers.ctx.budget import full_limit, pct_cap, split_shares
from ctxtui.engine.packers.ctx.state import CtxState

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ctxtui.engine.packers.ctx.prepared import CtxPrepared


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


def next_change(packer: CtxPrepared, state: CtxState) -> int | None:
    """The smallest budget above state.budget at which any fate might change.

    A safe lower bound: fates stay as they are on [state.budget, result).
    None when nothing can change any more.
    """
    b = state.budget
    t1 = packer.tier1
    candidates: list[int] = []
    if state.stopped_after == 1:
        return max(b + 1, t1 + 1)

    def prefix_candidate(cum: Sequence[int], count: int, pct: float, offset: int) -> None:
        if count < len(cum) - 1:
            need = cum[count + 1]
            by_pct = _min_budget_for_pct(need, pct)
            if by_pct is not None:
                # 0.8.1 clamps the cap to what is left, so the item must also fit that.
                candidates.append(max(by_pct, need + offset) if packer.version.clamp_caps else by_pct)

    policy = packer.settings
    prefix_candidate(packer.task_cum, state.task_count, policy.task_pct, t1)
    if state.stopped_after == 2:
        candidates.append(t1 + state.task_tokens + 1)
        return _first_above(b, candidates)
    prefix_candidate(packer.convention_cum, state.convention_count, policy.convention_pct, t1 + state.task_tokens)
    fixed = t1 + state.task_tokens + state.convention_tokens
    if state.stopped_after == 3:
        candidates.append(fixed + 1)
        return _first_above(b, candidates)

    scored_candidate = _scored_change(packer, state)
    if scored_candidate is not None:
        candidates.append(fixed + scored_candidate)

    if packer.steering:
        used = state.budget - state.remaining_before_steering
        if state.remaining_before_steering <= 0:
            candidates.append(used + 1)
        elif state.steering_count < len(packer.steering):
            candidates.append(used + packer.steering_cum[state.steering_count + 1])

    skill = packer.skill
    if skill is not None and skill.text and not state.skill_included:
        used = state.budget - state.remaining_before_skill
        candidates.append(used + max(1, skill.tokens))
    return _first_above(b, candidates)


def _first_above(budget: int, candidates: list[int]) -> int | None:
    above = [c for c in candidates if c > budget]
    return min(above) if above else None


def _scored_change(packer: CtxPrepared, state: CtxState) -> int | None:
    """The smallest `remaining` above the current one at which a scored fill changes."""
    remaining = state.remaining_before_scored
    sizes, present = packer.section_sizes, packer.section_present
    live = sum(present)
    if live == 0:
        return None
    total = sum(sizes)
    if live > 1 and remaining >= total:
        return None  # shares are the content sizes from here on: fills are final
    tokens, superseded = packer._tokens, packer._superseded
    targets: list[int | None] = []  # per section: full limit that changes the fill (0: share > 0)
    for fill in state.sections:
        if fill.share <= 0:
            targets.append(0 if packer.section_members[fill.name] else None)
            continue
        best = None
        for pos, i in enumerate(fill.order[: fill.stop]):
            if not fill.full[pos] and not packer.scored[i].superseded:
                need = fill.used_before[pos] + tokens[i]
                best = need if best is None or need < best else best
        if fill.stop < len(fill.order):  # past the stop every entry saw full_tokens used: the cheapest one decides
            costs = [tokens[i] for i in fill.order[fill.stop :] if not superseded[i]]
            if costs:
                need = fill.full_tokens + min(costs)
                best = need if best is None or need < best else best
        targets.append(best)

    def changed(rem: int) -> bool:
        if live > 1 and rem >= total:
            return True
        for share, target in zip(split_shares(rem, sizes, present), targets, strict=True):
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
