"""Cortex's ranking: sort by weighted score, damp repeated types by 0.9 each, sort again.

`ResultRanker.rank` (`cortex/src/retrieval/ranking.ts:26-58`): a descending
sort (`b.score - a.score`, 27), then `applyDiversityBonus` (34-58): each
memory's score is multiplied by `Math.pow(0.9, k)` where k counts the
earlier items of the same type in that order (a Map keyed by the raw type
value, 39-54), and the result is sorted again (57). The sorts are V8's:
stable for ordinary scores, and for NaN scores the insertion sort that V8
runs on short arrays decides the order. `Math.pow` is V8's (0.9^4 prints
0.6561000000000001).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ctxtui.engine.text.js import SameValueZeroKey, v8_pow, v8_sort

DAMPING = 0.9


class Ranked(NamedTuple):
    """One candidate after ranking."""

    candidate: int  # its position among the candidates (gathering order)
    weighted: float  # score × intent weight, before the diversity damping
    same_type_before: int  # earlier items of its type in the first sort
    diversity: float  # 0.9 ** same_type_before (V8's Math.pow)
    score: float  # the relevanceScore Cortex prints


def _descending(a: tuple[int, float, Any], b: tuple[int, float, Any]) -> float:
    return b[1] - a[1]


def rank(weighted: Sequence[tuple[int, float, Any]]) -> list[Ranked]:
    """(index, weighted score, type value) per candidate → the ranked order with every multiplier."""
    first = v8_sort(weighted, _descending)
    seen: dict[tuple[Any, ...], int] = {}
    damped: list[tuple[int, float, Any]] = []
    details: dict[int, tuple[float, int, float]] = {}
    for index, value, memory_type in first:
        key = SameValueZeroKey.of(memory_type)
        count = seen.get(key, 0)
        multiplier = v8_pow(DAMPING, float(count))
        seen[key] = count + 1
        damped.append((index, value * multiplier, memory_type))
        details[index] = (value, count, multiplier)
    return [
        Ranked(index, details[index][0], details[index][1], details[index][2], value)
        for index, value, _ in v8_sort(damped, _descending)
    ]
