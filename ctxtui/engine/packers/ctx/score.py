"""Scoring of decisions, learnings and memories: recency + task relevance.

ctx scores against keywords drawn from the tasks that made it into the packet,
so a ranking depends on how many tasks fit, which depends on the budget. The
`Scorer` keeps everything that does not depend on the budget (recency, lowered
text) and caches the rest by task count, adding only the keywords of newly
included tasks, so a slider step rarely re-scores anything.
"""

from __future__ import annotations

from itertools import repeat
from threading import Lock
from typing import TYPE_CHECKING

from ctxtui.engine.datetimes import UTC
from ctxtui.engine.model import Entry
from ctxtui.engine.packers.ctx.caches import cache_entries, kept, touch
from ctxtui.engine.packers.ctx.first_matches import KeywordsInWords, first_matches
from ctxtui.engine.sources.task_list import TaskLines
from ctxtui.engine.text.go import go_lower
from ctxtui.engine.text.go_time import recency_days

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from datetime import datetime, tzinfo

STOP_WORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "that",
        "this",
        "with",
        "from",
        "are",
        "was",
        "were",
        "been",
        "have",
        "has",
        "had",
        "but",
        "not",
        "you",
        "all",
        "can",
        "her",
        "his",
        "she",
        "its",
        "our",
        "they",
        "will",
        "each",
        "make",
        "like",
        "use",
        "way",
        "may",
        "any",
        "into",
        "when",
        "which",
        "their",
        "about",
        "would",
        "there",
        "what",
        "also",
        "should",
        "after",
        "before",
        "than",
        "then",
        "them",
        "could",
        "more",
        "some",
        "other",
        "only",
        "just",
        "see",
        "add",
        "new",
        "update",
        "how",
    ]
)
RELEVANCE_MATCH_CAP = 3
# Entry × keyword checks above which finding every entry's first matches at once pays for itself.
INDEX_THRESHOLD = 400_000
# Keywords are the runs of a-z, 0-9, "_" and "-" (ctx splits on `[^a-z0-9_-]+`). Every other byte of the
# UTF-8 text becomes a space (a multi-byte character's bytes are all above 127), so `split()` finds them:
# no pattern to compile on a cold `pack`, and a C pass over the text.
_KEYWORD_BYTES = b"abcdefghijklmnopqrstuvwxyz0123456789_-"
_SPACE_OUT = bytes(byte if byte in _KEYWORD_BYTES else 32 for byte in range(256))


def recency_bracket(days: int | None) -> float:
    """1.0 within a week, 0.7 within a month, 0.4 within a quarter, else 0.2."""
    if days is None:
        return 0.2
    if days <= 7:
        return 1.0
    if days <= 30:
        return 0.7
    if days <= 90:
        return 0.4
    return 0.2


def age_in_days(date: str | None, now: datetime, zone: tzinfo | None = None) -> int | None:
    """Whole days from the entry date's local midnight to `now`, as ctx counts them (`score/score.go:36-42`).

    The date is read in `zone` (ctx's time.Local; default: `now`'s own zone)
    with that date's own UTC offset, and the days are
    `int(now.Sub(midnight).Hours() / 24)`. None when the date does not parse
    (ctx then scores recency 0.2).
    """
    if not date:
        return None
    zone = zone or now.tzinfo or UTC
    now_ns = int(now.timestamp()) * 1_000_000_000 + now.microsecond * 1000
    return recency_days(date, now_ns, zone)


def task_keywords(tasks: Sequence[str], fold: Callable[[str], str] = go_lower) -> list[str]:
    """Keywords of the packet's tasks, in order, deduplicated, stop words removed."""
    return [kw for group in keywords_by_task(tasks, fold) for kw in group]


def keywords_by_task(tasks: Sequence[str], fold: Callable[[str], str] = go_lower) -> list[tuple[str, ...]]:
    """For each task, the keywords it adds that no earlier task had.

    `fold` is how the ctx version normalises case (0.8.1 folds, 0.8.0
    lowercases); the split keeps only a-z, 0-9, "-" and "_".
    """
    seen = set(STOP_WORDS)
    return [_new_keywords(fold(task), seen) for task in tasks]


def _new_keywords(folded: str, seen: set[str]) -> tuple[str, ...]:
    """The words of a folded task, in order, of 3 or more characters, not in `seen` (which they join)."""
    new = []
    words = folded.encode("utf-8", "surrogatepass").translate(_SPACE_OUT).decode("ascii").split()
    for word in words:
        if len(word) < 3 or word in seen:
            continue
        seen.add(word)
        new.append(word)
    return tuple(new)


def relevance_of(count: int) -> float:
    """min(count / 3, 1.0), computed as Go does."""
    if count >= RELEVANCE_MATCH_CAP:
        return 1.0
    return float(count) / float(RELEVANCE_MATCH_CAP)


