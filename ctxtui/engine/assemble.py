"""Tier-by-tier packet assembly, exactly as ctx 0.8.1, with a reason for every entry.

`Engine` holds everything that does not depend on the budget (parsed entries,
costs, prefix sums, the scorer), so `assemble(budget)` only walks the tiers.
Assembly first produces a compact `Plan` (counts, caps, shares, which entries
went in full); the packet's text and the per-entry `Outcome`s are derived from
it, the outcomes only when someone asks for them.
"""

from __future__ import annotations

import posixpath
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from functools import partial
from itertools import accumulate

from ctxtui.engine.budget import (
    DEFAULT_CONVENTION_PCT,
    DEFAULT_TASK_PCT,
    estimate,
    fit_prefix,
    full_limit,
    pct_cap,
    split_shares,
)
from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import (
    TIER_NAMES,
    TIER_OF_SECTION,
    Entry,
    Fate,
    Outcome,
    Packet,
    Reason,
    ScoreBreakdown,
    TierAllocation,
)
from ctxtui.engine.reader import INSTRUCTION, ParsedContext
from ctxtui.engine.score import Scorer, relevance_of

SCORED_SECTIONS = ("decisions", "learnings", "memories")
INACTIVE_STATUSES = {"archived": Reason.ARCHIVED, "superseded": Reason.SUPERSEDED}


@dataclass(frozen=True, slots=True)
class Policy:
    """The knobs ctx reads from .ctxrc; defaults are ctx's."""

    task_pct: float = DEFAULT_TASK_PCT
    convention_pct: float = DEFAULT_CONVENTION_PCT
    tool: str = ""


@dataclass(slots=True)
class SectionFill:
    """One scored section's share and what its fill did with it."""

    name: str
    share: int
    limit: int  # 80% of the share
    order: list[int]  # indices into Engine.scored, best score first (active entries only)
    full: list[bool]  # per position in `order`
    used_before: list[int]  # full tokens already used when each entry was considered
    full_tokens: int = 0
    summary_tokens: int = 0


@dataclass(slots=True)
class Plan:
    """Every number one assembly decided, small enough to compute per slider step."""

    budget: int
    tier1: int
    stopped_after: int | None = None  # tier after which the budget ran out
    task_cap: int = 0
    task_count: int = 0
    task_forced: bool = False
    task_tokens: int = 0
    remaining_before_conventions: int = 0
    convention_cap: int = 0
    convention_count: int = 0
    convention_forced: bool = False
    convention_tokens: int = 0
    remaining_before_scored: int = 0
    sections: list[SectionFill] = field(default_factory=list)
    remaining_before_steering: int = 0
    steering_count: int = 0
    steering_forced: bool = False
    steering_tokens: int = 0
    tokens_used: int = 0


