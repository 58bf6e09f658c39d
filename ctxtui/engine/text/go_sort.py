"""Go's `sort.Slice`: pdqsort, deterministic but not stable (go/src/sort/zsortfunc.go, Go 1.19+).

ctx sorts steering files with `sort.Slice` by (priority, name): with more than
12 files and ties, the order is not the files' order, and only this exact
algorithm (insertion sort up to 12 elements, then pivots, partitions and
xorshift-seeded pattern breaking) reproduces it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    T = TypeVar("T")


def sort_slice(xs: list[T], less: Callable[[T, T], bool]) -> None:
    """In-place sort.Slice(xs, less) with Go's exact (unstable) algorithm."""
    n = len(xs)

    def L(i: int, j: int) -> bool:
        return less(xs[i], xs[j])

    def S(i: int, j: int) -> None:
        xs[i], xs[j] = xs[j], xs[i]

    def insertion(a: int, b: int) -> None:
        for i in range(a + 1, b):
            j = i
            while j > a and L(j, j - 1):
                S(j, j - 1)
                j -= 1

    def sift_down(lo: int, hi: int, first: int) -> None:
        root = lo
        while True:
            child = 2 * root + 1
            if child >= hi:
                return
            if child + 1 < hi and L(first + child, first + child + 1):
                child += 1
            if not L(first + root, first + child):
                return
            S(first + root, first + child)
            root = child

    def heap(a: int, b: int) -> None:
        first, lo, hi = a, 0, b - a
        for i in range((hi - 1) // 2, -1, -1):
            sift_down(i, hi, first)
        for i in range(hi - 1, -1, -1):
            S(first, first + i)
            sift_down(lo, i, first)

    def partition(a: int, b: int, pivot: int) -> tuple[int, bool]:
        S(a, pivot)
        i, j = a + 1, b - 1
        while i <= j and L(i, a):
            i += 1
        while i <= j and not L(j, a):
            j -= 1
        if i > j:
            S(j, a)
            return j, True
        S(i, j)
        i += 1
        j -= 1
        while True:
            while i <= j and L(i, a):
                i += 1
            while i <= j and not L(j, a):
                j -= 1
            if i > j:
                break
            S(i, j)
            i += 1
            j -= 1
        S(j, a)
        return j, False

    def partition_equal(a: int, b: int, pivot: int) -> int:
        S(a, pivot)
        i, j = a + 1, b - 1
        while True:
            while i <= j and not L(a, i):
                i += 1
            while i <= j and L(a, j):
                j -= 1
            if i > j:
                break
            S(i, j)
            i += 1
            j -= 1
        return i

    def partial_insertion(a: int, b: int) -> bool:
        i = a + 1
        for _ in range(5):
            while i < b and not L(i, i - 1):
                i += 1
            if i == b:
                return True
            if b - a < 50:
                return False
            S(i, i - 1)
            if i - a >= 2:
                j = i - 1
                while j >= 1:
                    if not L(j, j - 1):
                        break
                    S(j, j - 1)
                    j -= 1
            if b - i >= 2:
                j = i + 1
                while j < b:
                    if not L(j, j - 1):
                        break
                    S(j, j - 1)
                    j += 1
        return False

    def break_patterns(a: int, b: int) -> None:
        length = b - a
        if length >= 8:
            r = [length & 0xFFFFFFFFFFFFFFFF]

            def nxt() -> int:
                x = r[0]
                x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
                x ^= x >> 7
                x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
                r[0] = x
                return x

            modulus = 1 << length.bit_length()
            for idx in range(a + (length // 4) * 2 - 1, a + (length // 4) * 2 + 2):
                other = nxt() & (modulus - 1)
                if other >= length:
                    other -= length
                S(idx, a + other)

    def median(a: int, b: int, c: int, sw: list[int]) -> int:
        if L(b, a):
            sw[0] += 1
            a, b = b, a
        if L(c, b):
            sw[0] += 1
            b, c = c, b
        if L(b, a):
            sw[0] += 1
            a, b = b, a
        return b

    def choose_pivot(a: int, b: int) -> tuple[int, str]:
        l = b - a  # noqa: E741 - Go's name, kept for line-by-line comparison
        sw = [0]
        i, j, k = a + l // 4 * 1, a + l // 4 * 2, a + l // 4 * 3
        if l >= 8:
            if l >= 50:
                i = median(i - 1, i, i + 1, sw)
                j = median(j - 1, j, j + 1, sw)
                k = median(k - 1, k, k + 1, sw)
            j = median(i, j, k, sw)
        if sw[0] == 0:
            return j, "inc"
        if sw[0] == 12:
            return j, "dec"
        return j, "unk"

    def reverse(a: int, b: int) -> None:
        i, j = a, b - 1
        while i < j:
            S(i, j)
            i += 1
            j -= 1

    def pdq(a: int, b: int, limit: int) -> None:
        was_balanced = True
        was_partitioned = True
        while True:
            length = b - a
            if length <= 12:
                insertion(a, b)
                return
            if limit == 0:
                heap(a, b)
                return
            if not was_balanced:
                break_patterns(a, b)
                limit -= 1
            pivot, hint = choose_pivot(a, b)
            if hint == "dec":
                reverse(a, b)
                pivot = (b - 1) - (pivot - a)
                hint = "inc"
            if was_balanced and was_partitioned and hint == "inc":
                if partial_insertion(a, b):
                    return
            if a > 0 and not L(a - 1, pivot):
                a = partition_equal(a, b, pivot)
                continue
            mid, already = partition(a, b, pivot)
            was_partitioned = already
            left, right = mid - a, b - mid
            threshold = length // 8
            if left < right:
                was_balanced = left >= threshold
                pdq(a, mid, limit)
                a = mid + 1
            else:
                was_balanced = right >= threshold
                pdq(mid + 1, b, limit)
                b = mid

    pdq(0, n, n.bit_length())
