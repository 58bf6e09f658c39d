"""One score component for every ctx candidate at once, without building 50,000 outcomes.

The table sorts by a number column on every slider step. Its sort key is
read off each candidate's outcome (`explain.components`), and building every
outcome at 50,000 memories cost ~300 ms a step. Here the same numbers come
straight from the scorer's per-entry lists (the ones the breakdowns are made
from, `CtxPrepared._breakdown`); tests compare them with the outcomes' for
every column at several budgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ctxtui.engine.model import Plan
from ctxtui.engine.packers.base import DROPPED, INCLUDED, SUMMARIZED
from ctxtui.engine.packers.ctx.lazy import offsets_of, task_count_of
from ctxtui.engine.packers.ctx.order import pick
from ctxtui.engine.packers.ctx.prepared import CtxPrepared
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.packers.ctx.score import relevance_of

OWN = ("importance", "usage")  # the entry's own numbers, for every candidate
SCORED = ("age", "recency", "relevance", "score")
BY_TASK_COUNT = ("relevance", "score")  # the others are the same at every budget
VECTORS_KEPT = 4  # per component changing with the task count: this one and a few met before


def component_vector(packer: CtxPrepared, plan: Plan, component: str) -> list[Any] | None:
    """Each candidate's value of `component` as its outcome gives it (None: not one of ctx's components).

    Kept with the packer and shared: the same list for every plan of a packet task count (the score and the
    relevance change only with it; an entry's own numbers, age and recency not at all), so the table can
    keep what it derives from it (`tui/widgets/entries/ordering.py`) across slider steps. Not to be changed.
    """
    if component not in OWN and component not in SCORED:
        return None
    task_count = task_count_of(plan.state) if component in BY_TASK_COUNT else -1
    kept: dict[tuple[str, int], list[Any]] | None = getattr(packer, "_component_vectors", None)
    if kept is None:
        kept = packer._component_vectors = {}  # type: ignore[attr-defined]
    found = kept.get((component, task_count))
    if found is None:
        found = _component_vector(packer, task_count, component)
        by_task_count = [key for key in list(kept) if key[0] == component and key[1] >= 0]  # (a copy: atomic)
        if task_count >= 0 and len(by_task_count) >= VECTORS_KEPT:
            kept.pop(by_task_count[0], None)
        kept[component, task_count] = found
    return found


def _component_vector(packer: CtxPrepared, task_count: int, component: str) -> list[Any]:
    entries = packer.candidates()
    if component in OWN:
        return [getattr(entry, component) for entry in entries]
    values: list[Any] = [None] * len(entries)
    start = offsets_of(packer).scored
    scorer = packer.scorer
    count = len(packer.scored)
    if component == "age":
        values[start : start + count] = scorer.age_days
    elif component == "recency":
        values[start : start + count] = scorer.recency
    elif component == "relevance":
        if scorer.prefix_at(task_count) > 0:
            values[start : start + count] = pick([relevance_of(n) for n in range(4)], scorer.match_counts(task_count))
        else:
            values[start : start + count] = [0.0] * count
    else:
        scores = scorer.scores(task_count)
        positions = packer.positions(task_count)
        values[start : start + count] = scores
        for index in _inactive(packer, positions):  # not ranked: their outcomes give 0
            values[start + index] = 0.0
    return values


def _inactive(packer: CtxPrepared, positions: Sequence[int]) -> list[int]:
    """The scored entries no ranking places (-1), the same at every task count: found once per load."""
    found: list[int] | None = getattr(packer, "_unranked", None)
    if found is None:
        found = packer._unranked = [i for i, p in enumerate(positions) if p < 0]  # type: ignore[attr-defined]
    return found


def _static_codes(packer: CtxPrepared) -> tuple[bytes, list[str], list[Any]]:
    """Per load: each scored entry's code before its fate (section × 8 + superseded × 4, or 128 + 4 × k for
    the k-th inactive status), the sections by index, and the inactive statuses' reasons by k."""
    found: tuple[bytes, list[str], list[Any]] | None = getattr(packer, "_reason_codes", None)
    if found is None:
        sections = list(dict.fromkeys(packer.scored_sections))
        section_of = {name: index for index, name in enumerate(sections)}
        statuses = list(dict.fromkeys(packer.inactive.values()))
        status_of = {status: index for index, status in enumerate(statuses)}
        inactive = packer.inactive
        codes = bytes(
            128 + 4 * status_of[inactive[entry.key]]
            if entry.key in inactive
            else 8 * section_of[entry.section] + 4 * bool(entry.superseded)
            for entry in packer.scored
        )
        found = (codes, sections, [Reason(status) for status in statuses])
        packer._reason_codes = found  # type: ignore[attr-defined]
    return found


def reason_vector(packer: CtxPrepared, plan: Plan) -> list[Any]:
    """Each candidate's reason as its outcome gives it, in `candidates()` order, without 50,000 outcomes.
    Kept with the plan (a text filter and a sort by the reason both read it); not to be changed.

    The entries around the scored ones (rules, tasks, conventions, steering, the skill: hundreds) are asked
    one by one (`lazy.outcome_at`); a scored entry's reason follows from its section's fill, its fate and
    whether it is superseded (`outcomes.scored_outcome`), or its inactive status (`inactive_outcome`)."""
    found: list[Any] = plan.derived("ctx.reason_vector", lambda p: _reason_vector(packer, p))
    return found


def _reason_vector(packer: CtxPrepared, plan: Plan) -> list[Any]:
    from ctxtui.engine.packers.ctx.lazy import context_of, outcome_at

    context = plan.derived("ctx.outcome_context", lambda p: context_of(packer, p.state))
    at = context.offsets
    size = len(packer.candidates())
    reasons: list[Any] = [None] * size
    for index in range(at.scored):
        reasons[index] = outcome_at(packer, context, index).reason
    for index in range(at.steering, size):
        reasons[index] = outcome_at(packer, context, index).reason
    count = len(packer.scored)
    if not count:
        return reasons
    codes, sections, inactive = _static_codes(packer)
    table: list[Any] = [None] * 256
    for s, name in enumerate(sections):
        fill = context.fills.get(name)
        for fate in (DROPPED, SUMMARIZED, INCLUDED):
            if fill is None or fill.share <= 0:
                plain = Reason.NOT_REACHED if fill is None else Reason.NO_SHARE
                table[8 * s + fate], table[8 * s + 4 + fate] = plain, Reason.SUPERSEDED
            elif fate == INCLUDED:
                table[8 * s + fate] = table[8 * s + 4 + fate] = Reason.FULL
            else:
                table[8 * s + fate], table[8 * s + 4 + fate] = Reason.OVER_FULL_LIMIT, Reason.SUPERSEDED
    for k, reason in enumerate(inactive):
        table[128 + 4 * k : 132 + 4 * k] = [reason] * 4
    fates = bytes(plan.fates[at.scored : at.scored + count])
    combined = (int.from_bytes(codes, "little") | int.from_bytes(fates, "little")).to_bytes(count, "little")
    reasons[at.scored : at.scored + count] = pick(table, combined)
    return reasons
