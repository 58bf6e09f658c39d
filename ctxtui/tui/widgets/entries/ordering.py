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

    def every_row(self, slot: Hashable, order: Sequence[int], values: Sequence[Any], reverse: bool) -> list[int]:
        """Every row position in the column's order, kept while the packet order and the values are the same.

        The same objects first; then equal ones, compared in C, with the newest kept: a new packet task count
        whose tasks bring no new keyword re-ranks to the same order and scores (most steps at 50,000
        memories), and comparing 50,000 entries costs a fraction of sorting them."""
        slot = (slot, reverse)
        kept = self._kept.setdefault(slot, [])
        found = next((k for k in kept if k[0] is order and k[1] is values), None)
        if found is None and kept and same_order(kept[-1][0], order) and same_values(kept[-1][1], values):
            found = kept[-1]
        if found is not None:
            kept.remove(found)
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
    """`[vector[i] for i in order]`, in C: a candidate vector read row by row."""
    if isinstance(order, range) and order.step == 1 and order.start == 0 and len(order) == len(vector):
        return vector
    if isinstance(order, Segments):
        return order.gather(vector)
    return pick(vector, order if isinstance(order, (list, tuple, range)) else list(order))


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
