"""Advice: the cheapest changes that would put an entry in full (or at all), each checked before it is shown.

For an entry that is summarized or dropped, ctxtui tries the moves a user
can make — raise the budget, shorten the entry, shorten or move what blocks
it, change a setting, mention the task words it lacks — and keeps only those
that re-assembling the packet with the change confirms. The numbers come from
the packer's own arithmetic; nothing here guesses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass

from ctxtui.engine.explain.thresholds import Threshold
from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Entry, Plan
from ctxtui.engine.packers.base import Packer
from ctxtui.engine.packers.ctx.assemble import CtxPacker
from ctxtui.engine.packers.ctx.knobs import CONVENTION_PCT, TASK_PCT
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.sources.context import SUPERSEDED_PREFIX
from ctxtui.engine.text.go import go_trim
from ctxtui.engine.text.tokens import estimate

PCT_STEP = 0.01

# The caller's bound on one search (`advise_bounded`): each move is verified by re-assembling the packet, and
# at 50,000 memories one re-assembly costs ~0.4 s, so trying every share 1 % apart took 23 s of CPU (85 s
# under load). A context variable (each thread has its own) carries it to every check without threading a
# parameter through each kind of move; the engine reads no clock: the callable is the caller's.
_STOP: ContextVar[Callable[[], bool] | None] = ContextVar("advice_stop", default=None)


class _Stopped(Exception):
    """The caller's `should_stop` said so: the search ends with what it has verified."""


def _check() -> None:
    stop = _STOP.get()
    if stop is not None and stop():
        raise _Stopped


@dataclass(frozen=True, slots=True)
class Advice:
    """One verified move: what to do, in words, and what it costs."""

    kind: str  # "budget", "shorten", "blocker", "move", "setting", "words", "superseded", "status", "pattern"
    text: str
    cost: int  # tokens (or hundredths of a share, for settings): how big the change is, for ordering


def goal_met(fate: Fate | None, goal: str) -> bool:
    return fate is Fate.INCLUDED if goal == "full" else fate in (Fate.INCLUDED, Fate.SUMMARIZED)


def advise(
    packer: Packer, budget: int, key: str, threshold: Threshold | None, goal: str = "full", limit: int = 4
) -> list[Advice]:
    """Up to `limit` verified moves that get entry `key` in full (`goal="full"`) or at all (`"any"`)."""
    return advise_bounded(packer, budget, key, threshold, goal, limit)[0]


