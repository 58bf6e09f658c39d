"""ctx agent's tier-by-tier assembly, exactly, with a reason for every entry.

`CtxPacker` holds everything that does not depend on the budget (parsed
entries, costs, prefix sums, the scorer), so `plan(budget)` only walks the
tiers and records a compact `CtxState` (counts, caps, shares, which entries
went in full). The packet's text, the buckets and the per-entry outcomes are
derived from it, on first use.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, tzinfo
from functools import partial
from itertools import accumulate
from typing import Any

from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import (
    AlwaysIn,
    Bucket,
    Entry,
    Fate,
    Outcome,
    PatternMiss,
    Plan,
    PrefixFit,
    ScanLimit,
    ScoreBreakdown,
    ShareFit,
)
from ctxtui.engine.packers.base import INCLUDED, SUMMARIZED, Knob, Packer
from ctxtui.engine.packers.ctx.budget import (
    DEFAULT_CONVENTION_PCT,
    DEFAULT_TASK_PCT,
    fit_prefix,
    full_limit,
    pct_cap,
    split_shares,
)
from ctxtui.engine.packers.ctx.changes import next_change
from ctxtui.engine.packers.ctx.knobs import CtxKnobs
from ctxtui.engine.packers.ctx.render import render_packet
from ctxtui.engine.packers.ctx.score import Scorer, relevance_of
from ctxtui.engine.packers.ctx.sections import (
    INSTRUCTION,
    MEMORIES_BUCKET,
    SCORED_SECTIONS,
    TIER_NAMES,
    TIER_OF_SECTION,
    Reason,
)
from ctxtui.engine.packers.ctx.state import CtxPacket, CtxState, SectionFill
from ctxtui.engine.packers.ctx.versions import DEFAULT_VERSION, CtxVersion
from ctxtui.engine.sources.context import ParsedContext
from ctxtui.engine.sources.steering import SkillFile
from ctxtui.engine.sources.workspace import Workspace
from ctxtui.engine.text.go import go_join, rfc3339_utc
from ctxtui.engine.text.go_strconv import i64
from ctxtui.engine.text.tokens import estimate

DEFAULT_KNOBS = CtxKnobs()  # frozen: one shared default is safe

NEVER_FITS = 1 << 62  # a cost no limit reaches
INACTIVE_STATUSES = {"archived": Reason.ARCHIVED, "superseded": Reason.SUPERSEDED}


class CtxPacker(Packer):
    """`ctx agent` of one version for one parsed workspace, one "now", one root path and one set of knobs.

    `root_path` is the working directory 0.8.1 prints under "Read These
    Files"; `context_dir` is the context directory as 0.8.0 prints it
    (".context", or its --context-dir / CTX_DIR / .ctxrc context_dir).
    """

    RANKING_CACHE = 64

    def __init__(
        self,
        parsed: ParsedContext,
        *,
        now: datetime,
        root_path: str,
        version: CtxVersion = DEFAULT_VERSION,
        context_dir: str = ".context",
        knobs: CtxKnobs = DEFAULT_KNOBS,
        memories: Sequence[Entry] = (),
        count: Callable[[str], int] | None = None,
        skill: SkillFile | None = None,
        zone: tzinfo | None = None,
    ):
        self._made_with = dict(
            parsed=parsed,
            now=now,
            root_path=root_path,
            version=version,
            context_dir=context_dir,
            knobs=knobs,
            memories=memories,
            count=count,
            skill=skill,
            zone=zone,
        )
        if count is not None:
            parsed, memories = _recost(parsed, list(memories), count)
        self.version = version
        self.name = version.packer_name
        self.title = f"ctx agent {version.number}"
        self.count = count or estimate
        self.parsed = parsed
        self.now = now if now.tzinfo else now.replace(tzinfo=UTC)
        if not version.ctxrc_percentages:
            knobs = replace(knobs, task_pct=DEFAULT_TASK_PCT, convention_pct=DEFAULT_CONVENTION_PCT, sources=())
        self.settings = knobs
        self.generated = rfc3339_utc(self.now)
        if version.absolute_paths:
            self.read_order = [go_join(root_path, ".context", name) for name in parsed.read_order_names]
        else:
            self.read_order = [go_join(context_dir, name) for name in parsed.read_order_names]
        self.constitution = parsed.constitution
        cost = self.count
        self.tier1 = sum(map(cost, self.read_order)) + sum(map(cost, self.constitution or [])) + cost(INSTRUCTION)

        self.tasks = parsed.tasks
        self.task_cum = [0, *accumulate(e.tokens for e in self.tasks)]
        self.conventions = parsed.conventions
        self.convention_cum = [0, *accumulate(e.tokens for e in self.conventions)]

        self.inactive: dict[str, Reason] = {
            m.key: INACTIVE_STATUSES[m.status] for m in memories if m.status in INACTIVE_STATUSES
        }
        self.scored: list[Entry] = [*parsed.decisions, *parsed.learnings, *memories]
        weights = [_memory_weight(e) for e in self.scored]
        self.zone = zone or self.now.tzinfo
        self.scorer = Scorer(
            self.scored, [e.text for e in self.tasks], self.now, weights, fold=version.fold, zone=self.zone
        )
        self.section_names = [s for s in SCORED_SECTIONS if s != "memories" or memories]
        self.section_members: dict[str, list[int]] = {name: [] for name in self.section_names}
        self.inactive_members: dict[str, list[int]] = {}
        for i, entry in enumerate(self.scored):
            if entry.key in self.inactive:
                self.inactive_members.setdefault(entry.section, []).append(i)
            else:
                self.section_members[entry.section].append(i)
        self.section_sizes = [sum(self.scored[i].tokens for i in self.section_members[n]) for n in self.section_names]
        self.section_present = [bool(self.section_members[n]) for n in self.section_names]
        self.title_tokens = [cost(e.title) for e in self.scored]
        self._tokens = [e.tokens for e in self.scored]
        self._superseded = [e.superseded for e in self.scored]
        self._rankings: OrderedDict[int, dict[str, list[int]]] = OrderedDict()
        # Per section, over the entries that can fill (not superseded): the smallest cost, and the sum of
        # their title costs. A fill stops once what is left of its limit is below that smallest cost:
        # nothing after can fit, and every later entry is summarised (its title costs are a subtraction).
        self.section_min_cost: dict[str, int] = {}
        self.section_titles: dict[str, int] = {}
        for name, members in self.section_members.items():
            fillable = [i for i in members if not self._superseded[i]]
            self.section_min_cost[name] = min((self._tokens[i] for i in fillable), default=NEVER_FITS)
            self.section_titles[name] = sum(self.title_tokens[i] for i in fillable)
        self._breakdowns: OrderedDict[int, list[ScoreBreakdown]] = OrderedDict()
        # The app assembles on the UI thread while a worker scans thresholds: the
        # caches above (and the scorer's) are shared, so each call holds this.
        self._lock = threading.RLock()

        usable = version.steering
        self.steering = [e for e in parsed.steering if usable and parsed.steering_fates[e.key] == "always"]
        self.steering_cum = [0, *accumulate(e.tokens for e in self.steering)]
        self.skill = _skill_entry(skill, cost) if skill is not None and version.steering else None
        self._candidates: list[Entry] | None = None

    def knobs(self) -> tuple[Knob, ...]:
        """The settings this version honours, with their values and sources."""
        return self.settings.describe(self.name)

    def rebuilt(self, **changes: Any) -> CtxPacker:
        """The same packer with some of its inputs changed (parsed, memories, knobs...): what-if questions."""
        return CtxPacker(**{**self._made_with, **changes})

    # -- ranking -------------------------------------------------------------

    def ranking(self, task_count: int) -> dict[str, list[int]]:
        """Each section's active entries, best score first (stable: file order on ties)."""
        with self._lock:
            return self._ranking(task_count)

    def _ranking(self, task_count: int) -> dict[str, list[int]]:
        cached = self._rankings.get(task_count)
        if cached is not None:
            self._rankings.move_to_end(task_count)
            return cached
        negated = [-score for score in self.scorer.scores(task_count)]
        key = negated.__getitem__  # a C call per comparison key, no Python frame: the sort of 50,000 is ~3x faster
        ranking = {name: sorted(members, key=key) for name, members in self.section_members.items()}
        self._rankings[task_count] = ranking
        while len(self._rankings) > self.RANKING_CACHE:
            self._rankings.popitem(last=False)
        return ranking

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

        ranking = self._ranking(state.task_count)
        shares = split_shares(remaining, self.section_sizes, self.section_present)
        used = self.tier1 + state.task_tokens + state.convention_tokens
        tokens, superseded, title_tokens = self._tokens, self._superseded, self.title_tokens
        for name, share in zip(self.section_names, shares, strict=True):
            order = ranking[name] if share > 0 else []
            fill = SectionFill(name=name, share=share, limit=full_limit(share), order=order, full=[], used_before=[])
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
                    Bucket(tier, label, fill.share, fill.full_tokens, fill.summary_tokens, full_limit=fill.limit)
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
        with self._lock, gc_paused():
            return self._outcomes(plan.state)

    def _outcomes(self, state: CtxState) -> list[Outcome]:
        out: list[Outcome] = []
        stop = state.stopped_after or 99
        parsed = self.parsed

        # Rules ctx parses lead (tier 1); the rules it cannot see (quirk 1) go last,
        # after everything that can reach the packet.
        rules_reached = bool(self.constitution)
        unseen: list[Outcome] = []
        for entry in parsed.constitution_candidates:
            if rules_reached:
                out.append(Outcome(entry, 1, Fate.INCLUDED, Reason.ALWAYS, AlwaysIn(self.tier1)))
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
        out += _prefix_outcomes(
            self.tasks,
            2,
            reached=stop > 1,
            cap=state.task_cap,
            count=state.task_count,
            forced=state.task_forced,
            cumulative=self.task_cum,
            base=PrefixFit(
                budget=budget,
                pct=self.settings.task_pct,
                pct_cap=pct_cap(budget, self.settings.task_pct),
                remaining=budget - self.tier1,
            ),
        )
        out += _prefix_outcomes(
            self.conventions,
            3,
            reached=stop > 2,
            cap=state.convention_cap,
            count=state.convention_count,
            forced=state.convention_forced,
            cumulative=self.convention_cum,
            base=PrefixFit(
                budget=budget,
                pct=self.settings.convention_pct,
                pct_cap=pct_cap(budget, self.settings.convention_pct),
                remaining=state.remaining_before_conventions,
            ),
        )
        for entry in parsed.conventions_skipped:
            out.append(Outcome(entry, 3, Fate.DROPPED, Reason.BEYOND_SCAN_LIMIT, ScanLimit(1000)))

        out += self._scored_outcomes(state, stop)

        steering_reached = stop > 5 and state.remaining_before_steering > 0
        out += _prefix_outcomes(
            self.steering,
            6,
            reached=steering_reached,
            cap=max(0, state.remaining_before_steering),
            count=state.steering_count,
            forced=state.steering_forced,
            cumulative=self.steering_cum,
            base=PrefixFit(remaining=state.remaining_before_steering),
        )
        for entry in parsed.steering:
            verdict = parsed.steering_fates[entry.key]
            if not self.version.steering:
                out.append(Outcome(entry, 6, Fate.DROPPED, Reason.NO_STEERING_TIER))
            elif verdict != "always":
                out.append(Outcome(entry, 6, Fate.DROPPED, Reason(verdict)))
        if self.skill is not None:
            out.append(self._skill_outcome(state, stop))
        return out + unseen

    def _skill_outcome(self, state: CtxState, stop: int) -> Outcome:
        skill = self.skill
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

    def _scored_outcomes(self, state: CtxState, stop: int) -> list[Outcome]:
        task_count = state.task_count if stop > 1 else 0
        breakdowns = self.breakdowns(task_count)
        ranking = self.ranking(task_count)
        fills = {fill.name: fill for fill in state.sections}
        scored, title_tokens = self.scored, self.title_tokens
        remaining = state.remaining_before_scored
        out: list[Outcome] = []
        append = out.append
        for name in self.section_names:
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
                for rank, (i, full, used) in enumerate(
                    zip(fill.order, fill.fulls(), fill.befores(), strict=True), start=1
                ):
                    entry = scored[i]
                    numbers = ShareFit(rank, entry.tokens, share, limit, used, title_tokens[i], remaining)
                    if full:
                        append(Outcome(entry, tier, Fate.INCLUDED, Reason.FULL, numbers, breakdowns[i]))
                    elif entry.superseded:
                        append(Outcome(entry, tier, Fate.DROPPED, Reason.SUPERSEDED, numbers, breakdowns[i]))
                    else:
                        append(Outcome(entry, tier, Fate.SUMMARIZED, Reason.OVER_FULL_LIMIT, numbers, breakdowns[i]))
            for i in self.inactive_members.get(name, ()):
                entry = scored[i]
                append(Outcome(entry, tier, Fate.DROPPED, self.inactive[entry.key], None, breakdowns[i]))
        return out

    def breakdowns(self, task_count: int) -> list[ScoreBreakdown]:
        """Every scored entry's breakdown with `task_count` packet tasks (cached: they only change with it)."""
        with self._lock:
            return self._breakdowns_for(task_count)

    def _breakdowns_for(self, task_count: int) -> list[ScoreBreakdown]:
        cached = self._breakdowns.get(task_count)
        if cached is not None:
            self._breakdowns.move_to_end(task_count)
            return cached
        scorer = self.scorer
        scores = scorer.scores(task_count)
        counts = scorer.match_counts(task_count)
        has_keywords = any(scorer.keyword_groups[:task_count])
        ranks = [0] * len(self.scored)
        for members in self.ranking(task_count).values():
            for rank, i in enumerate(members, start=1):
                ranks[i] = rank
        finder = scorer.matched_keywords
        result = [
            ScoreBreakdown(
                age_days=scorer.age_days[i],
                recency=scorer.recency[i],
                relevance=relevance_of(counts[i]) if has_keywords else 0.0,
                superseded=entry.superseded,
                total=scores[i] if ranks[i] else 0.0,
                rank=ranks[i],
                importance=entry.importance,
                usage=entry.usage,
                keyword_finder=partial(finder, i, task_count),
            )
            for i, entry in enumerate(self.scored)
        ]
        self._breakdowns[task_count] = result
        while len(self._breakdowns) > 8:
            self._breakdowns.popitem(last=False)
        return result

    # -- across budgets --------------------------------------------------------

    def candidates(self) -> list[Entry]:
        """Every candidate in a fixed order: rules, tasks, conventions, scored entries, steering."""
        if self._candidates is None:
            parsed = self.parsed
            self._candidates = [
                *parsed.constitution_candidates,
                *self.tasks,
                *self.conventions,
                *parsed.conventions_skipped,
                *self.scored,
                *self.steering,
                *(e for e in parsed.steering if e not in self.steering),
                *([self.skill] if self.skill is not None else []),
            ]
        return self._candidates

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
        superseded = self._superseded
        for fill in state.sections:
            order = fill.order
            for i, full in zip(order[: fill.stop], fill.full, strict=True):  # up to fill.stop
                if full:
                    fates[s + i] = INCLUDED
                elif not superseded[i]:
                    fates[s + i] = SUMMARIZED
            for i in order[fill.stop :]:  # nothing fitted from here on
                if not superseded[i]:
                    fates[s + i] = SUMMARIZED
        t = s + len(self.scored)
        fates[t : t + state.steering_count] = bytes([INCLUDED]) * state.steering_count
        if state.skill_included:
            fates[-1] = INCLUDED
        return fates

    def next_change(self, plan: Plan) -> int | None:
        return next_change(self, plan.state)

    def counts(self, plan: Plan) -> dict[str, int]:
        """Entries per fate from the fate vector (C-level counting), without building 50,000 outcomes."""
        fates = self.fate_vector(plan)
        included, summarized = fates.count(INCLUDED), fates.count(SUMMARIZED)
        return {
            Fate.INCLUDED.value: included,
            Fate.SUMMARIZED.value: summarized,
            Fate.DROPPED.value: len(fates) - included - summarized,
        }


