"""The table's filters and sorts over per-candidate vectors: no 50,000 rows or outcomes per slider step.

At 50,000 memories a step with a text filter built every outcome and row
and cleaned every title again (0.43–1.6 s), and a sort by a number built
every outcome (~300 ms). What a filter or sort reads is mostly fixed for a
load — titles, sections, keys, tokens, an entry's own numbers — so it is
computed once per load (`LoadIndex`, kept by the candidates' identity); what
changes with the budget comes from compact per-plan data: the fate vector,
the packer's component vectors (`Packer.component_vector`). Only a text
that matches a reason's label, and a sort by the reason or by a component
the packer cannot give as a vector, read the plan's outcomes. No Textual here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import is_not
from threading import Lock
from typing import TYPE_CHECKING, Any

from ctxtui.engine.explain.reasons import REASON_SHORT
from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Entry, Outcome, Plan
from ctxtui.engine.packers.ctx.order import pick
from ctxtui.safe_text import clean_line
from ctxtui.tui.widgets.entries.columns import FATE_ORDER
from ctxtui.tui.widgets.entries.ordering import NOT_ZERO, Orderings

if TYPE_CHECKING:
    from ctxtui.tui.widgets.entries.passing import Passed

CODE_OF_FATE = {Fate.DROPPED: 0, Fate.SUMMARIZED: 1, Fate.INCLUDED: 2}
ENTRY_ONLY = frozenset({"section", "title", "tokens", "mark"})  # sort keys read the entry alone
_LOADS: dict[int, LoadIndex] = {}  # id(candidates) → its index (the candidates kept in it: ids stay unique)
_LOADS_KEPT = 2  # this load and the one before (a reload, a packer switch): 50,000 entries each
_LOCK = Lock()
_FATE_SORT_KEY = bytes([FATE_ORDER[Fate.DROPPED], FATE_ORDER[Fate.SUMMARIZED], FATE_ORDER[Fate.INCLUDED]]) + bytes(253)
# A reason's code: its place among the labelled reasons (`REASON_SHORT`, equal members share one), which is also
# the reason column's sort key. Looked up by identity: a reason is an enum member, whose hash is a Python call
# (~5 ms for 50,000); members of every enum with a label are listed, so one equal to a key finds its code.
_REASON_ORDER = {reason: code for code, reason in enumerate(REASON_SHORT)}
_REASON_LABELS = [label.casefold() for label in REASON_SHORT.values()]
_CODE_OF_ID = {
    id(member): _REASON_ORDER[member]
    for kind in {type(reason) for reason in REASON_SHORT}
    for member in kind  # type: ignore[attr-defined]
    if member in _REASON_ORDER
}


class LoadIndex:
    """What one load's candidates give the table whatever the budget, each part made when first asked."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.entries = entries
        self._haystacks: list[str] | None = None
        self._hits: dict[str, bytearray] = {}  # a text → which candidates' title, section or key hold it
        self._sections: dict[frozenset[str], bytearray] = {}
        self._sort_keys: dict[tuple[str, Callable[[Outcome], Any]], list[Any]] = {}
        self._by_key: dict[str, list[int]] | None = None
        self.orderings = Orderings()  # the rows' last order per sorted column (ordering.py)
        self.last_reasons: tuple[Sequence[Any], bytes] | None = None  # a plan's reasons and their codes
        self.last_passed: Passed | None = None  # the last filter's rows (passing.py)

    def text_hits(self, needle: str) -> bytearray:
        """1 for each candidate whose title, section or key holds `needle` (casefolded, no line break)."""
        found = self._hits.get(needle)
        if found is None:
            if self._haystacks is None:
                self._haystacks = [
                    f"{clean_line(entry.title)}\n{entry.section}\n{entry.key}".casefold() for entry in self.entries
                ]
            found = bytearray(needle in haystack for haystack in self._haystacks)
            if len(self._hits) >= 16:
                self._hits.pop(next(iter(self._hits)))
            self._hits[needle] = found
        return found

    def section_flags(self, sections: frozenset[str]) -> bytearray:
        found = self._sections.get(sections)
        if found is None:
            found = self._sections[sections] = bytearray(entry.section in sections for entry in self.entries)
        return found

    def key_flags(self, keys: frozenset[str]) -> bytearray:
        if self._by_key is None:
            by_key: dict[str, list[int]] = {}
            for index, entry in enumerate(self.entries):
                by_key.setdefault(entry.key, []).append(index)
            self._by_key = by_key
        flags = bytearray(len(self.entries))
        for key in keys:
            for index in self._by_key.get(key, ()):
                flags[index] = 1
        return flags

    def sort_keys(self, column: str, sort_key: Callable[[Outcome], Any]) -> list[int | None]:
        """An entry-only column's sort key for every candidate, as a dense rank (equal keys, equal ranks;
        None stays None): a step sorts small integers, not 50,000 casefolded titles."""
        found = self._sort_keys.get((column, sort_key))
        if found is None:
            keys = [sort_key(Outcome(entry, 0, Fate.DROPPED, Fate.DROPPED)) for entry in self.entries]
            rank_of = {key: rank for rank, key in enumerate(sorted({k for k in keys if k is not None}))}
            found = self._sort_keys[column, sort_key] = [None if key is None else rank_of[key] for key in keys]
        return found


