"""The spec's reference values (from ctx's own unit tests), exact."""

from __future__ import annotations

import bisect
from datetime import UTC, datetime
from itertools import accumulate

import pytest
from ctxtui.engine.model import Entry
from ctxtui.engine.packers.ctx.budget import fit_prefix, full_limit, split_shares
from ctxtui.engine.packers.ctx.score import Scorer, age_in_days, recency_bracket, relevance_of, task_keywords
from ctxtui.engine.text.tokens import estimate, estimate_list
from hypothesis import given, settings
from hypothesis import strategies as st

NOON = datetime(2026, 2, 19, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "text, tokens", [("", 0), ("a", 1), ("test", 1), ("tests", 2), ("hello", 2), ("Hello, world! This is a test.", 8)]
)
def test_token_estimate(text, tokens):
    assert estimate(text) == tokens


def test_list_costs_the_sum_of_items():
    assert estimate_list(["hello", "world"]) == 4


@pytest.mark.parametrize(
    "total, a, b, expected",
    [
        (100, 500, 500, [50, 50]),
        (1000, 200, 300, [200, 300]),
        (1000, 900, 100, [900, 100]),
        (1001, 3000, 1000, [600, 401]),
    ],
)
def test_split(total, a, b, expected):
    assert split_shares(total, [a, b], [True, True]) == expected


def test_split_edge_cases():
    assert split_shares(100, [0, 0], [False, False]) == [0, 0]
    assert split_shares(100, [0, 40], [False, True]) == [0, 100]
    assert split_shares(101, [0, 0], [True, True]) == [50, 51]


def _fill(entries, share):
    limit, used, full, summaries = full_limit(share), 0, [], []
    for name, tokens in entries:
        if used + tokens <= limit:
            full.append(name)
            used += tokens
        else:
            summaries.append(name)
    return full, summaries


def test_fill_reference():
    entries = [("High", 10), ("Medium", 8), ("Low", 7)]
    assert _fill(entries, 1000) == (["High", "Medium", "Low"], [])
    assert _fill(entries, 20) == (["High"], ["Medium", "Low"])


def test_keywords():
    tasks = ["- [ ] Implement hook scoring for the agent", "- [ ] Fix budget allocation in ctx agent"]
    assert task_keywords(tasks) == ["implement", "hook", "scoring", "agent", "fix", "budget", "allocation", "ctx"]


def _block(date, title, body):
    text = f"## [{date}-120000] {title}\n\n{body}"
    return Entry(key=title, section="decisions", title=title, text=text, tokens=estimate(text), source="x", date=date)


def test_entry_score():
    entry = _block("2026-02-19", "Hook edge cases", "hooks fail silently in agent mode")
    scorer = Scorer([entry], ["- [ ] hook agent scoring"], NOON)
    assert scorer.scores(1) == [1.6666666666666665]


@pytest.mark.parametrize(
    "date, recency",
    [
        ("2026-02-19", 1.0),
        ("2026-02-16", 1.0),
        ("2026-02-12", 1.0),
        ("2026-02-11", 0.7),
        ("2026-01-20", 0.7),
        ("2026-01-19", 0.4),
        ("2025-11-21", 0.4),
        ("2025-11-20", 0.2),
        ("not-a-date", 0.2),
        ("2026-02-30", 0.2),
        ("2027-01-01", 1.0),
    ],
)
def test_recency(date, recency):
    assert recency_bracket(age_in_days(date, NOON)) == recency


def test_relevance():
    assert relevance_of(2) == 0.6666666666666666
    entry = _block("2026-02-19", "Hook AGENT Scoring", "")
    scorer = Scorer([entry], ["- [ ] hook agent scoring"], NOON)
    assert list(scorer.match_counts(1)) == [3]


def test_blocks():
    entries = [
        _block("2026-02-19", "Recent relevant", "hook scoring for agent"),
        _block("2026-02-10", "Medium age", "hook configuration"),
        _block("2025-10-01", "Old irrelevant", "something unrelated"),
    ]
    scorer = Scorer(entries, ["- [ ] hook scoring agent"], NOON)
    assert scorer.scores(1) == [2.0, 1.0333333333333332, 0.2]


def test_fit_prefix_forces_the_first_item():
    assert fit_prefix([0, 10, 20], 5) == (1, True)
    assert fit_prefix([0, 10, 20], 15) == (1, False)
    assert fit_prefix([0], 5) == (0, False)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=50), max_size=30).map(lambda costs: [0, *accumulate(costs)]),
    st.integers(min_value=-(2**63), max_value=2**63),
)
def test_fit_prefix_searches_as_bisect_right(cumulative, cap):
    """The hand-written search (no `bisect` on the cold pack path) finds what bisect_right found."""
    count = bisect.bisect_right(cumulative, cap) - 1
    expected = (1, True) if count <= 0 and len(cumulative) > 1 else (max(count, 0), False)
    assert fit_prefix(cumulative, cap) == expected
