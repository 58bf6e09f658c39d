"""What a memory database adds to an entry's score: importance and a usage boost,
and which scored section a memory's kind joins.

Recency and relevance are scored exactly as for markdown entries elsewhere;
this module only knows what the database knows. Pure functions: "now" is
always the caller's.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from functools import lru_cache

from ctxtui.engine.sources.memory.shared.records import EVENT_REFERENCED, EVENT_RETRIEVED, MemoryRecord
from ctxtui.engine.sources.memory.shared.values import DEFAULT_IMPORTANCE, parse_when

HALF_LIFE_DAYS = 7.0
MIN_RETRIEVALS = 2
BOOST_MIN, BOOST_NEUTRAL, BOOST_MAX = 0.5, 1.0, 1.5

DECISION_KINDS = frozenset({"decision"})
LEARNING_KINDS = frozenset({"learning", "lesson", "fix", "error", "gotcha"})


@lru_cache(maxsize=1024)  # a store has a few kinds and 50,000 memories ask (a bound: kinds are untrusted text)
def section_for_kind(kind: str | None) -> str:
    """The scored section a memory joins: "decisions", "learnings" or "memories".

    Only the kind "decision" joins Recent Decisions, and only learning-like
    kinds (learning, lesson, fix, error, gotcha) join Key Learnings; anything
    else — Cortex's decision_context and pattern_rationale included — forms
    the "memories" section. Case and surrounding spaces are ignored.
    """
    key = (kind or "").strip().lower()
    if key in DECISION_KINDS:
        return "decisions"
    if key in LEARNING_KINDS:
        return "learnings"
    return "memories"


def usage_boost(
    times_retrieved: int,
    times_referenced: int,
    events: Iterable[tuple[str, str]] = (),
    now: datetime | None = None,
) -> float:
    """The seeds' usage rule, as a multiplier in [0.5, 1.5].

    - Until a memory has been retrieved at least twice (`times_retrieved`
      < 2) there is no evidence either way: 1.0.
    - Then the boost is 0.5 + referenced / retrieved: a memory the agent
      used every time it saw it gets 1.5, one it never used gets 0.5.
    - When timestamped events are known (pairs of ISO time and "retrieved" /
      "referenced"; others such as "included" are ignored) and `now` is given,
      each event weighs 0.5 ** (age_days / 7), a 7-day half-life, and the
      ratio is decayed referenced / decayed retrieved, so old habits fade.
      Events dated after `now` weigh 1. Events whose time does not parse are
      ignored; if no dated "retrieved" event remains, the counters are used.
    - With only the counters, the ratio is undecayed.
    - The result is clamped to [0.5, 1.5].
    """
    if times_retrieved is None or times_retrieved < MIN_RETRIEVALS:
        return BOOST_NEUTRAL
    ratio = None
    if events and now is not None:
        ratio = _decayed_ratio(events, now)
    if ratio is None:
        ratio = (times_referenced or 0) / times_retrieved
    return min(BOOST_MAX, max(BOOST_MIN, 0.5 + ratio))


def _decayed_ratio(events: Iterable[tuple[str, str]], now: datetime) -> float | None:
    """Decayed referenced / decayed retrieved; None when no dated "retrieved" event is left.

    The loop runs for every event of every memory at each load (150,000 events
    with 50,000 memories), so text timestamps go straight to
    `datetime.fromisoformat` and only what that refuses goes through
    `parse_when` (which tries the same, then the stripped text, then numbers):
    the same datetimes, the same arithmetic in the same order.
    """
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    retrieved = referenced = 0.0
    fromisoformat = datetime.fromisoformat
    for at, event in events:
        if event == EVENT_RETRIEVED:
            is_retrieved = True
        elif event == EVENT_REFERENCED:
            is_retrieved = False
        else:
            continue
        when: datetime | None
        try:
            when = fromisoformat(at) if type(at) is str else parse_when(at)
        except ValueError:
            when = parse_when(at)
        if when is None:
            continue
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        age_days = max(0.0, (now - when).total_seconds() / 86400.0)
        weight = 0.5 ** (age_days / HALF_LIFE_DAYS)
        if is_retrieved:
            retrieved += weight
        else:
            referenced += weight
    if retrieved <= 0.0:
        return None
    return referenced / retrieved


def usage_of(record: MemoryRecord, now: datetime | None) -> float:
    """`usage_boost` for a record's counters and events."""
    return usage_boost(record.times_retrieved, record.times_referenced, record.usage_events, now)


def importance_of(record: MemoryRecord | None) -> float:
    """The record's importance in [0, 1] (0.5 when unknown).

    Adapters already clamp importance and map Cortex's words (low, normal,
    high, critical → 0.2, 0.5, 0.8, 1.0); this is the one place a scorer
    asks, so a record built by hand cannot smuggle in an out-of-range value.
    """
    value = getattr(record, "importance", None)
    if value is None or value != value:  # None or NaN
        return DEFAULT_IMPORTANCE
    return min(1.0, max(0.0, float(value)))