def load_index(entries: Sequence[Entry]) -> LoadIndex:
    with _LOCK:
        found = _LOADS.get(id(entries))
        if found is None or found.entries is not entries:
            found = _LOADS[id(entries)] = LoadIndex(entries)
            while len(_LOADS) > _LOADS_KEPT:
                _LOADS.pop(next(iter(_LOADS)))
        return found


def _and(a: bytearray | None, b: bytearray) -> bytearray:
    if a is None:
        return b
    both = int.from_bytes(a, "little") & int.from_bytes(b, "little")  # C-level, 50,000 bytes at once
    return bytearray(both.to_bytes(len(a), "little"))


def candidate_flags(
    plan: Plan,
    entries: Sequence[Entry],
    fates: frozenset[Fate],
    sections: frozenset[str],
    needle: str,
    keys: frozenset[str] | None,
) -> bytearray | None:
    """1 for each candidate that passes (None: no restriction). `needle` is casefolded, without a line break."""
    index = load_index(entries)
    flags: bytearray | None = None
    if keys is not None:
        flags = _and(flags, index.key_flags(keys))
    if fates:
        table = bytes(1 if code in {CODE_OF_FATE[f] for f in fates} else 0 for code in range(256))
        flags = _and(flags, bytearray(plan.fates.translate(table)))
    if sections:
        flags = _and(flags, index.section_flags(sections))
    if needle:
        hits = index.text_hits(needle)
        reasons = {reason for reason, label in REASON_SHORT.items() if needle in label.casefold()}
        if reasons:  # the reason changes with the budget: the plan's reason codes, or its outcomes
            codes = reason_codes(plan)
            if codes is not None:
                table = bytes(code < len(_REASON_LABELS) and needle in _REASON_LABELS[code] for code in range(256))
                labelled = codes.translate(table)
                both = int.from_bytes(hits, "little") | int.from_bytes(labelled, "little")
                hits = bytearray(both.to_bytes(len(hits), "little"))
            else:
                hits = bytearray(hits)
                for candidate, outcome in zip(plan.order, plan.outcomes, strict=True):
                    if outcome.reason in reasons:
                        hits[candidate] = 1
        flags = _and(flags, hits)
    return flags


def _codes_sort(sort_key: Callable[[Outcome], Any], probe: Entry) -> bool:
    """Whether a reason's code is its sort key (so for the table's reason column)."""
    found = _SORTED_BY_CODE.get(sort_key)
    if found is None:
        keys = [sort_key(Outcome(probe, 0, Fate.DROPPED, reason)) for reason in REASON_SHORT]
        found = _SORTED_BY_CODE[sort_key] = keys == list(range(len(keys)))
    return found


_SORTED_BY_CODE: dict[Callable[[Outcome], Any], bool] = {}


def reason_codes(plan: Plan) -> bytes | None:
    """Each candidate's reason as its code (its index in `REASON_SHORT`), one byte each, kept with the plan: a
    text filter that names a reason and a sort by the reason read it at every step. None: the packer gives no
    reason vector, or a reason has no label."""
    codes: bytes | None = plan.derived("table.reason_codes", _reason_codes)
    return codes


def _reason_codes(plan: Plan) -> bytes | None:
    reasons = plan.packer.reason_vector(plan)
    if reasons is None or not reasons:
        return None if reasons is None else b""
    index = load_index(plan.packer.candidates())
    last = index.last_reasons
    try:
        if last is not None and len(last[0]) == len(reasons):
            # A step changes a few entries' reasons: the last plan's codes, those few looked up again (the
            # same reason is the same enum member, so `is not` finds them, in C).
            changed = [found.start() for found in NOT_ZERO.finditer(bytes(map(is_not, last[0], reasons)))]
            if len(changed) * 16 < len(reasons):
                patched = bytearray(last[1])
                for candidate in changed:
                    patched[candidate] = _CODE_OF_ID[id(reasons[candidate])]
                codes = bytes(patched)
                index.last_reasons = (reasons, codes)
                return codes
        codes = bytes(pick(_CODE_OF_ID, list(map(id, reasons))))
    except KeyError:  # a reason without a label (none today: a test holds every reason to one)
        return None
    index.last_reasons = (reasons, codes)
    return codes


def column_values(
    plan: Plan, entries: Sequence[Entry], column: str, sort_key: Callable[[Outcome], Any], entry_only: bool
) -> Sequence[Any] | None:
    """The column's sort key for every candidate, in `candidates()` order (None: only the outcomes know).

    `entry_only`: the column's number is the entry's own (an optional column, see `columns.Column`)."""
    if entry_only or column in ENTRY_ONLY:
        return load_index(entries).sort_keys(column, sort_key)
    if column == "fate":
        return plan.fates.translate(_FATE_SORT_KEY)
    if column == "reason":
        codes = reason_codes(plan)
        if codes is not None and (not codes or _codes_sort(sort_key, entries[0])):
            return codes
        reasons = plan.packer.reason_vector(plan)
        if reasons is None:
            return None
        order = {reason: sort_key(Outcome(entries[0], 0, Fate.DROPPED, reason)) for reason in set(reasons)}
        return pick(order, reasons)
    vector = plan.packer.component_vector(plan, column)
    if vector is None or isinstance(vector, list):
        return vector  # numbers or None, as `Packer.component_vector` says
    return list(vector)