def advise_bounded(
    packer: Packer,
    budget: int,
    key: str,
    threshold: Threshold | None,
    goal: str = "full",
    limit: int = 4,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[list[Advice], bool]:
    """`advise`, and whether the search was complete: `should_stop` (polled before each re-assembly) ends
    it early with the moves verified so far (`ctxtui.deadline.stop_after` makes one from seconds)."""
    plan = packer.plan(budget)
    outcome = plan.outcome(key)
    if outcome is None or goal_met(outcome.fate, goal):
        return [], True
    found: list[tuple[int, int, Advice]] = []  # (cost, place in the listing order, advice)
    budget_advice = _budget(packer, budget, key, threshold, goal)
    if budget_advice:
        found.append((budget_advice.cost, 0, budget_advice))
    complete = True
    if isinstance(packer, CtxPacker):
        listed = (_shorten_self, _blocker, _settings, _words, fate_moves)  # ties in cost keep this order
        token = _STOP.set(should_stop)
        try:
            for maker in (_shorten_self, _blocker, fate_moves, _words, _settings):  # tried costliest last
                place = 1 + listed.index(maker)
                found += [(advice.cost, place, advice) for advice in maker(packer, plan, key, goal)]
        except _Stopped:
            complete = False
        finally:
            _STOP.reset(token)
    found.sort(key=lambda item: item[:2])
    return [advice for _cost, _place, advice in found[:limit]], complete


def _fate(packer: Packer, budget: int, key: str) -> Fate | None:
    _check()
    outcome = packer.plan(budget).outcome(key)
    return outcome.fate if outcome else None


def _budget(packer: Packer, budget: int, key: str, threshold: Threshold | None, goal: str) -> Advice | None:
    if threshold is None:
        return None
    ranges = threshold.full_ranges if goal == "full" else threshold.any_ranges
    above = [lo for lo, hi in ranges if lo > budget]
    below = [min(hi - 1, budget - 1) for lo, hi in ranges if hi is not None and lo < budget]
    words = "in full" if goal == "full" else "in the packet"
    if above and goal_met(_fate(packer, above[0], key), goal):
        target = above[0]
        text = f"raise the budget to {target:,} (+{target - budget:,} tokens): it is {words} from there"
        if below and goal_met(_fate(packer, below[-1], key), goal):
            text += f" — or lower it to {below[-1]:,}, where it is {words} too (not monotone)"
        return Advice("budget", text, target - budget)
    if below and goal_met(_fate(packer, below[-1], key), goal):
        return Advice(
            "budget", f"lower the budget to {below[-1]:,}: it is {words} there (not monotone)", budget - below[-1]
        )
    return None


def _with_tokens(entries: Iterable[Entry], key: str, tokens: int) -> list[Entry]:
    return [e._replace(tokens=tokens) if e.key == key else e for e in entries]


def _recosted(packer: CtxPacker, key: str, tokens: int) -> CtxPacker:
    parsed = packer.inputs.parsed
    memories = packer.inputs.memories
    changed = parsed._replace(
        tasks=_with_tokens(parsed.tasks, key, tokens),
        conventions=_with_tokens(parsed.conventions, key, tokens),
        decisions=_with_tokens(parsed.decisions, key, tokens),
        learnings=_with_tokens(parsed.learnings, key, tokens),
        steering=_with_tokens(parsed.steering, key, tokens),
    )
    return packer.rebuilt(parsed=changed, memories=_with_tokens(memories, key, tokens))


def _smallest(lo: int, hi: int, works: Callable[[int], bool]) -> int | None:
    """The smallest k in [lo, hi] for which works(k), assuming it keeps working above; None if hi fails."""
    if hi < lo or not works(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if works(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _shorten_self(packer: CtxPacker, plan: Plan, key: str, goal: str) -> list[Advice]:
    outcome = plan.outcome(key)
    assert outcome is not None
    entry = outcome.entry
    if packer.inputs.counter is not None or entry.tokens <= 1 or outcome.reason is Reason.AFTER_MISFIT:
        return []
    if outcome.reason not in (Reason.OVER_CAP, Reason.OVER_FULL_LIMIT, Reason.SKILL_TOO_BIG):
        return []

    def works(cut: int) -> bool:
        _check()
        return goal_met(_fate(_recosted(packer, key, entry.tokens - cut), plan.budget, key), goal)

    cut = _smallest(1, entry.tokens - 1, works)
    if cut is None:
        return []
    return [
        Advice(
            "shorten",
            f"shorten it by {cut:,} tokens (about {cut * 4:,} characters), "
            f"from {entry.tokens:,} to {entry.tokens - cut:,}",
            cut,
        )
    ]


def _blocker(packer: CtxPacker, plan: Plan, key: str, goal: str) -> list[Advice]:
    outcome = plan.outcome(key)
    assert outcome is not None
    if outcome.reason is not Reason.AFTER_MISFIT or not outcome.blocked_by:
        return []
    blocker = plan.outcome(outcome.blocked_by)
    if blocker is None:
        return []
    where = blocker.entry.source
    found = []
    if packer.inputs.counter is None and blocker.entry.tokens > 1:

        def works(cut: int) -> bool:
            _check()
            return goal_met(
                _fate(_recosted(packer, blocker.entry.key, blocker.entry.tokens - cut), plan.budget, key), goal
            )

        cut = _smallest(1, blocker.entry.tokens - 1, works)
        if cut is not None:
            found.append(
                Advice(
                    "blocker",
                    f"shorten the entry that stopped the fill ({where}, "
                    f"{blocker.entry.tokens:,} tokens) by {cut:,} tokens",
                    cut,
                )
            )
    moved = _moved_before(packer, key, blocker.entry.key)
    if moved is not None and goal_met(_fate(moved, plan.budget, key), goal):
        found.append(
            Advice(
                "move",
                f"move it above {where}, the entry that stopped the fill: "
                f"the fill takes entries in file order and stops at the first misfit",
                outcome.entry.tokens,
            )
        )
    return found


def _moved_before(packer: CtxPacker, key: str, before_key: str) -> CtxPacker | None:
    parsed = packer.inputs.parsed
    for field_name in ("tasks", "conventions"):
        entries = list(getattr(parsed, field_name))
        keys = [e.key for e in entries]
        if key in keys and before_key in keys:
            entry = entries.pop(keys.index(key))
            entries.insert([e.key for e in entries].index(before_key), entry)
            if field_name == "tasks":
                return packer.rebuilt(parsed=parsed._replace(tasks=entries))
            return packer.rebuilt(parsed=parsed._replace(conventions=entries))
    return None


def _settings(packer: CtxPacker, plan: Plan, key: str, goal: str) -> list[Advice]:
    outcome = plan.outcome(key)
    assert outcome is not None
    honoured = {knob.key for knob in packer.knobs()}
    section = outcome.entry.section
    found = []
    candidates: list[tuple[str, float, int]] = []  # (knob, current, direction)
    if section == "tasks" and TASK_PCT in honoured:
        candidates.append((TASK_PCT, packer.settings.task_pct, +1))
    if section == "conventions" and CONVENTION_PCT in honoured:
        candidates.append((CONVENTION_PCT, packer.settings.convention_pct, +1))
    if section in ("decisions", "learnings", "memories", "steering", "skill"):
        # Later tiers get what tiers 2 and 3 leave: smaller shares for them can help.
        if TASK_PCT in honoured:
            candidates.append((TASK_PCT, packer.settings.task_pct, -1))
        if CONVENTION_PCT in honoured:
            candidates.append((CONVENTION_PCT, packer.settings.convention_pct, -1))
    for name, current, direction in candidates:
        steps = round((1.0 - current) / PCT_STEP) if direction > 0 else round(current / PCT_STEP)

        def value(step: int, current: float = current, direction: int = direction) -> float:
            return round(current + direction * step * PCT_STEP, 4)

        def works(step: int, name: str = name, value: Callable[[int], float] = value) -> bool:
            _check()
            rebuilt = packer.rebuilt(knobs=packer.settings.with_values({name: value(step)}))
            return goal_met(_fate(rebuilt, plan.budget, key), goal)

        # Not monotone in general (a larger task share can change which tasks, so which keywords):
        # take the first share that works, walking from the current one.
        step = next((s for s in range(1, steps + 1) if works(s)), None)
        if step is not None:
            label = next((knob.label for knob in packer.knobs() if knob.key == name), name)
            # As the settings line and the knobs dialog write a share (30%), with the key --set takes.
            text = f"set the {label} ({name}) to {value(step):.0%} (now {current:.0%})"
            found.append(Advice("setting", text, step * 10))
    return found


def _words(packer: CtxPacker, plan: Plan, key: str, goal: str) -> list[Advice]:
    outcome = plan.outcome(key)
    assert outcome is not None
    score = outcome.score
    if score is None or outcome.reason is not Reason.OVER_FULL_LIMIT or score.relevance >= 1.0:
        return []
    matched = set(score.matched_keywords)
    task_count = plan.state.task_count
    lacking = [kw for kw in packer.scorer.keywords(task_count) if kw not in matched]
    if not lacking:
        return []
    needed = 3 - len(matched)
    words = lacking[:needed]
    extra = " " + " ".join(words)
    parsed = packer.inputs.parsed

    def with_text(entries: Iterable[Entry]) -> list[Entry]:
        return [
            e._replace(text=e.text + extra, tokens=e.tokens + (len(extra) + 3) // 4) if e.key == key else e
            for e in entries
        ]

    rebuilt = packer.rebuilt(
        parsed=parsed._replace(decisions=with_text(parsed.decisions), learnings=with_text(parsed.learnings)),
        memories=with_text(packer.inputs.memories),
    )
    if not goal_met(_fate(rebuilt, plan.budget, key), goal):
        return []
    return [
        Advice(
            "words",
            f"mention the task words it lacks ({', '.join(words)}): relevance "
            f"{score.relevance:.2f} → 1.00, which lifts it past the entries ranked above it",
            (len(extra) + 3) // 4,
        )
    ]


def describe_advice(advice: list[Advice], goal: str = "full", complete: bool = True) -> str:
    """ "To get it in full: raise the budget to 4,350 (+350 tokens); or shorten it by 12 tokens"."""
    cut = "" if complete else " (the search stopped at its time bound: there may be other moves)"
    if not advice:
        return "" if complete else "No move found before the search's time bound (there may be some)"
    words = "in full" if goal == "full" else "in"
    return f"To get it {words}: " + "; or ".join(a.text for a in advice) + cut


# -- fates the budget does not decide -------------------------------------------------
# No budget brings a superseded or archived entry in, or a rule ctx's constitution pattern misses: "raise the
# budget" never applies, so the user hears what would (the ~~Superseded line and where it is, the memory
# status, the one-line CONSTITUTION.md), each re-assembled on a copy of the inputs like every other move.


def fate_moves(packer: CtxPacker, plan: Plan, key: str, goal: str) -> list[Advice]:
    """Verified moves for an entry dropped as superseded, archived or unseen by ctx's constitution pattern."""
    outcome = plan.outcome(key)
    if outcome is None:
        return []
    entry, reason = outcome.entry, outcome.reason

    def works(rebuilt: CtxPacker) -> bool:
        return goal_met(_fate(rebuilt, plan.budget, key), goal)

    if reason is Reason.SUPERSEDED and entry.superseded:
        return _unsupersede(packer, entry, works)
    if reason in (Reason.SUPERSEDED, Reason.ARCHIVED) and entry.status is not None:
        memories = [m._replace(status="active") if m.key == key else m for m in packer.inputs.memories]
        if works(packer.rebuilt(memories=memories)):
            text = f"its status is {entry.status}: set it back to active in the memory store ({entry.location})"
            return [Advice("status", text, 0)]
        return []
    if reason is Reason.CONSTITUTION_PATTERN:
        parsed = packer.inputs.parsed
        if works(packer.rebuilt(parsed=parsed._replace(constitution=[entry.title]))):
            text = (
                "ctx's pattern reads CONSTITUTION.md only when the whole file is one rule line "
                f"(`- [ ] {entry.title}`, no heading, no newline at the end): then this rule is always in"
            )
            return [Advice("pattern", text, 0)]
    return []


def _unsupersede(packer: CtxPacker, entry: Entry, works: Callable[[CtxPacker], bool]) -> list[Advice]:
    """Remove the entry's `~~Superseded` line(s); say where the first one is."""
    lines = entry.text.split("\n")
    marked = [i for i, line in enumerate(lines) if go_trim(line).startswith(SUPERSEDED_PREFIX)]
    if not marked:
        return []
    text = "\n".join(line for i, line in enumerate(lines) if i not in marked)
    changed = entry._replace(text=text, tokens=estimate(text), superseded=False)
    parsed = packer.inputs.parsed

    def swap(entries: list[Entry]) -> list[Entry]:
        return [changed if e.key == entry.key else e for e in entries]

    rebuilt = packer.rebuilt(parsed=parsed._replace(decisions=swap(parsed.decisions), learnings=swap(parsed.learnings)))
    if not works(rebuilt):
        return []
    path, _, first = entry.location.rpartition(":")
    where = f"line {int(first) + marked[0]} of {path}" if first.isdigit() else path
    mark = go_trim(lines[marked[0]])
    mark = mark if len(mark) <= 60 else mark[:59] + "…"
    return [Advice("superseded", f"it is marked superseded (“{mark}”, {where}): remove that line if it still holds", 0)]
