"""Budget sweeps: tokens used and entries per fate at each budget of a range, for any packer."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ctxtui.engine.packers.base import INCLUDED, SUMMARIZED, Packer


@dataclass(frozen=True, slots=True)
class SweepRow:
    budget: int
    tokens_used: int
    included: int
    summarized: int
    dropped: int


def sweep(packer: Packer, budgets: Iterable[int]) -> list[SweepRow]:
    """Tokens used and entries per fate at each budget."""
    rows = []
    for budget in budgets:
        plan = packer.plan(budget)
        fates = packer.fate_vector(plan)
        included = fates.count(INCLUDED)
        summarized = fates.count(SUMMARIZED)
        rows.append(SweepRow(budget, plan.tokens_used, included, summarized, len(fates) - included - summarized))
    return rows