def _prefix_tier(budget: int, pct: float, remaining: int | None, cumulative: list[int]) -> tuple[int, int, bool, int]:
    """A stop-at-first-misfit tier: (cap, items taken, first forced, tokens); `remaining` None: not clamped."""
    cap = pct_cap(budget, pct) if remaining is None else min(pct_cap(budget, pct), remaining)
    count, forced = fit_prefix(cumulative, cap)
    return cap, count, forced, cumulative[count]


def _prefix_outcomes(
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


def _skill_entry(skill: SkillFile, cost: Callable[[str], int]) -> Entry:
    label = f".context/skills/{skill.name}/SKILL.md"
    return Entry(
        key=f"skill:{label}",
        section="skill",
        title=skill.title or skill.name,
        text=skill.body,
        tokens=cost(skill.body),
        source=f"{label}:{skill.line}",
    )


def _recost(parsed: ParsedContext, memories: list[Entry], count: Callable[[str], int]) -> tuple[Any, list[Entry]]:
    """The same candidates, with token costs from another tokenizer."""

    def each(entries: list[Entry]) -> list[Entry]:
        return [replace(e, tokens=count(e.text)) for e in entries]

    recosted = replace(
        parsed,
        tasks=each(parsed.tasks),
        conventions=each(parsed.conventions),
        decisions=each(parsed.decisions),
        learnings=each(parsed.learnings),
        steering=each(parsed.steering),
    )
    return recosted, each(memories)


def _memory_weight(entry: Entry) -> float:
    """Importance and usage scale a memory's score; 1.0 at importance 0.5 and no usage data."""
    if entry.importance is None and entry.usage is None:
        return 1.0
    importance = entry.importance if entry.importance is not None else 0.5
    usage = entry.usage if entry.usage is not None else 1.0
    return (0.5 + importance) * usage


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