class Engine:
    """Assembles packets for one parsed workspace, one "now" and one root path."""

    RANKING_CACHE = 64

    def __init__(
        self,
        parsed: ParsedContext,
        *,
        now: datetime,
        root_path: str | None = None,
        policy: Policy = Policy(),
        memories: list[Entry] | None = None,
        count: Callable[[str], int] | None = None,
    ):
        if count is not None:
            parsed, memories = _recost(parsed, memories or [], count)
        self.count = count or estimate
        self.parsed = parsed
        self.now = now if now.tzinfo else now.replace(tzinfo=timezone.utc)
        self.policy = policy
        root = root_path if root_path is not None else str(parsed.files.root)
        self.read_order = [_go_join(root, ".context", name) for name in parsed.read_order_names]
        self.constitution = parsed.constitution
        cost = self.count
        self.tier1 = sum(map(cost, self.read_order)) + sum(map(cost, self.constitution or [])) + cost(INSTRUCTION)

        self.tasks = parsed.tasks
        self.task_cum = [0, *accumulate(e.tokens for e in self.tasks)]
        self.conventions = parsed.conventions
        self.convention_cum = [0, *accumulate(e.tokens for e in self.conventions)]

        memories = memories or []
        self.inactive: dict[str, Reason] = {
            m.key: INACTIVE_STATUSES[m.status] for m in memories if m.status in INACTIVE_STATUSES
        }
        self.scored: list[Entry] = [*parsed.decisions, *parsed.learnings, *memories]
        weights = [_memory_weight(e) for e in self.scored]
        self.scorer = Scorer(self.scored, [e.text for e in self.tasks], self.now, weights)
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
        self._rankings: OrderedDict[int, dict[str, list[int]]] = OrderedDict()
        self._breakdowns: OrderedDict[int, list[ScoreBreakdown]] = OrderedDict()
        # The app assembles on the UI thread while a worker scans thresholds: the
        # caches above (and the scorer's) are shared, so each call holds this.
        self._lock = threading.RLock()

        self.steering = [e for e in parsed.steering if parsed.steering_fates[e.key] == "always"]
        self.steering_cum = [0, *accumulate(e.tokens for e in self.steering)]

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
        scores = self.scorer.scores(task_count)
        ranking = {
            name: sorted(members, key=lambda i: -scores[i]) for name, members in self.section_members.items()
        }
        self._rankings[task_count] = ranking
        while len(self._rankings) > self.RANKING_CACHE:
            self._rankings.popitem(last=False)
        return ranking

    # -- assembly ------------------------------------------------------------

    def plan(self, budget: int) -> Plan:
        """Walk the tiers for one budget; see the spec's "Assembly, tier by tier"."""
        with self._lock:
            return self._plan(budget)

    def _plan(self, budget: int) -> Plan:
        plan = Plan(budget=budget, tier1=self.tier1)
        remaining = budget - self.tier1
        if remaining <= 0:
            plan.stopped_after = 1
            plan.tokens_used = self.tier1
            return plan

        # Tiers 2 and 3 follow the same rule: a share of the whole budget, capped by what is left.
        plan.task_cap, plan.task_count, plan.task_forced, plan.task_tokens = _prefix_tier(
            budget, self.policy.task_pct, remaining, self.task_cum)
        remaining -= plan.task_tokens
        plan.remaining_before_conventions = remaining
        if remaining <= 0:
            plan.stopped_after = 2
            plan.tokens_used = budget - remaining
            return plan

        plan.convention_cap, plan.convention_count, plan.convention_forced, plan.convention_tokens = _prefix_tier(
            budget, self.policy.convention_pct, remaining, self.convention_cum)
        remaining -= plan.convention_tokens
        plan.remaining_before_scored = remaining
        if remaining <= 0:
            plan.stopped_after = 3
            plan.tokens_used = budget - remaining
            return plan

        ranking = self.ranking(plan.task_count)
        shares = split_shares(remaining, self.section_sizes, self.section_present)
        used = self.tier1 + plan.task_tokens + plan.convention_tokens
        tokens = [e.tokens for e in self.scored]
        superseded = [e.superseded for e in self.scored]
        for name, share in zip(self.section_names, shares):
            order = ranking[name] if share > 0 else []
            fill = SectionFill(name=name, share=share, limit=full_limit(share), order=order, full=[], used_before=[])
            limit = fill.limit
            section_used = 0
            summary_tokens = 0
            full_flags = fill.full
            before = fill.used_before
            for i in order:
                before.append(section_used)
                if superseded[i]:
                    full_flags.append(False)
                    continue
                cost = tokens[i]
                if section_used + cost <= limit:
                    full_flags.append(True)
                    section_used += cost
                else:
                    full_flags.append(False)
                    summary_tokens += self.title_tokens[i]
            fill.full_tokens = section_used
            fill.summary_tokens = summary_tokens
            used += section_used + summary_tokens
            plan.sections.append(fill)

        remaining = budget - used
        plan.remaining_before_steering = remaining
        if remaining > 0 and self.steering:
            plan.steering_count, plan.steering_forced = fit_prefix(self.steering_cum, remaining)
            plan.steering_tokens = self.steering_cum[plan.steering_count]
        elif remaining <= 0:
            plan.stopped_after = 5
        plan.tokens_used = used + plan.steering_tokens
        return plan

    def assemble(self, budget: int) -> Packet:
        """The packet for `budget`: ctx's output and every entry's outcome."""
        plan = self.plan(budget)
        by_section: dict[str, list[str]] = {name: [] for name in SCORED_SECTIONS}
        summaries: list[str] = []
        for fill in plan.sections:
            full_texts = by_section[fill.name]
            for i, full in zip(fill.order, fill.full):
                entry = self.scored[i]
                if full:
                    full_texts.append(entry.text)
                elif not entry.superseded:
                    summaries.append(entry.title)
        return Packet(
            budget=budget,
            tokens_used=plan.tokens_used,
            generated=format_generated(self.now),
            read_order=self.read_order,
            constitution=self.constitution,
            tasks=[e.text for e in self.tasks[: plan.task_count]],
            conventions=[e.text for e in self.conventions[: plan.convention_count]],
            decisions=by_section["decisions"],
            learnings=by_section["learnings"],
            memories=by_section["memories"],
            summaries=summaries,
            steering=[e.text for e in self.steering[: plan.steering_count]],
            instruction=INSTRUCTION,
            tiers=self.tier_allocations(plan),
            build_outcomes=lambda: self.outcomes(plan),
        )

    # -- explanations --------------------------------------------------------

    def tier_allocations(self, plan: Plan) -> list[TierAllocation]:
        """One bar per tier (one per scored section), with cap, use and overrun."""
        budget = plan.budget
        stop = plan.stopped_after or 99
        bars = [TierAllocation(1, TIER_NAMES[1], None, self.tier1, overrun=max(0, self.tier1 - budget))]

        def capped(tier: int, cap: int, used: int, forced: bool) -> TierAllocation:
            return TierAllocation(tier, TIER_NAMES[tier], cap, used, overrun=max(0, used - cap) if forced else 0)

        bars.append(capped(2, plan.task_cap, plan.task_tokens, plan.task_forced) if stop > 1
                    else TierAllocation(2, TIER_NAMES[2], 0, 0, reached=False))
        bars.append(capped(3, plan.convention_cap, plan.convention_tokens, plan.convention_forced) if stop > 2
                    else TierAllocation(3, TIER_NAMES[3], 0, 0, reached=False))
        fills = {fill.name: fill for fill in plan.sections}
        for name in self.section_names:
            tier = TIER_OF_SECTION[name]
            label = TIER_NAMES[tier] if name != "memories" else "Tier 5 · memories"
            fill = fills.get(name)
            if fill is None:
                bars.append(TierAllocation(tier, label, 0, 0, reached=False, full_limit=0))
            else:
                bars.append(TierAllocation(tier, label, fill.share, fill.full_tokens, fill.summary_tokens,
                                           full_limit=fill.limit))
        steering_cap = max(0, plan.remaining_before_steering) if stop > 3 else 0
        bars.append(
            TierAllocation(6, TIER_NAMES[6], steering_cap, plan.steering_tokens,
                           overrun=max(0, plan.steering_tokens - steering_cap) if plan.steering_forced else 0,
                           reached=stop > 5 and plan.remaining_before_steering > 0)
        )
        return bars

    def outcomes(self, plan: Plan) -> list[Outcome]:
        """An outcome for every candidate, in packet order (rules ctx cannot see last).

        The cyclic garbage collector is paused meanwhile: these are tens of
        thousands of acyclic tuples, and with a large heap (50,000 memories) the
        collections they trigger cost more than building them.
        """
        with self._lock, gc_paused():
            return self._outcomes(plan)

    def _outcomes(self, plan: Plan) -> list[Outcome]:
        out: list[Outcome] = []
        stop = plan.stopped_after or 99
        parsed = self.parsed

        # Rules ctx parses lead (tier 1); the rules it cannot see (quirk 1) go last,
        # after everything that can reach the packet.
        rules_reached = bool(self.constitution)
        unseen: list[Outcome] = []
        for entry in parsed.constitution_candidates:
            if rules_reached:
                out.append(Outcome(entry, 1, Fate.INCLUDED, Reason.ALWAYS, {"tier1": self.tier1}))
            else:
                unseen.append(Outcome(entry, 1, Fate.DROPPED, Reason.CONSTITUTION_PATTERN,
                                      {"rules_in_file": len(parsed.constitution_candidates)}))

        out += self._prefix_outcomes(
            self.tasks, 2, reached=stop > 1, cap=plan.task_cap, count=plan.task_count,
            forced=plan.task_forced, cumulative=self.task_cum,
            numbers={"budget": plan.budget, "pct": self.policy.task_pct,
                     "pct_cap": pct_cap(plan.budget, self.policy.task_pct),
                     "remaining": plan.budget - self.tier1},
        )
        out += self._prefix_outcomes(
            self.conventions, 3, reached=stop > 2, cap=plan.convention_cap, count=plan.convention_count,
            forced=plan.convention_forced, cumulative=self.convention_cum,
            numbers={"budget": plan.budget, "pct": self.policy.convention_pct,
                     "pct_cap": pct_cap(plan.budget, self.policy.convention_pct),
                     "remaining": plan.remaining_before_conventions},
        )
        for entry in parsed.conventions_skipped:
            out.append(Outcome(entry, 3, Fate.DROPPED, Reason.BEYOND_SCAN_LIMIT, {"limit": 1000}))

        out += self._scored_outcomes(plan, stop)

        steering_reached = stop > 5 and plan.remaining_before_steering > 0
        out += self._prefix_outcomes(
            self.steering, 6, reached=steering_reached, cap=max(0, plan.remaining_before_steering),
            count=plan.steering_count, forced=plan.steering_forced, cumulative=self.steering_cum,
            numbers={"remaining": plan.remaining_before_steering},
        )
        for entry in parsed.steering:
            verdict = parsed.steering_fates[entry.key]
            if verdict != "always":
                out.append(Outcome(entry, 6, Fate.DROPPED, Reason(verdict), {}))
        return out + unseen

    def _prefix_outcomes(self, entries, tier, *, reached, cap, count, forced, cumulative, numbers):
        """Outcomes for a stop-at-first-misfit tier (tasks, conventions, steering)."""
        out = []
        if not reached:
            return [Outcome(e, tier, Fate.DROPPED, Reason.NOT_REACHED, dict(numbers)) for e in entries]
        blocker = entries[count].key if count < len(entries) else None
        for index, entry in enumerate(entries):
            detail = {**numbers, "cap": cap, "used_before": cumulative[index], "needs": entry.tokens}
            if index < count:
                reason = Reason.FORCED_FIRST if forced else Reason.FITS
                out.append(Outcome(entry, tier, Fate.INCLUDED, reason, detail))
            elif index == count:
                out.append(Outcome(entry, tier, Fate.DROPPED, Reason.OVER_CAP, detail))
            else:
                detail["used_before"] = cumulative[count]
                out.append(Outcome(entry, tier, Fate.DROPPED, Reason.AFTER_MISFIT, detail, blocked_by=blocker))
        return out

    def _scored_outcomes(self, plan: Plan, stop: int) -> list[Outcome]:
        task_count = plan.task_count if stop > 1 else 0
        breakdowns = self.breakdowns(task_count)
        ranking = self.ranking(task_count)
        fills = {fill.name: fill for fill in plan.sections}
        scored, title_tokens = self.scored, self.title_tokens
        remaining = plan.remaining_before_scored
        out = []
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
                    numbers = {"rank": rank, "needs": entry.tokens, "share": share}
                    why = Reason.SUPERSEDED if entry.superseded else reason
                    append(Outcome(entry, tier, Fate.DROPPED, why, numbers, breakdowns[i]))
            else:
                share, limit = fill.share, fill.limit
                for rank, (i, full, used) in enumerate(zip(fill.order, fill.full, fill.used_before), start=1):
                    entry = scored[i]
                    numbers = {"rank": rank, "needs": entry.tokens, "share": share, "full_limit": limit,
                               "used_before": used, "title_tokens": title_tokens[i], "remaining": remaining}
                    if full:
                        append(Outcome(entry, tier, Fate.INCLUDED, Reason.FULL, numbers, breakdowns[i]))
                    elif entry.superseded:
                        append(Outcome(entry, tier, Fate.DROPPED, Reason.SUPERSEDED, numbers, breakdowns[i]))
                    else:
                        append(Outcome(entry, tier, Fate.SUMMARIZED, Reason.OVER_FULL_LIMIT, numbers, breakdowns[i]))
            for i in self.inactive_members.get(name, ()):
                entry = scored[i]
                append(Outcome(entry, tier, Fate.DROPPED, self.inactive[entry.key], {}, breakdowns[i]))
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


def _prefix_tier(budget: int, pct: float, remaining: int, cumulative: list[int]) -> tuple[int, int, bool, int]:
    """A stop-at-first-misfit tier: (cap, items taken, first forced, tokens)."""
    cap = min(pct_cap(budget, pct), remaining)
    count, forced = fit_prefix(cumulative, cap)
    return cap, count, forced, cumulative[count]


def _recost(parsed: ParsedContext, memories: list[Entry], count: Callable[[str], int]):
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


def _go_join(*parts: str) -> str:
    """filepath.Join: join, then Clean (which also folds a leading "//")."""
    joined = posixpath.normpath(posixpath.join(*parts))
    return "/" + joined.lstrip("/") if joined.startswith("//") else joined


def format_generated(now: datetime) -> str:
    """time.RFC3339 in UTC, whole seconds."""
    return now.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
