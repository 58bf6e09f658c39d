"""Shabka's seven ranking signals and their fusion, in f32 as Rust computes them.

`core/ranking.rs` (weights `:17-29`, fusion `:194-200`, stable sort `:218-222`)
and `core/trust.rs:10-45`:

    score = 0.25·similarity + 0.15·keyword + 0.15·recency + 0.15·importance
          + 0.10·access + 0.05·graph + 0.15·trust

each product rounded to f32 and the sum taken left to right. Recency and
access are computed in f64 on whole seconds and narrowed to f32; everything
else is f32 throughout.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import NamedTuple

from ctxtui.engine.packers.shabka.dates import Moment, seconds_between
from ctxtui.engine.packers.shabka.floats import f32

WEIGHT_NAMES = ("similarity", "keyword", "recency", "importance", "access", "graph", "trust")
WEIGHTS = tuple(f32(w) for w in (0.25, 0.15, 0.15, 0.15, 0.10, 0.05, 0.15))

HALF_LIFE_SECS = 7.0 * 24.0 * 3600.0
LN_2 = math.log(2.0)
FUZZY_ONE, FUZZY_TWO = f32(0.6), f32(0.3)

# Rust's `char::is_whitespace` is Unicode White_Space; `str.split()` in Python splits on more (\x1c-\x1f).
WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000"
)
_SPLIT = re.compile(f"[{WHITE_SPACE}]+")

# Lowercase mappings Rust 1.95 (Unicode 17) has and Python 3.11 (Unicode 14) lacks, found by comparing
# `char::to_lowercase` with `str.lower` for every code point.
_NEWER_LOWERCASE = str.maketrans(
    {
        0x1C89: 0x1C8A,
        0xA7CB: 0x0264,
        0xA7CC: 0xA7CD,
        0xA7CE: 0xA7CF,
        0xA7D2: 0xA7D3,
        0xA7D4: 0xA7D5,
        0xA7DA: 0xA7DB,
        0xA7DC: 0x019B,
        **{0x10D50 + i: 0x10D70 + i for i in range(22)},
        **{0x16EA0 + i: 0x16EBB + i for i in range(25)},
    }
)


class Signals(NamedTuple):
    """One candidate's seven signals, its fused score, and what they came from."""

    similarity: float
    keyword: float
    recency: float
    importance: float
    access: float
    graph: float
    trust: float
    score: float

    def weighted(self) -> tuple[float, ...]:
        """Each signal times its weight, as the fusion adds them."""
        return tuple(f32(w * s) for w, s in zip(WEIGHTS, self[:7], strict=True))


def split_whitespace(text: str) -> list[str]:
    """Rust's `str::split_whitespace`."""
    return [word for word in _SPLIT.split(text) if word]


def lowercase(text: str) -> str:
    """Rust's `str::to_lowercase` (full mappings, final sigma)."""
    return text.translate(_NEWER_LOWERCASE).lower()


def similarity(distance: float) -> float:
    """`1.0 / (1.0 + distance as f32)` (`storage/sqlite.rs:967`)."""
    return f32(1.0 / f32(1.0 + distance))


def osa_distance(a: str, b: str) -> int:
    """`damerau_levenshtein` (`ranking.rs:84-119`): optimal string alignment over chars."""
    n, m = len(a), len(b)
    if n == 0:
        return m
    if m == 0:
        return n
    before = None
    previous = list(range(m + 1))
    for i in range(1, n + 1):
        current = [i] + [0] * m
        ai = a[i - 1]
        for j in range(1, m + 1):
            cost = 0 if ai == b[j - 1] else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ai == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, before[j - 2] + cost)  # type: ignore[index]
            current[j] = best
        before, previous = previous, current
    return previous[m]


class KeywordMatch(NamedTuple):
    """Per query term: 1.0 for a substring hit, 0.6 / 0.3 for the nearest word at distance 1 / 2, else 0."""

    score: float
    credits: tuple[tuple[str, float, str | None], ...]  # (term, credit, the word that earned a fuzzy credit)


