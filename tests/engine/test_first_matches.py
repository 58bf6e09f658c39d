"""Every entry's first three keywords, found through the vocabulary, give the same counts as searching each text."""

from __future__ import annotations

from ctxtui.engine.packers.ctx import first_matches as fm
from ctxtui.engine.packers.ctx.first_matches import counts_at, first_matches
from ctxtui.engine.packers.ctx.score import Scorer, keywords_by_task
from hypothesis import given, settings
from hypothesis import strategies as st

ALPHABET = "abc-_1 .\n/éß中😀Z\u0130"  # non-ASCII and upper case separate words, as the regex did
keyword_text = st.text(alphabet="abc-_1", min_size=3, max_size=6)


def direct(lowered, keywords, prefix):
    return [min(3, sum(1 for kw in keywords[:prefix] if kw in text)) for text in lowered]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.text(alphabet=ALPHABET, max_size=60), max_size=25),
    st.lists(keyword_text, max_size=12),  # repeats too: two tasks may share a keyword
    st.integers(min_value=1, max_value=5),
)
def test_counts_equal_a_direct_search_at_every_prefix(texts, keywords, chunk):
    original = fm.CHUNK
    fm.CHUNK = chunk  # several chunks, so words first seen in a later chunk are covered
    try:
        first = first_matches(texts, keywords)
    finally:
        fm.CHUNK = original
    for prefix in range(len(keywords) + 1):
        assert counts_at(first, prefix) == direct(texts, keywords, prefix)


def test_overlapping_and_nested_keywords_all_count():
    texts = ["abcdef", "xx-abc_def", "abc"]
    keywords = ["abcd", "cdef", "bcd", "abc"]
    assert first_matches(texts, keywords) == [(0, 1, 2), (3,), (3,)]


def test_scorer_counts_are_the_same_either_way(monkeypatch):
    """Many entries take first_matches, few the text search: the counts agree at every task count."""
    tasks = ["- [ ] fix the parser crash on tables", "- [ ] speed up recompute", "- [ ] parser docs for tables"]
    texts = ["the parser is slow", "tables crash", "recompute parser speed tables docs", "nothing here", "fixing"]

    class E:
        def __init__(self, text):
            self.text, self.date, self.superseded = text, None, False

    entries = [E(t) for t in texts * 3]
    from datetime import UTC, datetime

    now = datetime(2026, 1, 1, tzinfo=UTC)
    monkeypatch.setattr("ctxtui.engine.packers.ctx.score.INDEX_THRESHOLD", 10**9)
    searched = Scorer(entries, tasks, now)
    monkeypatch.setattr("ctxtui.engine.packers.ctx.score.INDEX_THRESHOLD", 0)
    indexed = Scorer(entries, tasks, now)
    assert len(keywords_by_task(tasks)) == 3
    for count in (3, 0, 2, 1, 3):
        assert indexed.match_counts(count) == searched.match_counts(count)
        assert indexed.scores(count) == searched.scores(count)


class _Entry:
    def __init__(self, text):
        self.text, self.date, self.superseded = text, None, False


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="abc-_1 xyz", max_size=40), min_size=1, max_size=60),
    st.lists(st.lists(st.text(alphabet="abc-_1xyz", min_size=3, max_size=5), max_size=4).map(" ".join), max_size=6),
    st.lists(st.integers(min_value=0, max_value=7), min_size=1, max_size=5),
)
def test_the_text_search_counts_in_any_keyword_order(texts, tasks, task_counts):
    """The search tries keywords most texts contain first (reordered as it goes): the counts are a direct search's."""
    from datetime import UTC, datetime

    scorer = Scorer([_Entry(t) for t in texts], tasks, datetime(2026, 1, 1, tzinfo=UTC))
    assert not scorer.indexed
    groups = keywords_by_task(tasks)
    for count in task_counts:
        keywords = [kw for group in groups[:count] for kw in group]
        assert list(scorer.match_counts(count)) == direct(scorer.lowered, keywords, len(keywords))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet=ALPHABET, max_size=60), min_size=1, max_size=12),
    st.lists(keyword_text, max_size=12, unique=True),
)
def test_keywords_in_words_equal_a_direct_search(texts, keywords):
    """`matched_keywords` through the words (explain --all at 50,000 memories) finds what `kw in text` finds."""
    found = fm.KeywordsInWords(keywords)
    for text in texts:
        assert [keywords[p] for p in sorted(found.positions(text))] == [kw for kw in keywords if kw in text]


def test_scorer_matched_keywords_are_the_same_either_way(monkeypatch):
    tasks = ["- [ ] fix the parser crash on tables", "- [ ] speed up recompute", "- [ ] parser docs for tables"]
    texts = ["the parser is slow", "tables crash", "recompute parser speed tables docs", "nothing here", "fixing"]

    class E:
        def __init__(self, text):
            self.text, self.date, self.superseded = text, None, False

    entries = [E(t) for t in texts * 3]
    from datetime import UTC, datetime

    now = datetime(2026, 1, 1, tzinfo=UTC)
    monkeypatch.setattr("ctxtui.engine.packers.ctx.score.INDEX_THRESHOLD", 10**9)
    searched = Scorer(entries, tasks, now)
    monkeypatch.setattr("ctxtui.engine.packers.ctx.score.INDEX_THRESHOLD", 0)
    indexed = Scorer(entries, tasks, now)
    assert indexed.indexed and not searched.indexed
    for count in (3, 0, 2, 1):
        for i in range(len(entries)):
            assert indexed.matched_keywords(i, count) == searched.matched_keywords(i, count)
