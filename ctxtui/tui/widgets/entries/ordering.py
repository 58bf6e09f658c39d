"""The table's rows in a column's order, from per-candidate vectors, keeping what a budget step leaves alone.

A sort's result depends on two things only: the packet order (which
candidate each row is) and the column's value of each candidate. Across the
budgets of one ctx packet task count both are the very same objects (the
packer keeps the order and the score vectors per task count, an entry's own
numbers per load), so the whole ordering of the rows is kept with the load,
one per column and direction, and a step that changes neither reuses it: with
a filter it is narrowed to the rows shown in one C-level pass, without one
a copy. When either changed, the column's values are read in packet order in
C (`Segments.gather`, `itemgetter`) and the present rows sorted stably by a
list's `__getitem__`; rows without a value go last, in packet order, as
`rows.sorted_indices` has always put them. At 50,000 memories this took a sort
by score from ~55 ms of CPU a step to ~1 ms. No Textual here.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import compress, islice, repeat
from operator import is_not, lt
from typing import Any

from ctxtui.engine.packers.ctx.order import Segments, pick

FLIP = bytes([1, 0]) + bytes(254)  # a 0/1 flag's opposite, for bytes.translate
_KEPT = 4  # (column, direction) pairs kept per load: those a user sorts by in turn
_PER_SLOT = 2  # orderings kept for each: the two task counts a slider going back and forth meets


class Orderings:
    """The last orderings of every row per (column, direction) of one load, with the order and values each
    came from: the few a slider going back and forth meets."""

    def __init__(self) -> None:
        # A list (~1.8 MB at 50,000 rows with its ints): an array's 0.2 MB cost ~3 ms a step in new ints.
        self._kept: dict[Hashable, list[tuple[Sequence[int], Sequence[Any], list[int]]]] = {}

    def every_row(
        self,
        slot: Hashable,
        order: Sequence[int],
        values: Sequence[Any],
        reverse: bool,
        places: Sequence[int] | None = None,
    ) -> list[int]:
        """Every row position in the column's order, kept while the packet order and the values are the same.

        The same objects first; then equal ones, compared in C, with the newest kept: a new packet task count
        whose tasks bring no new keyword re-ranks to the same order and scores (most steps at 50,000
        memories), and comparing 50,000 entries costs a fraction of sorting them. One-byte codes (a fate, a
        reason) change at each step for the few entries the step moved: given `places` (each candidate's
        row), the newest ordering is patched, moving those rows alone (`patch_ordering`)."""
        slot = (slot, reverse)
        kept = self._kept.setdefault(slot, [])
        found = next((k for k in kept if k[0] is order and k[1] is values), None)
        if found is None and kept and same_order(kept[-1][0], order):
            last = kept[-1]
            if same_values(last[1], values):
                found = last
            elif places is not None and isinstance(values, (bytes, bytearray)):
                patched = patch_ordering(last[2], last[1], values, places, reverse)  # type: ignore[arg-type]
                if patched is not None:
                    found = (order, values, patched)
        if found is not None:
            kept[:] = [k for k in kept if k is not found]
        else:
            found = (order, values, order_every_row(order, values, reverse))
        kept.append((order, values, found[2]))  # the newest objects, so the next step's identity holds
        if len(kept) > _PER_SLOT:
            del kept[0]
        self._kept.pop(slot)
        self._kept[slot] = kept
        while len(self._kept) > _KEPT:
            self._kept.pop(next(iter(self._kept)))
        return found[2]


def same_order(a: Sequence[int], b: Sequence[int]) -> bool:
    """The same packet order (for ctx: the same pieces, each list compared in C; ranges by their bounds)."""
    if a is b:
        return True
    if type(a) is not type(b) or len(a) != len(b):
        return False
    if isinstance(a, Segments) and isinstance(b, Segments):
        return a.pieces == b.pieces
    return isinstance(a, (list, tuple, range)) and a == b


def same_values(a: Sequence[Any], b: Sequence[Any]) -> bool:
    """Equal vectors (compared in C, stopping at the first difference)."""
    return a is b or (type(a) is type(b) and len(a) == len(b) and a == b)


def in_packet_order(vector: Sequence[Any], order: Sequence[int]) -> Sequence[Any]:
    """`[vector[i] for i in order]`, in C: a candidate vector read row by row (bytes stay bytes)."""
    if isinstance(order, range) and order.step == 1 and order.start == 0 and len(order) == len(vector):
        return vector
    found: Sequence[Any]
    if isinstance(order, Segments):
        found = order.gather(vector)
    else:
        found = pick(vector, order if isinstance(order, (list, tuple, range)) else list(order))
    return bytes(found) if isinstance(vector, (bytes, bytearray)) else found


def order_every_row(order: Sequence[int], values: Sequence[Any], reverse: bool) -> list[int]:
    """Row positions (0 .. len(order)-1) sorted by `values[order[k]]`, stable (ties in packet order, also
    reversed), rows whose value is None last in packet order."""
    by_row = in_packet_order(values, order)
    count = len(by_row)
    if not isinstance(by_row, (bytes, bytearray)) and None in by_row:  # (bytes: small numbers, never None)
        has = bytes(map(is_not, by_row, repeat(None)))
        present: Sequence[int] = list(compress(range(count), has))
        missing = list(compress(range(count), has.translate(FLIP)))
    else:
        present, missing = range(count), []
    ordered = sorted(present, key=by_row.__getitem__, reverse=reverse)
    ordered += missing
    return ordered


def patch_ordering(
    ordering: list[int], old: bytes | bytearray, new: bytes | bytearray, places: Sequence[int], reverse: bool
) -> list[int] | None:
    """`ordering` (every row by its candidate's one-byte code in `old`, ties in packet order) for the codes
    `new`, moving only the rows whose code changed; None when many did (a sort is as quick) or when `ordering`
    is not `old`'s. `old` and `new` are in candidate order; `places` gives each candidate's row.

    Sorted by a code, the rows are grouped by code, each group in packet order: where a group starts is a
    count (C-level) of the codes that come before it, and a row's place in its group a bisection. A slider
    step at 50,000 memories moves a few entries' fates (and reasons): sorting every row again cost ~10 ms.
    Each count is made once per code, not once per moved row (a coarse step moves hundreds)."""
    count = len(new)
    if len(old) != count or len(ordering) != count:
        return None
    changed = changed_positions(old, new)  # candidates
    if len(changed) * 256 > count:  # a sort then costs less (50,605 rows: 800 moved 19 ms, a sort 13)
        return None
    if not changed:
        return ordering
    rows = [places[c] for c in changed]
    old_groups = _Groups(old, reverse)
    removed = []
    for c, row in zip(changed, rows, strict=True):
        start, size = old_groups.span(old[c])
        p = bisect_left(ordering, row, start, start + size)
        if p >= count or ordering[p] != row:
            return None  # not the ordering of `old`
        removed.append(p)
    removed.sort()
    rest: list[int] = []
    start = 0
    for p in removed:
        rest += ordering[start:p]
        start = p + 1
    rest += ordering[start:]
    # In `rest` (the unchanged rows, whose codes are the same in `old` and `new`) group `code` starts where
    # it starts in `new`, less the moved rows whose new code comes before it, and holds its rows in `new` but
    # the moved ones.
    moved = Counter(new[c] for c in changed)
    new_groups = _Groups(new, reverse)
    in_rest: dict[int, tuple[int, int]] = {}
    inserts = []
    for c, row in zip(changed, rows, strict=True):
        code = new[c]
        span = in_rest.get(code)
        if span is None:
            first, size = new_groups.span(code)
            first -= sum(n for m, n in moved.items() if (m > code if reverse else m < code))
            span = in_rest[code] = (first, size - moved[code])
        first, size = span
        inserts.append((bisect_left(rest, row, first, first + size), -code if reverse else code, row))
    inserts.sort()
    patched: list[int] = []
    taken = 0
    for at, _code, row in inserts:
        patched += rest[taken:at]
        taken = at
        patched.append(row)
    patched += rest[taken:]
    return patched


NOT_ZERO = re.compile(rb"[^\x00]")  # a byte that is not 0: `finditer` over a vector lists the set ones in C


def changed_positions(old: bytes | bytearray, new: bytes | bytearray) -> list[int]:
    """The positions where two byte vectors of one length differ: one C-level XOR, then a scan for non-zero."""
    diff = (int.from_bytes(old, "little") ^ int.from_bytes(new, "little")).to_bytes(len(new), "little")
    return [found.start() for found in NOT_ZERO.finditer(diff)]


class _Groups:
    """Where each code's group starts, and its size, in a sort by one-byte codes: counted once per code."""

    def __init__(self, codes: bytes | bytearray, reverse: bool) -> None:
        self._codes, self._reverse = codes, reverse
        self._spans: dict[int, tuple[int, int]] = {}

    def span(self, code: int) -> tuple[int, int]:
        found = self._spans.get(code)
        if found is None:
            codes = self._codes
            first = bytes(range(code + 1, 256)) if self._reverse else bytes(range(code))
            found = self._spans[code] = (len(codes) - len(codes.translate(None, first)), codes.count(code))
        return found


def order_some_rows(order: Sequence[int], values: Sequence[Any], indices: Sequence[int], reverse: bool) -> list[int]:
    """`indices` sorted as `order_every_row` would place them, by reading only their own values (a few rows)."""
    by_row = pick(values, pick(order, indices)) if indices else []
    present = [k for k, value in zip(indices, by_row, strict=True) if value is not None]
    missing = [k for k, value in zip(indices, by_row, strict=True) if value is None]
    value_of = dict(zip(indices, by_row, strict=True))
    return sorted(present, key=value_of.__getitem__, reverse=reverse) + missing


def ascending(indices: Sequence[int]) -> bool:
    """Strictly increasing (packet order, no repeats): what a filter gives, and what a kept ordering can narrow."""
    return all(map(lt, indices, islice(indices, 1, None)))


def narrowed(ordered: Sequence[int], mask: bytes | bytearray) -> list[int]:
    """The rows of `ordered` whose flag in `mask` (one byte per row) is set, in `ordered`'s order."""
    return list(compress(ordered, pick(mask, ordered)))


def mask_of(count: int, indices: Sequence[int]) -> bytearray:
    """One byte per row: 1 for the rows in `indices`."""
    mask = bytearray(count)
    for k in indices:
        mask[k] = 1
    return mask
