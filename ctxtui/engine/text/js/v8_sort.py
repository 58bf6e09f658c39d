"""V8's Array.prototype.sort for short arrays, where an inconsistent comparator makes the algorithm visible."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def v8_sort(items: Sequence[T], compare: Callable[[T, T], float]) -> list[T]:
    """`[...items].sort(compare)` as V8 runs it on short arrays (third_party/v8/builtins/array-sort.tq).

    For a consistent comparator this is a stable sort; it matters when the
    comparator returns NaN (`b.score - a.score` with a NaN score, taken as 0),
    which makes the algorithm visible: CountAndMakeRun over the whole array,
    then BinaryInsertionSort of the rest. Ported from array-sort.tq
    (Copyright the V8 project authors, BSD-style licence; TimSort after
    Python's listsort, (c) Python Software Foundation).
    """
    a = list(items)
    n = len(a)
    if n < 2:
        return a
    if n >= 64:
        raise NotImplementedError("merging of runs is not ported: Cortex sorts at most 20 items")

    def cmp(x: T, y: T) -> float:
        v = compare(x, y)
        return 0.0 if v != v else v

    run = 2
    descending = cmp(a[1], a[0]) < 0
    previous = a[1]
    for index in range(2, n):
        order = cmp(a[index], previous)
        if (order >= 0) if descending else (order < 0):
            break
        previous = a[index]
        run += 1
    if descending:
        a[:run] = a[:run][::-1]
    for start in range(run, n):
        pivot = a[start]
        left, right = 0, start
        while left < right:
            mid = left + ((right - left) >> 1)
            if cmp(pivot, a[mid]) < 0:
                right = mid
            else:
                left = mid + 1
        a[left + 1 : start + 1] = a[left:start]
        a[left] = pivot
    return a