def keyword(query: str, title: str, content: str, tags: Sequence[str]) -> KeywordMatch:
    """`keyword_score` (`ranking.rs:125-170`).

    The haystack is lowercase title, content and tags joined by spaces (tags
    joined with a space here, not ", "); a term scores 1.0 when it occurs
    anywhere in it, else the best fuzzy credit over the words whose UTF-8
    length is within 2 bytes of the term's (the distance itself counts chars).
    """
    terms = split_whitespace(query)
    if not terms:
        return KeywordMatch(0.0, ())
    haystack = f"{lowercase(title)} {lowercase(content)} {lowercase(' '.join(tags))}"
    words: list[tuple[str, int]] | None = None
    total = 0.0
    credits: list[tuple[str, float, str | None]] = []
    for term in terms:
        low = lowercase(term)
        if low in haystack:
            total = f32(total + 1.0)
            credits.append((term, 1.0, None))
            continue
        if words is None:
            words = [(w, len(w.encode("utf-8", "surrogatepass"))) for w in split_whitespace(haystack)]
        size = len(low.encode("utf-8", "surrogatepass"))
        best, best_word = 0.0, None
        for word, word_size in words:
            # Byte lengths decide who is measured; a char-length gap above 2 already means a distance above 2.
            if abs(word_size - size) > 2 or abs(len(word) - len(low)) > 2:
                continue
            distance = osa_distance(low, word)
            credit = FUZZY_ONE if distance == 1 else FUZZY_TWO if distance == 2 else 0.0
            if credit > best:
                best, best_word = credit, word
                if credit == FUZZY_ONE:
                    break
        total = f32(total + best)
        credits.append((term, best, best_word))
    return KeywordMatch(f32(total / f32(float(len(terms)))), tuple(credits))


def recency(created: Moment, now: Moment) -> float:
    """`recency_score` (`ranking.rs:61-66`): a 7-day half-life on whole seconds, in f64, then f32."""
    age = float(max(seconds_between(now, created), 0))
    return f32(math.exp(-age * LN_2 / HALF_LIFE_SECS))


def access(accessed: Moment, created: Moment, now: Moment) -> float:
    """`access_score` (`ranking.rs:70-80`): 1 − min(since access / since creation, 1), in f64, then f32."""
    age = float(max(seconds_between(now, created), 1))
    since = float(max(seconds_between(now, accessed), 0))
    return f32(1.0 - min(since / age, 1.0))


def graph(relations: int) -> float:
    """`graph_score` (`ranking.rs:174-176`): outgoing relations / 5, at most 1."""
    return min(f32(f32(float(relations)) / 5.0), 1.0)


VERIFICATION_WEIGHT = {"verified": 1.0, "unverified": 0.5, "disputed": 0.2, "outdated": 0.1}
SOURCE_WEIGHT = {"manual": 0.9, "derived": 0.7, "import": 0.6, "auto_capture": 0.5}


def quality(has_tags: bool, content_bytes: int) -> float:
    decent = content_bytes >= 50
    return 1.0 if has_tags and decent else 0.6 if has_tags or decent else 0.3


def trust(verification: str, source_type: str, contradictions: int, has_tags: bool, content_bytes: int) -> float:
    """`trust_score` (`trust.rs:10-45`): 0.40 verification + 0.30 source + 0.20 contradictions + 0.10 quality."""
    contradiction = 1.0 if contradictions == 0 else 0.5 if contradictions == 1 else 0.2
    score = f32(f32(0.40) * f32(VERIFICATION_WEIGHT[verification]))
    score = f32(score + f32(f32(0.30) * f32(SOURCE_WEIGHT[source_type])))
    score = f32(score + f32(f32(0.20) * f32(contradiction)))
    score = f32(score + f32(f32(0.10) * f32(quality(has_tags, content_bytes))))
    return min(max(score, 0.0), 1.0)


def fuse(sim: float, kw: float, rec: float, imp: float, acc: float, grp: float, tru: float) -> Signals:
    """The weighted sum, left to right in f32 (`ranking.rs:194-200`)."""
    products = [f32(weight * value) for weight, value in zip(WEIGHTS, (sim, kw, rec, imp, acc, grp, tru), strict=True)]
    score = products[0]
    for product in products[1:]:
        score = f32(score + product)
    return Signals(sim, kw, rec, imp, acc, grp, tru, score)
