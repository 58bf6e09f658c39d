"""ctx agent's tier-by-tier assembly, exactly, with a reason for every entry.

`CtxPacker` builds on `CtxPrepared`, everything that does not depend on the
budget (parsed entries, costs, prefix sums, the scorer), so `plan(budget)`
only walks the tiers and records a compact `CtxState` (counts, caps, shares,
which entries went in full). The packet's text, the buckets and the
per-entry outcomes (`outcomes`) are derived from it, on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import Bucket, Outcome, Plan
from ctxtui.engine.packers.base import INCLUDED, SUMMARIZED, Packer
from ctxtui.engine.packers.ctx.budget import (
    fit_prefix,
    full_limit,
    pct_cap,
    split_shares,
)
from ctxtui.engine.packers.ctx.knobs import HONOURED, CtxKnobs
from ctxtui.engine.packers.ctx.prepared import CtxPrepared
from ctxtui.engine.packers.ctx.render import render_packet
from ctxtui.engine.packers.ctx.sections import (
    INSTRUCTION,
    MEMORIES_BUCKET,
    SCORED_SECTIONS,
    TIER_NAMES,
    TIER_OF_SECTION,
)
from ctxtui.engine.packers.ctx.state import CtxPacket, CtxState, SectionFill
from ctxtui.engine.packers.ctx.versions import DEFAULT_VERSION, CtxVersion
from ctxtui.engine.sources.steering import SkillFile
from ctxtui.engine.sources.workspace import Workspace
from ctxtui.engine.text.go_strconv import i64

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from datetime import datetime, tzinfo
    from typing import Any


class CtxPacker(CtxPrepared, Packer):
    """`ctx agent`'s assembly at any budget, over what `CtxPrepared` computed once."""

    def with_knob(self, key: str, value: Any, source: str = "set here") -> CtxPacker:
        """This packer with one of the settings its version honours changed."""
        if key not in HONOURED.get(self.name, ()):
            raise KeyError(f"{self.name} has no setting {key!r}")
        return self.rebuilt(knobs=self.settings.with_values({key: value}, source))

    def rebuilt(self, **changes: Any) -> CtxPacker:
        """The same packer with some of its inputs changed (parsed, memories, knobs...): what-if questions."""
        given = self.inputs._replace(**changes)
        return CtxPacker(
            given.parsed,
            now=given.now,
            root_path=given.root_path,
            version=given.version,
            context_dir=given.context_dir,
            knobs=given.knobs,
            memories=given.memories,
            count=given.counter,
            skill=given.skill,
            zone=given.zone,
        )

    # -- assembly ------------------------------------------------------------

    def plan(self, budget: int) -> Plan:
        """Walk the tiers for one budget; see the spec's "Assembly, tier by tier"."""
        with self._lock:
            state = self._assemble(budget)
        return Plan(self, budget, state.tokens_used, state)

    def _assemble(self, budget: int) -> CtxState:
        state = CtxState(budget=budget, tier1=self.tier1)
        remaining = i64(budget - self.tier1)
        if remaining <= 0:
            state.stopped_after = 1
            state.tokens_used = self.tier1
            return state

        # Tiers 2 and 3 follow the same rule: a share of the whole budget, capped by what is left.
        clamp = self.version.clamp_caps
        state.task_cap, state.task_count, state.task_forced, state.task_tokens = _prefix_tier(
            budget, self.settings.task_pct, remaining if clamp else None, self.task_cum
        )
        remaining = i64(remaining - state.task_tokens)
        state.remaining_before_conventions = remaining
        if remaining <= 0:
            state.stopped_after = 2
            state.tokens_used = i64(budget - remaining)
            return state

        state.convention_cap, state.convention_count, state.convention_forced, state.convention_tokens = _prefix_tier(
            budget, self.settings.convention_pct, remaining if clamp else None, self.convention_cum
        )
        remaining = i64(remaining - state.convention_tokens)
        state.remaining_before_scored = remaining
        if remaining <= 0:
            state.stopped_after = 3
            state.tokens_used = i64(budget - remaining)
            return state

        ranking = self.ranking(state.task_count)
        shares = split_shares(remaining, self.section_sizes, self.section_present)
        used = self.tier1 + state.task_tokens + state.convention_tokens
        tokens, superseded, title_tokens = self._tokens, self._superseded, self.title_tokens
        for name, share in zip(self.section_names, shares, strict=True):
            order = ranking[name] if share > 0 else []
            fill = SectionFill(name=name, share=share, limit=full_limit(share), order=order)
            limit = fill.limit
            section_used = 0
            summary_tokens = 0
            seen_titles = 0  # title costs of the fillable entries looked at so far
            full_flags = fill.full
            before = fill.used_before
            smallest = self.section_min_cost[name]
            stop = len(order)
            for pos, i in enumerate(order):
                if limit - section_used < smallest:
                    # Nothing from here on fits: every later fillable entry is summarised.
                    stop = pos
                    summary_tokens += self.section_titles[name] - seen_titles
                    break
                before.append(section_used)
                if superseded[i]:
                    full_flags.append(False)
                    continue
                seen_titles += title_tokens[i]
                cost = tokens[i]
                if section_used + cost <= limit:
                    full_flags.append(True)
                    section_used += cost
                else:
                    full_flags.append(False)
                    summary_tokens += title_tokens[i]
            fill.stop = stop
            fill.full_tokens = section_used
            fill.summary_tokens = summary_tokens
            used += section_used + summary_tokens
            state.sections.append(fill)

        remaining = i64(budget - used)
        state.remaining_before_steering = remaining
        if remaining > 0 and self.steering:
            state.steering_count, state.steering_forced = fit_prefix(self.steering_cum, remaining)
            state.steering_tokens = self.steering_cum[state.steering_count]
        elif remaining <= 0:
            state.stopped_after = 5
        used += state.steering_tokens
        # Tier 7, all or nothing (0.8.1 `assemble.go:133-140`): the skill goes in only if it fits what is left.
        remaining = i64(budget - used)
        state.remaining_before_skill = remaining
        if self.skill is not None and remaining > 0 and self.skill.text and self.skill.tokens <= remaining:
            state.skill_included = True
            used += self.skill.tokens
        state.tokens_used = used
        return state

    def packet(self, plan: Plan) -> CtxPacket:
        """ctx's output for `plan`, list by list."""
        state: CtxState = plan.state
        by_section: dict[str, list[str]] = {name: [] for name in SCORED_SECTIONS}
        summaries: list[str] = []
        for fill in state.sections:
            full_texts = by_section[fill.name]
            for i, full in zip(fill.order, fill.fulls(), strict=True):
                entry = self.scored[i]
                if full:
                    full_texts.append(entry.text)
                elif not entry.superseded:
                    summaries.append(entry.title)
        return CtxPacket(
            budget=state.budget,
            tokens_used=state.tokens_used,
            generated=self.generated,
            read_order=self.read_order,
            constitution=self.constitution,
            tasks=[e.text for e in self.tasks[: state.task_count]],
            conventions=[e.text for e in self.conventions[: state.convention_count]],
            decisions=by_section["decisions"],
            learnings=by_section["learnings"],
            memories=by_section["memories"],
            summaries=summaries,
            steering=[e.text for e in self.steering[: state.steering_count]],
            skill=self.skill.text if self.skill is not None and state.skill_included else "",
            instruction=INSTRUCTION,
        )

    def render(self, plan: Plan, fmt: str) -> str:
        return render_packet(self.packet(plan), fmt)

    # -- buckets and outcomes ------------------------------------------------

    def buckets(self, plan: Plan) -> list[Bucket]:
        """One bar per tier (one per scored section), with cap, use and overrun."""
        state: CtxState = plan.state
        budget = state.budget
        stop = state.stopped_after or 99
        bars = [Bucket(1, TIER_NAMES[1], None, self.tier1, overrun=max(0, self.tier1 - budget))]

        def capped(tier: int, cap: int, used: int, forced: bool) -> Bucket:
            return Bucket(tier, TIER_NAMES[tier], cap, used, overrun=max(0, used - cap) if forced else 0)

        bars.append(
            capped(2, state.task_cap, state.task_tokens, state.task_forced)
            if stop > 1
            else Bucket(2, TIER_NAMES[2], 0, 0, reached=False)
        )
        bars.append(
            capped(3, state.convention_cap, state.convention_tokens, state.convention_forced)
            if stop > 2
            else Bucket(3, TIER_NAMES[3], 0, 0, reached=False)
        )
        fills = {fill.name: fill for fill in state.sections}
        for name in self.section_names:
            tier = TIER_OF_SECTION[name]
            label = TIER_NAMES[tier] if name != "memories" else MEMORIES_BUCKET
            fill = fills.get(name)
            if fill is None:
                bars.append(Bucket(tier, label, 0, 0, reached=False, full_limit=0))
            else:
                bars.append(
                    Bucket(
                        tier,
                        label,
                        fill.share,
                        fill.full_tokens,
                        fill.summary_tokens,
                        full_limit=fill.limit,
                        unbudgeted=fill.summary_tokens,  # ctx appends "Also Noted" after the budget
                    )
                )
        if self.version.steering:
            steering_cap = max(0, state.remaining_before_steering) if stop > 3 else 0
            bars.append(
                Bucket(
                    6,
                    TIER_NAMES[6],
                    steering_cap,
                    state.steering_tokens,
                    overrun=max(0, state.steering_tokens - steering_cap) if state.steering_forced else 0,
                    reached=stop > 5 and state.remaining_before_steering > 0,
                )
            )
        if self.skill is not None:
            skill_cap = max(0, state.remaining_before_skill) if stop > 5 else 0
            bars.append(
                Bucket(
                    7,
                    TIER_NAMES[7],
                    skill_cap,
                    self.skill.tokens if state.skill_included else 0,
                    reached=stop > 5 and state.remaining_before_skill > 0,
                )
            )
        return bars

    def outcomes(self, plan: Plan) -> list[Outcome]:
        """An outcome for every candidate, in packet order (rules ctx cannot see last).

        The cyclic garbage collector is paused meanwhile: these are tens of
        thousands of acyclic tuples, and with a large heap (50,000 memories) the
        collections they trigger cost more than building them.
        """
        # Outcomes, packet orders and changes are imported when first asked for: a cold
        # `ctxtui pack` only plans and renders (lazy.py, outcomes.py, order.py, changes.py: ~1 ms).
        from ctxtui.engine.packers.ctx.outcomes import outcomes_of

        with self._lock, gc_paused():
            return outcomes_of(self, plan.state)

    def packet_order(self, plan: Plan) -> Sequence[int]:
        """Candidate indices in packet order (cached per packet task count: the ranking decides it)."""
        from ctxtui.engine.packers.ctx.lazy import packet_order

        return packet_order(self, plan.state)

    def packet_places(self, plan: Plan) -> Sequence[int]:
        from ctxtui.engine.packers.ctx.lazy import packet_places

        return packet_places(self, plan.state)

    def outcome_at(self, plan: Plan, index: int) -> Outcome:
        """One candidate's outcome, made alone (the table draws ~40 of 50,000)."""
        from ctxtui.engine.packers.ctx.lazy import context_of, outcome_at

        context = plan.derived("ctx.outcome_context", lambda p: context_of(self, p.state))
        return outcome_at(self, context, index)

    # -- across budgets --------------------------------------------------------

    def component_vector(self, plan: Plan, component: str) -> Sequence[Any] | None:
        from ctxtui.engine.packers.ctx.vectors import component_vector

        return component_vector(self, plan, component)

    def reason_vector(self, plan: Plan) -> Sequence[Any] | None:
        from ctxtui.engine.packers.ctx.vectors import reason_vector

        return reason_vector(self, plan)

    def fate_vector(self, plan: Plan) -> bytearray:
        state: CtxState = plan.state
        parsed = self.parsed
        fates = bytearray(len(self.candidates()))
        task_start = len(parsed.constitution_candidates)
        if self.constitution:
            fates[:task_start] = bytes([INCLUDED]) * task_start
        fates[task_start : task_start + state.task_count] = bytes([INCLUDED]) * state.task_count
        c = task_start + len(self.tasks)
        fates[c : c + state.convention_count] = bytes([INCLUDED]) * state.convention_count
        s = c + len(self.conventions) + len(parsed.conventions_skipped)
        # Every active, not superseded entry of a section with a share (an order) is summarised unless it
        # went in full: that part is one copy of a per-load template (a loop over 50,000 memories cost
        # ~3 ms a step), then the few entries the fills took in full are marked.
        summarized = self.summarized_template(tuple(fill.name for fill in state.sections if fill.order))
        fates[s : s + len(summarized)] = summarized
        for fill in state.sections:
            for i, full in zip(fill.order[: fill.stop], fill.full, strict=True):  # up to fill.stop
                if full:
                    fates[s + i] = INCLUDED
        t = s + len(self.scored)
        fates[t : t + state.steering_count] = bytes([INCLUDED]) * state.steering_count
        if state.skill_included:
            fates[-1] = INCLUDED
        return fates

    def next_change(self, plan: Plan) -> int | None:
        from ctxtui.engine.packers.ctx.changes import next_change

        return next_change(self, plan.state)

    def counts(self, plan: Plan) -> dict[str, int]:
        """Entries per fate from the fate vector (C-level counting), without building 50,000 outcomes."""
        fates = plan.fates
        included, summarized = fates.count(INCLUDED), fates.count(SUMMARIZED)
        return {
            "included": included,
            "summarized": summarized,
            "dropped": len(fates) - included - summarized,
        }


