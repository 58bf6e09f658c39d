"""Budget sweeps: tokens used and entries per fate at each budget of a range, for any packer."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ctxtui.engine.packers.base import INCLUDED, SUMMARIZED, Packer


@dataclass(frozen=True, slots=True)
class SweepRow:
    budget: int
    tokens_used: int
    included: int
    summarized: int
    dropped: int
    # section → (included, summarized, dropped), when asked for
    sections: dict[str, tuple[int, int, int]] = field(default_factory=dict)


def sweep(packer: Packer, budgets: Iterable[int], *, by_section: bool = False) -> list[SweepRow]:
    """Tokens used and entries per fate at each budget (and per section, with `by_section`)."""
    sections: dict[str, list[int]] = {}
    if by_section:
        for index, entry in enumerate(packer.candidates()):
            sections.setdefault(entry.section, []).append(index)
    rows = []
    for budget in budgets:
        plan = packer.plan(budget)
        fates = packer.fate_vector(plan)
        included = fates.count(INCLUDED)
        summarized = fates.count(SUMMARIZED)
        per_section = {}
        for name, members in sections.items():
            full = sum(1 for i in members if fates[i] == INCLUDED)
            title = sum(1 for i in members if fates[i] == SUMMARIZED)
            per_section[name] = (full, title, len(members) - full - title)
        rows.append(
            SweepRow(budget, plan.tokens_used, included, summarized, len(fates) - included - summarized, per_section)
        )
    return rows
