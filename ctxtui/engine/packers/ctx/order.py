"""A ctx packet's order of candidates, and its inverse, read through the ranking without copying it.

The packet order is the rules, tasks and conventions (fixed ranges), each
scored section in rank order, then the steering files and the skill. At
50,000 memories a new packet task count (most slider steps change it) used to
copy 50,000 indices into a new order and its inverse: ~4.5 ms of a step and
0.4 MB per task count kept. Here both are views over pieces that already exist
(ranges, the ranking's lists, the inverse ranking), built in O(sections).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import overload


def pick(vector: Sequence[Any] | Mapping[Any, Any], positions: Sequence[Any]) -> Sequence[Any]:
    """`[vector[i] for i in positions]`, in C (one `itemgetter` call: ~5× faster than a `map` of
    `vector.__getitem__` over 50,000 positions, which calls a method wrapper per item). `vector` may be a
    mapping, `positions` its keys."""
    if len(positions) > 1:
        picked: tuple[Any, ...] = itemgetter(*positions)(vector)
        return picked
    return [vector[i] for i in positions]


class Segments(Sequence[int]):
    """Consecutive pieces, each a sequence of ints shifted by a constant: `pieces[j][k] + shift`."""

    def __init__(self, pieces: Sequence[tuple[Sequence[int], int]]) -> None:
        self.pieces = [(piece, shift) for piece, shift in pieces if len(piece)]
        self.starts: list[int] = []
        total = 0
        for piece, _shift in self.pieces:
            self.starts.append(total)
            total += len(piece)
        self.length = total

    def __len__(self) -> int:
        return self.length

    if TYPE_CHECKING:  # typing is not imported at run time (a cold pack's start)

        @overload
        def __getitem__(self, k: int) -> int: ...
        @overload
        def __getitem__(self, k: slice) -> list[int]: ...

    def __getitem__(self, k: int | slice) -> int | list[int]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self.length))]
        if k < 0:
            k += self.length
        if not 0 <= k < self.length:
            raise IndexError(k)
        j = bisect_right(self.starts, k) - 1
        piece, shift = self.pieces[j]
        return piece[k - self.starts[j]] + shift

    def gather(self, vector: Sequence[Any]) -> list[Any]:
        """`[vector[i] for i in self]`, in C: a range piece is a slice of `vector`, any other piece one
        `pick` from `vector` shifted once (the table reads a candidate vector in packet order each step)."""
        parts: list[Sequence[Any]] = []
        shifted: dict[int, Sequence[Any]] = {0: vector}
        for piece, shift in self.pieces:
            if isinstance(piece, range) and piece.step == 1:
                parts.append(vector[piece.start + shift : piece.stop + shift])
                continue
            if shift < 0:  # (the places' pieces; an order's shifts are 0 or the scored entries' start)
                parts.append(pick(vector, [i + shift for i in piece]))
                continue
            base = shifted.get(shift)
            if base is None:
                base = shifted[shift] = vector[shift:]
            parts.append(pick(base, piece))
        return list(chain.from_iterable(parts))

    def __iter__(self) -> Iterator[int]:
        # In C (chain, map): `list(order)` of 50,000 candidates is the table's per-step lookup (a generator
        # adding each shift in Python cost ~15 ms a step).
        return chain.from_iterable(piece if shift == 0 else map(shift.__add__, piece) for piece, shift in self.pieces)


class Places(Sequence[int]):
    """The inverse of a packet order: candidate index → its position, from the inverse ranking.

    `fixed` maps the candidates outside the scored entries (a `Segments` of
    their positions, in candidate order); a scored entry's position is its
    section's start plus its place in the ranking (`positions`), or for an
    inactive memory its section's inactive start plus its place among them.
    """

    def __init__(
        self,
        before: Segments,
        scored_at: int,
        sections: Sequence[str],
        positions: Sequence[int],
        ranked_start: dict[str, int],
        inactive_place: dict[int, int],
        after: Segments,
    ) -> None:
        self.before, self.after = before, after
        self.scored_at = scored_at
        self.sections = sections  # each scored entry's section, by scored index
        self.positions = positions
        self.ranked_start = ranked_start
        self.inactive_place = inactive_place
        self.length = len(before) + len(sections) + len(after)

    def __len__(self) -> int:
        return self.length

    if TYPE_CHECKING:  # typing is not imported at run time (a cold pack's start)

        @overload
        def __getitem__(self, i: int) -> int: ...
        @overload
        def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.length))]
        if i < 0:
            i += self.length
        if i < self.scored_at:
            return self.before[i]
        j = i - self.scored_at
        if j < len(self.sections):
            place = self.positions[j]
            if place >= 0:
                return self.ranked_start[self.sections[j]] + place
            return self.inactive_place[j]
        return self.after[j - len(self.sections)]

    def __iter__(self) -> Iterator[int]:
        return (self[i] for i in range(self.length))