class Scorer:
    """Scores and ranks scored entries for any number of packet tasks.

    `entries` are all scored candidates (decisions, learnings, memories) in
    file order; `tasks` are all pending task lines in file order.
    """

    CACHE_SIZE = 64

    def __init__(
        self,
        entries: Sequence[Entry],
        tasks: Sequence[str],
        now: datetime,
        weights: Sequence[float] | None = None,
        fold: Callable[[str], str] = go_lower,
        zone: tzinfo | None = None,
    ):
        self.entries = list(entries)
        self.cache_size = cache_entries(len(self.entries), most=self.CACHE_SIZE)
        self.now = now
        self.lowered = [fold(entry.text) for entry in self.entries]
        ages: dict[str | None, int | None] = {}  # thousands of memories share a few hundred dates
        self.age_days = [
            ages[entry.date] if entry.date in ages else ages.setdefault(entry.date, age_in_days(entry.date, now, zone))
            for entry in self.entries
        ]
        self.recency = [recency_bracket(days) for days in self.age_days]
        # Database memories multiply their score by importance and usage; 1.0 for markdown.
        self.weights = list(weights) if weights is not None else [1.0] * len(self.entries)
        # Match counts are 0..3 (RELEVANCE_MATCH_CAP): one byte each, not an 8-byte list slot (32 task counts
        # of 50,000 memories kept ~11 MB more as lists).
        self._counts: dict[int, bytes | bytearray] = {0: bytes(len(self.entries))}  # least recently used first
        # Keywords are found task by task as far as a task count needs them (`_keywords_to`): a cold
        # `pack` of ctx-dogfood needs 80 of its 248 tasks' (0.8 → 0.2 ms). `keyword_groups[n]` are the
        # keywords task n adds; keyword positions: the first `prefix[n]` keywords are those of the
        # first n tasks.
        # A TaskList's lines are read, not copied (each is made when read); any other sequence is copied.
        self._tasks = tasks if isinstance(tasks, TaskLines) else list(tasks)
        self._fold, self._seen = fold, set(STOP_WORDS)
        self._finding = Lock()  # the app's explanations may ask while a worker scans thresholds
        self.task_total = len(self._tasks)
        self.keyword_groups: list[tuple[str, ...]] = []
        self.prefix = [0]
        # Many entries: every entry's first three keywords are found once (`first_matches`), and a
        # task count's match counts and scores are then derived from the nearest one already known
        # by the few entries whose count changes (`_at`: keyword position → entries it counts for).
        # A task of n characters has at most n keywords (each is 3 or more characters and a separator,
        # from a text folding makes at most 3× longer), so a small product needs no keywords to decide.
        self.indexed = False
        if len(self.entries) * sum(map(len, self._tasks)) > INDEX_THRESHOLD:
            self.indexed = len(self.entries) * self.prefix_at(self.task_total) > INDEX_THRESHOLD
        self._first: list[tuple[int, ...]] | None = None  # `first_matches`, once found
        self._at: dict[int, list[int]] | None = None
        self._scores: dict[int, list[float]] = {}  # least recently used first
        self._in_words: KeywordsInWords | None = None  # `matched_keywords` when indexed, made when first asked
        self._every_keyword: list[str] = []

    def _keywords_to(self, task_count: int) -> None:
        """Find the keywords of the tasks before `task_count` (as `keywords_by_task` does), if not yet found."""
        groups, prefix, seen, fold = self.keyword_groups, self.prefix, self._seen, self._fold
        with self._finding:
            for task in self._tasks[len(groups) : task_count]:
                new = _new_keywords(fold(task), seen)
                groups.append(new)
                prefix.append(prefix[-1] + len(new))  # after its group: `prefix` never runs ahead of the groups

    def prefix_at(self, task_count: int) -> int:
        """How many keywords the first `task_count` tasks have (all tasks' when there are fewer)."""
        task_count = min(task_count, self.task_total)
        if task_count >= len(self.prefix):
            self._keywords_to(task_count)
        return self.prefix[task_count]

    def groups(self, task_count: int) -> list[tuple[str, ...]]:
        """The keywords each of the first `task_count` tasks adds."""
        self.prefix_at(task_count)
        return self.keyword_groups[:task_count]

    def keywords(self, task_count: int) -> list[str]:
        return [kw for group in self.groups(task_count) for kw in group]

    def match_counts(self, task_count: int) -> bytes | bytearray:
        """How many of the first `task_count` tasks' keywords each entry contains, capped at 3.

        Few entries: each entry's text is searched, keyword by keyword, from the
        nearest task count already counted; relevance saturates at 3 matches,
        so an entry stops being searched once it has 3. Many entries (thousands
        of memories): `first_matches` finds every entry's first three keywords
        once, and any task count is then a count of integers.
        """
        cached = self._counts.get(task_count)
        if cached is not None:
            touch(self._counts, task_count, cached)
            return cached
        if self.indexed:
            counts = self._counts_from_first(task_count)
        else:
            counts = self._search(task_count)
        self._counts[task_count] = counts
        while len(self._counts) > self.cache_size:
            oldest = next(k for k in self._counts if k != 0)
            self._counts.pop(oldest, None)
        return counts

    def _changes(self, start: int, stop: int) -> list[int]:
        """Entries whose count goes up by one per keyword position in [start, stop) (repeats: one per position)."""
        if self._at is None:
            at: dict[int, list[int]] = {}
            for i, hits in enumerate(self._first_matches()):
                for position in hits:
                    at.setdefault(position, []).append(i)
            self._at, self._first = at, None  # the index says all the positions did (~4 MB at 50,000 memories)
        at = self._at
        return [i for position in range(start, stop) for i in at.get(position, ())]

    def _nearest_below(
        self, cache: dict[int, bytes | bytearray] | dict[int, list[float]], task_count: int
    ) -> int | None:
        """The cached task count with the largest keyword prefix not above `task_count`'s.

        Asked only when indexed, so every task's keywords are known (`prefix` is whole)."""
        prefix, top = self.prefix, self.task_total
        limit = prefix[min(task_count, top)]
        best = None
        for known in cache:
            if prefix[min(known, top)] <= limit and (best is None or prefix[min(known, top)] > prefix[min(best, top)]):
                best = known
        return best

    def _first_matches(self) -> list[tuple[int, ...]]:
        if self._first is None:
            self._first = first_matches(self.lowered, self.keywords(self.task_total))
        return self._first

    def _counts_from_first(self, task_count: int) -> bytes | bytearray:
        if self._at is None:
            # The first count (the first screen's): each entry's positions are ascending, so its count is
            # where the prefix would go in them, found in C. The position → entries index that later
            # counts step from (~40 ms at 50,000 memories) is built when one is asked for.
            from bisect import bisect_left  # many entries only: not on a small cold `pack`

            return bytes(map(bisect_left, self._first_matches(), repeat(self.prefix_at(task_count))))
        base = self._nearest_below(self._counts, task_count)
        assert base is not None  # 0 is always cached
        counts = bytearray(self._counts[base])
        for i in self._changes(self.prefix_at(base), self.prefix_at(task_count)):
            counts[i] += 1
        return counts

    def _search(self, task_count: int) -> bytearray:
        """Counts by searching each entry's text, from the nearest smaller task count already counted.

        A count is how many of the keywords the text contains, capped: the
        same in any keyword order. A keyword the text lacks costs a scan of the
        whole text, and an entry is done at its third match, so the keywords
        most texts contain go first: shortest first (short words are found
        more often), then, every 16 entries, those that matched most so far.
        On ctx-large (260 entries, 346 keywords) this scans 3 MB instead of
        12 MB: 7.5 → 1.9 ms of a cold `ctxtui pack`.
        """
        base = max(n for n in self._counts if n <= task_count)
        counts = bytearray(self._counts[base])
        cap = RELEVANCE_MATCH_CAP
        self.prefix_at(task_count)  # the groups up to task_count are found
        order = sorted((kw for group in self.keyword_groups[base:task_count] for kw in group), key=len)
        hits = dict.fromkeys(order, 0)
        lowered = self.lowered
        searched = 0
        for i, count in enumerate(counts):
            if count >= cap or not order:
                continue
            text = lowered[i]
            for keyword in order:
                if keyword in text:
                    hits[keyword] += 1
                    count += 1
                    if count == cap:
                        break
            counts[i] = count
            searched += 1
            if searched % 16 == 0:
                order.sort(key=hits.__getitem__, reverse=True)  # stable: ties keep their order
        return counts

    def scores(self, task_count: int) -> list[float]:
        """Each entry's total score with the first `task_count` tasks in the packet."""
        return kept(self._scores, task_count, lambda: self._scores_for(task_count), self.cache_size)

    def _scores_for(self, task_count: int) -> list[float]:
        counts = self.match_counts(task_count)
        base = self._nearest_below(self._scores, task_count) if self.indexed else None
        if base is not None:
            # Only entries whose match count changed since `base` change score.
            scores = list(self._scores[base])
            for i in set(self._changes(self.prefix_at(base), self.prefix_at(task_count))):
                scores[i] = self._score(i, counts[i])
        else:
            scores = [self._score(i, count) for i, count in enumerate(counts)]
        return scores

    def _score(self, i: int, count: int) -> float:
        """recency + relevance, times the memory's weight; 0 when superseded (relevance_of(0) is 0.0)."""
        if self.entries[i].superseded:
            return 0.0
        total = self.recency[i] + relevance_of(count)
        weight = self.weights[i]
        return total * weight if weight != 1.0 else total

    def matched_keywords(self, index: int, task_count: int) -> tuple[str, ...]:
        """The keywords of the first `task_count` tasks that entry `index`'s text contains, in keyword order."""
        text = self.lowered[index]
        if not self.indexed:
            return tuple(kw for kw in self.keywords(task_count) if kw in text)
        # Many entries and keywords: through the words of the text (every entry's, for `explain --all`).
        if self._in_words is None:
            every = self.keywords(self.task_total)  # two threads may both build it: the same, and one is kept
            self._every_keyword, self._in_words = every, KeywordsInWords(every)
        limit, every = self.prefix_at(task_count), self._every_keyword
        return tuple(every[p] for p in sorted(self._in_words.positions(text)) if p < limit)
