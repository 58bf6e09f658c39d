"""The rows a filter lets through, from each candidate's flag, patched across slider steps where it can be.

A filter's flags are per candidate (`vectors.candidate_flags`); the table
wants the rows that pass, in packet order, and each row's flag (a sort of
them narrows a kept ordering with it). Reading 50,000 flags in packet order
and listing the rows that pass cost ~5 ms a step at 50,000 memories. But a
step moves a few entries' fates, so the flags of a fate filter (or of a text
naming a reason) change for a few candidates, and the last step's rows are
patched: a C-level comparison finds them, each is placed by bisection. A
filter few candidates pass (a text, the keys of a pin) lists them through the
inverse order without reading the others. No Textual here.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import compress

from ctxtui.tui.widgets.entries.ordering import NOT_ZERO, changed_positions, in_packet_order, same_order

_FEW = 64  # "a few": at most one candidate in this many


class Passed:
    """The last filter's rows: the packet order and flags they came from, the rows, each row's flag."""

    __slots__ = ("flags", "order", "rows", "by_row")

    def __init__(self, order: Sequence[int], flags: bytes, rows: list[int], by_row: bytes) -> None:
        self.order = order
        self.flags = flags
        self.rows = rows
        self.by_row = by_row


def rows_passing(order: Sequence[int], flags: bytes | bytearray, places: Sequence[int], last: Passed | None) -> Passed:
    """The rows (packet order) whose candidate's flag is set, and each row's flag; `last` is patched when the
    packet order is the same and few flags changed. `places`: each candidate's row. `last` is not changed."""
    flags = bytes(flags)
    count = len(flags)
    if last is not None and len(last.flags) == count and same_order(last.order, order):
        patched = _patched(last, flags, places)
        if patched is not None:
            return Passed(order, flags, *patched)
    if flags.count(1) * _FEW <= count:  # a few pass: through the inverse order, no 50,000 flags read
        rows = sorted(places[found.start()] for found in NOT_ZERO.finditer(flags))
        mask = bytearray(count)
        for row in rows:
            mask[row] = 1
        return Passed(order, flags, rows, bytes(mask))
    by_row = bytes(in_packet_order(flags, order))
    return Passed(order, flags, list(compress(range(count), by_row)), by_row)


def _patched(last: Passed, flags: bytes, places: Sequence[int]) -> tuple[list[int], bytes] | None:
    changed = changed_positions(last.flags, flags)
    if len(changed) * _FEW > len(flags):
        return None
    if not changed:
        return last.rows, last.by_row
    rows, mask = list(last.rows), bytearray(last.by_row)
    for candidate in changed:
        row = places[candidate]
        at = bisect_left(rows, row)
        there = at < len(rows) and rows[at] == row
        if flags[candidate]:
            if there:
                return None  # not `last`'s rows: made again
            rows.insert(at, row)
            mask[row] = 1
        else:
            if not there:
                return None
            del rows[at]
            mask[row] = 0
    return rows, bytes(mask)
