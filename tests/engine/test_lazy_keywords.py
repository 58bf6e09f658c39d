"""The scorer finds tasks' keywords only as far as a task count needs them, with the same result as all at once.

A cold `ctxtui pack` of ctx-dogfood has 248 pending tasks and a packet of 80:
finding the other 168 tasks' keywords was ~0.6 ms of a race with the Go `ctx`.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from ctxtui.engine.packers.ctx import score
from ctxtui.engine.packers.ctx.score import Scorer, keywords_by_task
from ctxtui.engine.text.go import go_fold
from hypothesis import given, settings
from hypothesis import strategies as st

NOW = datetime(2026, 1, 1, tzinfo=UTC)
task_text = st.lists(st.sampled_from(["parser", "the", "ab", "Straße", "tables", "x-y_z", "PARSER", "İstanbul", "fix"]))


class _Entry:
    def __init__(self, text: str) -> None:
        self.text, self.date, self.superseded = text, None, False


def _flat(groups):
    return [kw for group in groups for kw in group]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(task_text.map(" ".join), max_size=12),
    st.lists(st.integers(min_value=0, max_value=15), min_size=1, max_size=8),
)
def test_keywords_found_in_any_order_of_task_counts_equal_all_at_once(tasks, asked):
    scorer = Scorer([_Entry("parser tables")], tasks, NOW, fold=go_fold)
    whole = keywords_by_task(tasks, go_fold)
    for count in asked:
        assert scorer.groups(count) == whole[:count]
        assert scorer.keywords(count) == _flat(whole[:count])
        assert scorer.prefix_at(count) == len(_flat(whole[:count]))
        assert len(scorer.keyword_groups) <= max(asked)  # never more tasks than asked for
    assert scorer.prefix == [0, *(len(_flat(whole[:n])) for n in range(1, len(scorer.keyword_groups) + 1))]


def test_a_few_entries_need_only_the_packet_tasks_keywords():
    tasks = [f"- [ ] task number {n} about parser{n}" for n in range(200)]
    scorer = Scorer([_Entry("parser3 text")], tasks, NOW)
    assert not scorer.indexed
    assert list(scorer.match_counts(10)) == [1]
    assert len(scorer.keyword_groups) == 10


def test_the_index_decision_is_the_same_as_with_every_keyword_known(monkeypatch):
    """Entries × characters of all tasks bounds entries × keywords: under the threshold, nothing is found."""
    tasks = ["- [ ] parser tables", "- [ ] recompute speed"]  # 4 keywords, 40 characters
    entries = [_Entry("parser")] * 10
    monkeypatch.setattr(score, "INDEX_THRESHOLD", 39)  # 10 × 4 = 40 > 39: indexed, found whole
    assert Scorer(entries, tasks, NOW).indexed
    monkeypatch.setattr(score, "INDEX_THRESHOLD", 40)  # 40 keyword checks are not over 40; 400 characters are
    decided = Scorer(entries, tasks, NOW)
    assert not decided.indexed
    assert len(decided.keyword_groups) == 2  # the bound did not settle it: every keyword was found
    monkeypatch.setattr(score, "INDEX_THRESHOLD", 400)  # the bound settles it
    assert len(Scorer(entries, tasks, NOW).keyword_groups) == 0


def test_threads_asking_at_once_find_each_task_once():
    tasks = [f"- [ ] word{n} other{n} more{n}" for n in range(3000)]
    scorer = Scorer([_Entry("word7")], tasks, NOW)
    start = threading.Barrier(4)

    def ask(count: int) -> None:
        start.wait()
        scorer.prefix_at(count)

    threads = [threading.Thread(target=ask, args=(count,)) for count in (3000, 1500, 2999, 10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert scorer.keyword_groups == keywords_by_task(tasks)
    assert scorer.prefix_at(3000) == 9000


def _by_pattern(tasks, fold):
    """ctx's split as a regular expression (what the byte translation replaced)."""
    import re

    seen, groups = set(score.STOP_WORDS), []
    for task in tasks:
        new = []
        for word in re.split(r"[^a-z0-9_-]+", fold(task)):
            if len(word) >= 3 and word not in seen:
                seen.add(word)
                new.append(word)
        groups.append(tuple(new))
    return groups


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.one_of(
                st.sampled_from("abcXYZ019_- \t\n.,:/éßİſﬁ中😀\x00\x7f\x80"),
                st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF),  # invalid bytes, as `decode` keeps them
            ),
            max_size=40,
        ),
        max_size=6,
    )
)
def test_the_split_is_ctxs_pattern(tasks):
    from ctxtui.engine.text.go import go_lower

    for fold in (go_fold, go_lower):
        assert keywords_by_task(tasks, fold) == _by_pattern(tasks, fold)