def _prefix_tier(
    budget: int, pct: float, remaining: int | None, cumulative: Sequence[int]
) -> tuple[int, int, bool, int]:
    """A stop-at-first-misfit tier: (cap, items taken, first forced, tokens); `remaining` None: not clamped."""
    cap = pct_cap(budget, pct) if remaining is None else min(pct_cap(budget, pct), remaining)
    count, forced = fit_prefix(cumulative, cap)
    return cap, count, forced, cumulative[count]


def packer_for(
    workspace: Workspace,
    *,
    now: datetime,
    version: CtxVersion = DEFAULT_VERSION,
    root_path: str | None = None,
    count: Callable[[str], int] | None = None,
    knobs: CtxKnobs | None = None,
    skill: SkillFile | None = None,
    zone: tzinfo | None = None,
) -> CtxPacker:
    """A ctx packer for a loaded workspace (its memories included); knobs default to what `.ctxrc` says."""
    return CtxPacker(
        workspace.parsed,
        now=now,
        version=version,
        root_path=root_path if root_path is not None else str(workspace.project),
        context_dir=workspace.parsed.files.label,
        knobs=knobs if knobs is not None else CtxKnobs.from_config(workspace.config),
        memories=workspace.memories,
        count=count,
        skill=skill,
        zone=zone,
    )
