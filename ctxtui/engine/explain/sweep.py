"""Budget sweeps: tokens used and entries per fate at each budget of a range, for any packer."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
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
    return list(sweep_rows(packer, budgets, by_section=by_section))


def sweep_rows(packer: Packer, budgets: Iterable[int], *, by_section: bool = False) -> Iterator[SweepRow]:
    """`sweep`, one row at a time: a range of a million budgets is never held (the caller bounds it)."""
    # Each section's candidates as runs of consecutive indices: a row counts fates with C-level
    # `bytearray.count` per run, not a Python loop over 50,000 candidates.
    runs: dict[str, list[tuple[int, int]]] = {}
    if by_section:
        for index, entry in enumerate(packer.candidates()):
            spans = runs.setdefault(entry.section, [])
            if spans and spans[-1][1] == index:
                spans[-1] = (spans[-1][0], index + 1)
            else:
                spans.append((index, index + 1))
    full_byte, title_byte = bytes([INCLUDED]), bytes([SUMMARIZED])
    for budget in budgets:
        plan = packer.plan(budget)
        fates = packer.fate_vector(plan)
        included = fates.count(INCLUDED)
        summarized = fates.count(SUMMARIZED)
        per_section = {}
        for name, spans in runs.items():
            full = sum(fates.count(full_byte, start, end) for start, end in spans)
            title = sum(fates.count(title_byte, start, end) for start, end in spans)
            per_section[name] = (full, title, sum(end - start for start, end in spans) - full - title)
        yield SweepRow(budget, plan.tokens_used, included, summarized, len(fates) - included - summarized, per_section)
