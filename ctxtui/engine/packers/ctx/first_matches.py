"""For every entry, the first three task keywords (in packet order) its text contains: relevance at any task count.

ctx's relevance is min(matches, 3) / 3, where a match is a keyword of the
packet's tasks found as a substring of the entry's lowered text. Keywords
come task by task, so the keywords of the first `n` tasks are a prefix of
one list; an entry's match count for `n` tasks is therefore how many of its
three *smallest* matching keyword positions lie inside that prefix. Knowing
those three positions per entry (a tuple of at most three ints) answers
every task count in one pass of integer comparisons: a slider step that
changes the packet's task count, and the thresholds scan, no longer search
any text.

Finding them: a keyword is made of [a-z0-9_-] only and is 3+ long, so any
occurrence lies inside one maximal run of those characters ("word") of the
entry. The distinct words of all entries form a vocabulary far smaller than
the text; each keyword is searched once in the vocabulary, which gives the
few "hot" words that contain any keyword, with their keyword positions. An
entry's matches are then the union over its hot words (a C-level set
intersection finds them). Entries are read in chunks, so the per-entry word
sets of 50,000 memories never all live at once. Exact by construction; tests
compare it with the direct search on generated texts.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

from ctxtui.engine.gcpause import gc_paused

LIMIT = 3  # relevance saturates at three matches
CHUNK = 2048  # entries whose word sets are held at once
_WORD = re.compile(r"[a-z0-9_-]{3,}")


def first_matches(lowered: Sequence[str], keywords: Sequence[str]) -> list[tuple[int, ...]]:
    """Per entry, the ascending positions in `keywords` of the first (at most three) keywords it contains.

    The garbage collector is paused meanwhile: hundreds of thousands of
    acyclic sets and strings would trigger collections of the whole heap.
    """
    with gc_paused():
        return _first_matches(lowered, keywords)


def _first_matches(lowered: Sequence[str], keywords: Sequence[str]) -> list[tuple[int, ...]]:
    hot: dict[str, tuple[int, ...]] = {}  # a word → the keyword positions it contains (ascending)
    hot_words: set[str] = set()
    known: set[str] = set()  # every word seen, hot or not
    out: list[tuple[int, ...]] = []
    append = out.append
    findall = _WORD.findall
    for start in range(0, len(lowered), CHUNK):
        chunk = [findall(text) for text in lowered[start : start + CHUNK]]  # lists: hashing happens once, below
        new = set().union(*chunk)
        new -= known
        if new:
            known |= new
            more = _hot_words(new, keywords)
            hot.update(more)
            hot_words.update(more)
        for words in chunk:
            found = hot_words.intersection(words)
            if not found:
                append(())
            elif len(found) == 1:
                append(hot[found.pop()][:LIMIT])
            else:
                positions: set[int] = set()
                for word in found:
                    positions.update(hot[word])
                append(tuple(sorted(positions)[:LIMIT]))
    return out


def _hot_words(words: set[str], keywords: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """The words that contain a keyword, each with the positions of the keywords it contains."""
    ordered = list(words)
    text = "\n".join(ordered)
    starts = list(accumulate((len(word) + 1 for word in ordered), initial=0))
    found: dict[str, list[int]] = {}
    for position, keyword in enumerate(keywords):
        at = text.find(keyword)
        while at >= 0:
            index = bisect_right(starts, at) - 1
            found.setdefault(ordered[index], []).append(position)
            at = text.find(keyword, starts[index + 1])
    return {word: tuple(positions) for word, positions in found.items()}


def counts_at(first: Sequence[tuple[int, ...]], prefix: int) -> list[int]:
    """Match counts (capped at three) when the packet's keywords are the first `prefix` of the list."""
    return [sum(1 for position in hits if position < prefix) if hits and hits[0] < prefix else 0 for hits in first]
