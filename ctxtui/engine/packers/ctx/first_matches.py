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

from itertools import chain
from typing import TYPE_CHECKING

from ctxtui.engine.gcpause import gc_paused

if TYPE_CHECKING:
    from collections.abc import Sequence

LIMIT = 3  # relevance saturates at three matches
CHUNK = 2048  # entries whose word lists are held at once
# Bytes outside [a-z0-9_-] become spaces: `split()` then gives the runs a keyword can lie in, at C speed
# (UTF-8's bytes of a non-ASCII character are all >= 0x80, so they separate words as the character does).
_KEEP = b"abcdefghijklmnopqrstuvwxyz0123456789_-"
_SEPARATE = bytes(c if c in _KEEP else 0x20 for c in range(256))


def first_matches(lowered: Sequence[str], keywords: Sequence[str]) -> list[tuple[int, ...]]:
    """Per entry, the ascending positions in `keywords` of the first (at most three) keywords it contains.

    The garbage collector is paused meanwhile: hundreds of thousands of
    acyclic sets and strings would trigger collections of the whole heap.
    """
    with gc_paused():
        return _first_matches(lowered, [keyword.encode("ascii") for keyword in keywords])


def _words(text: str) -> list[bytes]:
    """The maximal runs of [a-z0-9_-] in `text` (short ones too: they contain no keyword)."""
    return text.encode("utf-8", "surrogatepass").translate(_SEPARATE).split()


def _first_matches(lowered: Sequence[str], keywords: Sequence[bytes]) -> list[tuple[int, ...]]:
    hot: dict[bytes, tuple[int, ...]] = {}  # a word → the keyword positions it contains (ascending)
    hot_words: set[bytes] = set()
    known: set[bytes] = set()  # every word seen, hot or not
    finder = _KeywordFinder(keywords)
    out: list[tuple[int, ...]] = []
    append = out.append
    positions_of = hot.__getitem__
    for start in range(0, len(lowered), CHUNK):
        chunk = [_words(text) for text in lowered[start : start + CHUNK]]  # lists: hashing happens once, below
        new = set().union(*chunk)
        new -= known
        if new:
            known |= new
            more = finder.hot_words(new)
            hot.update(more)
            hot_words.update(more)
        for found in map(hot_words.intersection, chunk):
            if not found:
                append(())
            elif len(found) == 1:
                append(hot[found.pop()])
            else:
                # The hot words' positions, sorted in C; the first three are the answer when they differ
                # (two words may share a keyword: then they are made distinct first).
                positions = sorted(chain.from_iterable(map(positions_of, found)))
                if len(positions) >= LIMIT and positions[0] < positions[1] < positions[2]:
                    append((positions[0], positions[1], positions[2]))
                else:
                    append(tuple(sorted(set(positions))[:LIMIT]))
    return out


class _KeywordFinder:
    """Which keywords a word contains, through an index of the keywords by their first three bytes.

    Every keyword is 3+ long, so a word contains one only where the word has
    its first three bytes: each of the word's 3-byte windows is looked up, and
    there only the substrings as long as a keyword with that head are tried (a
    set lookup each), however many keywords share the head ("task1",
    "task2"...). Searching each of ~800 keywords through the whole vocabulary
    instead cost 3x more at 50,000 memories (issue 11).
    """

    def __init__(self, keywords: Sequence[bytes]) -> None:
        self.positions: dict[bytes, list[int]] = {}
        for position, keyword in enumerate(keywords):
            self.positions.setdefault(keyword, []).append(position)
        heads: dict[bytes, set[bytes]] = {}
        for keyword in self.positions:
            heads.setdefault(keyword[:3], set()).add(keyword)
        self.by_head = {head: (found, sorted({len(k) for k in found})) for head, found in heads.items()}

    def keywords_in(self, word: bytes) -> set[bytes]:
        """The keywords `word` contains (each found by its first three bytes, then its possible lengths)."""
        by_head, size = self.by_head, len(word)
        inside: set[bytes] = set()
        for start in range(size - 2):
            head = by_head.get(word[start : start + 3])
            if head is None:
                continue
            keywords, lengths = head
            for length in lengths:
                if start + length > size:
                    break
                piece = word[start : start + length]
                if piece in keywords:
                    inside.add(piece)
        return inside

    def all_in(self, word: bytes) -> tuple[int, ...]:
        """The positions of every keyword `word` contains."""
        return tuple(p for keyword in self.keywords_in(word) for p in self.positions[keyword])

    def hot_words(self, words: set[bytes]) -> dict[bytes, tuple[int, ...]]:
        """The words that contain a keyword, each with the (first three) positions of the keywords it contains."""
        positions, keywords_in = self.positions, self.keywords_in
        found: dict[bytes, tuple[int, ...]] = {}
        for word in words:
            inside = keywords_in(word)
            if inside:
                # An entry's first three keywords are among each of its words' first three: keep three.
                found[word] = tuple(sorted(p for keyword in inside for p in positions[keyword])[:LIMIT])
        return found


class KeywordsInWords:
    """Every keyword (its positions, all of them) each word of an entry contains, a word at a time, memoised.

    An entry's matched keywords are those its words contain (a keyword lies
    inside one word, see above): `matched_keywords` for 50,000 entries
    (`explain --all`) reads each distinct word once instead of searching every
    text for every keyword (~0.5 ms an entry with ~800 keywords).
    """

    def __init__(self, keywords: Sequence[str]) -> None:
        self._finder = _KeywordFinder([keyword.encode("ascii") for keyword in keywords])
        self._seen: set[bytes] = set()  # every word looked at
        self._hot: dict[bytes, tuple[int, ...]] = {}  # the words that contain a keyword → its positions
        self._hot_words: set[bytes] = set()

    def positions(self, text: str) -> set[int]:
        """The positions of the keywords `text` (lowered) contains."""
        words = set(_words(text))
        new = words - self._seen  # set operations in C: most words were seen, and most hold no keyword
        if new:
            self._seen |= new
            for word in new:
                inside = self._finder.all_in(word)
                if inside:
                    self._hot[word] = inside
                    self._hot_words.add(word)
        found: set[int] = set()
        for word in words & self._hot_words:
            found.update(self._hot[word])
        return found


def counts_at(first: Sequence[tuple[int, ...]], prefix: int) -> list[int]:
    """Match counts (capped at three) when the packet's keywords are the first `prefix` of the list."""
    return [sum(1 for position in hits if position < prefix) if hits and hits[0] < prefix else 0 for hits in first]
