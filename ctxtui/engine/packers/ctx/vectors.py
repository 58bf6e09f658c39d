"""One score component for every ctx candidate at once, without building 50,000 outcomes.

The table sorts by a number column on every slider step. Its sort key is
read off each candidate's outcome (`explain.components`), and building every
outcome at 50,000 memories cost ~300 ms a step. Here the same numbers come
straight from the scorer's per-entry lists (the ones the breakdowns are made
from, `CtxPrepared._breakdown`); tests compare them with the outcomes' for
every column at several budgets.
"""

from __future__ import annotations

from typing import Any

from ctxtui.engine.model import Plan
from ctxtui.engine.packers.ctx.lazy import offsets_of, task_count_of
from ctxtui.engine.packers.ctx.prepared import CtxPrepared
from ctxtui.engine.packers.ctx.score import relevance_of

OWN = ("importance", "usage")  # the entry's own numbers, for every candidate
SCORED = ("age", "recency", "relevance", "score")


def component_vector(packer: CtxPrepared, plan: Plan, component: str) -> list[Any] | None:
    """Each candidate's value of `component` as its outcome gives it (None: not one of ctx's components)."""
    entries = packer.candidates()
    if component in OWN:
        return [getattr(entry, component) for entry in entries]
    if component not in SCORED:
        return None
    values: list[Any] = [None] * len(entries)
    start = offsets_of(packer).scored
    task_count = task_count_of(plan.state)
    scorer = packer.scorer
    count = len(packer.scored)
    if component == "age":
        values[start : start + count] = scorer.age_days
    elif component == "recency":
        values[start : start + count] = scorer.recency
    elif component == "relevance":
        if scorer.prefix_at(task_count) > 0:
            relevance = [relevance_of(n) for n in range(4)]
            values[start : start + count] = [relevance[n] for n in scorer.match_counts(task_count)]
        else:
            values[start : start + count] = [0.0] * count
    else:
        scores = scorer.scores(task_count)
        positions = packer.positions(task_count)
        values[start : start + count] = [s if p >= 0 else 0.0 for s, p in zip(scores, positions, strict=True)]
    return values
