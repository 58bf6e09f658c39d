"""Comparing what is on screen with something else: the last step, a pinned state, another ctx version.

The tuning loop needs a memory. After each step (a slider move, a knob
edit) the entries whose fate changed are marked ▲ (up: dropped → title,
title → full) or ▼ (down), with a one-line summary. A *pin* keeps one state
(packer, knobs, budget); from then on every entry whose fate differs from it
is marked ◆ and can be filtered, the bars show each bucket's token delta, and
the preview can show the packet as a unified diff against it. Comparing with
another ctx version is a pin that follows the current budget ("differs in
0.8.0"). Plain Python, no Textual: the numbers come from `engine.explain.diff`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ctxtui.engine.explain.diff import PlanDiff, diff_plans, step_summary
from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Plan
from ctxtui.engine.packers.base import Packer

UP, DOWN, DIFFERS, EDITED = "▲", "▼", "◆", "✎"
_RANK = {Fate.DROPPED: 0, Fate.SUMMARIZED: 1, Fate.INCLUDED: 2, None: -1}


@dataclass(frozen=True, slots=True)
class Pin:
    """A state to compare with: a packer (with its knobs) at a fixed budget, or at whatever budget is shown."""

    packer: Packer
    budget: int | None  # None: follows the budget on screen (comparing versions)
    label: str  # in words, e.g. "the pin (ctx 0.8.1 at 4,000 tokens)" or "ctx 0.8.0 at this budget"

    def plan(self, budget: int) -> Plan:
        return self.packer.plan(self.budget if self.budget is not None else budget)


@dataclass(frozen=True, slots=True)
class Comparison:
    """How the plan on screen differs from another: the diff, the marks it gives, a line of words."""

    diff: PlanDiff
    marks: dict[str, str]  # entry key → UP, DOWN or DIFFERS
    summary: str

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(self.marks)


def step_comparison(before: Plan, after: Plan) -> Comparison:
    """The last step: ▲/▼ for each entry whose fate moved, ✎ for one edited, and "3 moved to full, 1 new: …"."""
    diff = diff_plans(before, after)
    marks = {
        change.entry.key: UP if _RANK[change.after] > _RANK[change.before] else DOWN
        for change in diff.changed
        if change.after is not None  # gone: no row to mark (the step line counts it)
    }
    _mark_edited(marks, diff)
    return Comparison(diff, marks, step_summary(diff))


def _mark_edited(marks: dict[str, str], diff: PlanDiff) -> None:
    """✎ for an entry whose own text changed and whose fate did not (a move's ▲/▼ says more)."""
    for entry in diff.edited:
        marks.setdefault(entry.key, EDITED)


def pin_comparison(pin: Pin, after: Plan) -> Comparison:
    """Against a pin: ◆ for each entry whose fate differs, and how many and how many tokens, in words."""
    diff = diff_plans(pin.plan(after.budget), after)
    marks = dict.fromkeys((change.entry.key for change in diff.changed if change.after is not None), DIFFERS)
    _mark_edited(marks, diff)
    counts = diff.counts()
    delta = diff.tokens_used.delta
    if not diff.changed:
        summary = f"same fates as {pin.label}"
    else:
        entries = len(diff.changed)
        moves = ", ".join(f"{counts[word]} {word}" for word in ("up", "down", "new", "gone") if counts[word])
        summary = f"{entries:,} {'entry differs' if entries == 1 else 'entries differ'} from {pin.label} ({moves})"
    if diff.edited:
        summary += f", {len(diff.edited):,} edited since"
    if delta:
        summary += f", {'+' if delta > 0 else '−'}{abs(delta):,} tokens"
    return Comparison(diff, marks, summary)
