"""How many per-task-count arrays a ctx packer keeps: bounded by their size, not only by their number.

Rankings, inverse rankings, scores, match counts and packet orders are cached
per packet task count, so slider steps back and forth (and the thresholds
scan) never recompute them. Each is one number per scored entry: at 50,000
memories ~1.8 MB of Python ints, and 64 of each kind grew the app by hundreds
of megabytes over a slider walk (issue 11's 400 MB ceiling). So the number
kept shrinks as entries grow: 64 up to 25,000 entries, 32 at 50,000.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    T = TypeVar("T")

ELEMENTS = 1_600_000  # numbers kept per kind of cache, across its entries
BREAKDOWN_ELEMENTS = 100_000  # score breakdowns (a tuple each, ~200 bytes) kept, across task counts


def cache_entries(entries: int, most: int = 64, least: int = 4, elements: int = ELEMENTS) -> int:
    """How many task counts to keep arrays for, with `entries` numbers in each."""
    return max(least, min(most, elements // max(1, entries)))


# The caches are plain dicts, least recently used first: a dict keeps insertion order, so a hit is moved
# last (`OrderedDict.move_to_end`) and the first goes when one is full (`collections` is not imported on
# a cold `pack`). Callers hold the packer's lock; a key another thread dropped meanwhile is no error.


def touch(cache: dict[int, T], key: int, value: T) -> None:
    """Mark `key` (holding `value`) most recently used."""
    cache.pop(key, None)
    cache[key] = value


def kept(cache: dict[int, T], key: int, build: Callable[[], T], most: int) -> T:
    """`cache[key]`, built on a miss; the least recently used entries go beyond `most`."""
    found = cache.get(key)
    if found is not None:
        touch(cache, key, found)
        return found
    made = cache[key] = build()
    while len(cache) > most:
        cache.pop(next(iter(cache)), None)
    return made
