"""The usage boost rule, importance and the kind → section rule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from ctxtui.engine.sources.memory import importance_of, section_for_kind, usage_boost, usage_of
from ctxtui.engine.sources.memory.shared.records import MemoryRecord

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)


def ago(days: float) -> str:
    return (NOW - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize(
    "retrieved, referenced, expected",
    [
        (0, 0, 1.0),
        (1, 1, 1.0),  # no evidence until retrieved twice
        (2, 0, 0.5),
        (2, 1, 1.0),
        (2, 2, 1.5),
        (4, 1, 0.75),
        (3, 9, 1.5),  # more references than retrievals: clamped
    ],
)
def test_counters_only(retrieved, referenced, expected):
    assert usage_boost(retrieved, referenced, (), NOW) == pytest.approx(expected)
    assert usage_boost(retrieved, referenced, [(ago(1), "retrieved")], None) == pytest.approx(expected)


def test_events_decay_with_a_seven_day_half_life():
    events = [(ago(0), "retrieved"), (ago(7), "retrieved"), (ago(7), "referenced")]
    # decayed referenced 0.5 / decayed retrieved 1.5
    assert usage_boost(2, 1, events, NOW) == pytest.approx(0.5 + 0.5 / 1.5)


def test_recent_use_outweighs_old_neglect():
    events = [(ago(28), "retrieved")] * 4 + [(ago(0), "retrieved"), (ago(0), "referenced")]
    undecayed = usage_boost(5, 1, (), NOW)
    assert undecayed == pytest.approx(0.7)
    assert usage_boost(5, 1, events, NOW) == pytest.approx(0.5 + 1 / (1 + 4 * 0.5**4))


def test_included_events_and_bad_times_are_ignored():
    events = [(ago(0), "retrieved"), (ago(0), "included"), ("garbage", "referenced"), (ago(0), "retrieved")]
    assert usage_boost(2, 1, events, NOW) == pytest.approx(0.5)


def test_future_events_weigh_one_and_naive_times_are_utc():
    events = [("2026-05-08T12:00:00", "retrieved"), (ago(0), "retrieved"), (ago(0), "referenced")]
    assert usage_boost(2, 1, events, NOW.replace(tzinfo=None)) == pytest.approx(1.0)


def test_no_dated_retrievals_falls_back_to_counters():
    assert usage_boost(4, 3, [(ago(1), "referenced")], NOW) == pytest.approx(1.25)


def record(**changes) -> MemoryRecord:
    base = dict(
        origin="memory.db",
        id="x",
        kind="fact",
        title="t",
        body="",
        summary=None,
        tags=(),
        project=None,
        importance=0.5,
        status="active",
        superseded_by=None,
        created_at="",
        created_date=None,
        updated_at="",
        last_accessed=None,
        times_retrieved=0,
        times_referenced=0,
    )
    return MemoryRecord(**{**base, **changes})


def test_usage_of_a_record():
    assert usage_of(record(times_retrieved=2, times_referenced=2), NOW) == 1.5


@pytest.mark.parametrize("value, expected", [(0.7, 0.7), (-1.0, 0.0), (3.0, 1.0), (float("nan"), 0.5), (None, 0.5)])
def test_importance_of(value, expected):
    assert importance_of(record(importance=value)) == expected


@pytest.mark.parametrize(
    "kind, section",
    [
        ("decision", "decisions"),
        ("Decision", "decisions"),
        (" DECISION ", "decisions"),
        ("learning", "learnings"),
        ("lesson", "learnings"),
        ("fix", "learnings"),
        ("error", "learnings"),
        ("GOTCHA", "learnings"),
        ("pattern_rationale", "memories"),
        ("decision_context", "memories"),
        ("fact", "memories"),
        ("observation", "memories"),
        ("", "memories"),
        (None, "memories"),
    ],
)
def test_section_for_kind(kind, section):
    assert section_for_kind(kind) == section


def test_provenance():
    assert record(origin="shabka", id="u-1").provenance == "shabka:u-1"
    assert record(origin="cortex", id="mem_1").provenance == "cortex:mem_1"
    assert record().provenance == "memory.db:x"
