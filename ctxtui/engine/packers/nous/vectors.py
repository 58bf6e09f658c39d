"""Every nous candidate's fate and reason at one plan, section by section, without a call per candidate.

The fate vector (fate counts on every slider step) and the table's reason
column need all of them; one `NousPacker._fate` call per candidate cost
~100–370 ms at 50,000 candidates on a loaded machine. Within a section the
rule is the same for every item and the cut is a place in the joined text,
whose items' starts and ends only grow: each fate is a run of positions
found by bisection. Held to `_fate` by the hypothesis tests over generated
turns (`tests/ui/test_filter_vectors.py`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Any

from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.nous.fates import NousReason
from ctxtui.engine.packers.nous.sections import BLOCKS, LINE, MID, NONE

if TYPE_CHECKING:
    from ctxtui.engine.model import Plan
    from ctxtui.engine.packers.nous.sections import Section, SectionState

Verdict = tuple[Fate, NousReason]
INCLUDED, SUMMARIZED, DROPPED = Fate.INCLUDED, Fate.SUMMARIZED, Fate.DROPPED


def _section(section: Section, state: SectionState) -> list[Verdict]:
    """`_fate` for each position of one section, in order."""
    rule, n = section.spec.rule, len(section.items)
    if rule == LINE:
        return [(INCLUDED, NousReason.POINTER) if state.on else (DROPPED, NousReason.SECTION_OFF)] * n
    if rule == NONE:
        out = [(INCLUDED, NousReason.NOT_BUDGETED)] * n
    elif not state.on:
        out = [(DROPPED, NousReason.SECTION_OFF)] * n
    elif rule == MID:
        keep = state.keep
        fits = n if keep is None else bisect_right(section.ends, keep)
        cut = fits if keep is None else max(fits, bisect_left(section.starts, keep))
        out = [(INCLUDED, NousReason.FITS)] * fits
        out += [(SUMMARIZED, NousReason.CUT)] * (cut - fits) + [(DROPPED, NousReason.AFTER_CUT)] * (n - cut)
    else:
        assert rule == BLOCKS
        shown = state.shown  # position 0 is always in; then those before `shown`; `shown` is the misfit
        first = NousReason.BLOCK_FITS if n and section.costs[0] <= state.budget else NousReason.FIRST_BLOCK
        included = max(1, min(shown, n)) if n else 0
        out = [(INCLUDED, first)][:n] + [(INCLUDED, NousReason.BLOCK_FITS)] * (included - 1)
        if 1 <= shown < n:
            out.append((DROPPED, NousReason.BLOCK_OVER))
        out += [(DROPPED, NousReason.AFTER_STOP)] * (n - len(out))
    for pos, text in enumerate(section.texts):
        if text is None:
            out[pos] = (DROPPED, NousReason.ABANDONED)
    return out


def fates_of(packer: Any, plan: Plan) -> list[Verdict]:
    """(fate, reason) of every candidate, in candidate order (`packer`: the `NousPacker`, which imports this
    module: named here it would make an import cycle)."""
    base: list[Verdict] | None = getattr(packer, "_unplaced_fates", None)
    if base is None:  # per load: the candidates in no section (an enum member looked up per candidate: ~0.25 s)
        catalog, gate = (DROPPED, NousReason.CATALOG), (DROPPED, NousReason.GATE)
        suppressed = packer.suppressed
        base = [catalog if index in suppressed else gate for index in range(len(packer.entries))]
        packer._unplaced_fates = base
    out = list(base)
    for section, state in zip(packer.sections, plan.state.sections, strict=True):
        for index, verdict in zip(section.items, _section(section, state), strict=True):
            out[index] = verdict
    return out
