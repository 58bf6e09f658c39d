"""The start-up fast paths of the memory join give exactly what the plain code they replaced gave (issue 11).

Each reference below is the code as it was before the fast path, kept here
as the definition: the usage decay's direct `fromisoformat`, the title's
one-call newline replacement, and the frozen-for-type-checkers records.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta, timezone

from ctxtui.engine.model import Entry
from ctxtui.engine.sources.memory.shared.records import EVENT_REFERENCED, EVENT_RETRIEVED, MemoryRecord
from ctxtui.engine.sources.memory.shared.scoring import HALF_LIFE_DAYS, _decayed_ratio
from ctxtui.engine.sources.memory.shared.values import parse_when
from hypothesis import given, settings
from hypothesis import strategies as st

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)


def reference_decayed_ratio(events, now):
    """`_decayed_ratio` before the fast path: every timestamp through `parse_when`, the sums in event order."""
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    sums = {EVENT_RETRIEVED: 0.0, EVENT_REFERENCED: 0.0}
    for at, event in events:
        when = parse_when(at) if event in sums else None
        if when is not None:
            when = when if when.tzinfo else when.replace(tzinfo=UTC)
            sums[event] += 0.5 ** (max(0.0, (now - when).total_seconds() / 86400.0) / HALF_LIFE_DAYS)
    return sums[EVENT_REFERENCED] / sums[EVENT_RETRIEVED] if sums[EVENT_RETRIEVED] > 0.0 else None


def _iso(moment: datetime, style: int) -> str:
    return [
        moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        moment.isoformat(),
        moment.replace(tzinfo=None).isoformat(sep=" "),
        f"  {moment.isoformat()}\n",  # only the stripped text parses
        moment.strftime("%Y-%m-%d"),
        moment.astimezone(UTC).replace(microsecond=123456).isoformat(),
    ][style]


stamps = st.one_of(
    st.builds(
        _iso,
        st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)),
        st.integers(0, 5),
    ),
    st.text(max_size=12),  # junk, non-ASCII included
    st.integers(-(10**13), 10**13),  # Unix seconds or milliseconds
    st.floats(allow_nan=True, allow_infinity=True),
    st.none(),
    st.binary(max_size=24),
)
event_names = st.sampled_from([EVENT_RETRIEVED, EVENT_REFERENCED, "included", "Retrieved", "référencé", ""])


@settings(max_examples=400, deadline=None)
@given(events=st.lists(st.tuples(stamps, event_names), max_size=12), offset_hours=st.integers(-14, 14))
def test_decay_fast_path_equals_the_reference(events, offset_hours):
    for now in (NOW, NOW.replace(tzinfo=None), NOW.astimezone(timezone(timedelta(hours=offset_hours)))):
        assert _decayed_ratio(events, now) == reference_decayed_ratio(events, now)


@given(st.text())
def test_title_newlines_replaced_as_split_and_join_did(title):
    assert title.replace("\n", " ") == " ".join(title.split("\n"))


def _frozen_twin(cls):
    """The same fields as a plain `@dataclass(frozen=True, slots=True)`."""
    fields = [(f.name, f.type, dataclasses.field(default=f.default)) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(cls.__name__ + "Frozen", fields, frozen=True, slots=True)


@given(st.text(max_size=8), st.text(max_size=8), st.integers(0, 9), st.none() | st.floats(0, 1))
def test_entries_compare_and_hash_by_their_fields(key, text, tokens, usage):
    """Entry is a NamedTuple (no `dataclasses` on a cold `pack`'s path): it compares and hashes by its fields."""
    a, b = Entry(key, "memories", "t", text, tokens, "s", usage=usage), Entry(key, "memories", "t", text, tokens, "s")
    assert (a == b) == (usage is None)
    assert hash(a) == hash(tuple(a)) and a == a._replace()
    assert not hasattr(a, "__dict__")


def test_records_hash_by_their_fields():
    base = dict(
        origin="memory.db", id="m-1", kind="note", title="Tïtle", body="b", summary=None, tags=("x",), project=None,
        importance=0.5, status="active", superseded_by=None, created_at="2026-01-01T00:00:00Z",
        created_date="2026-01-01", updated_at="", last_accessed=None, times_retrieved=0, times_referenced=0,
    )  # fmt: skip
    one, same, other = MemoryRecord(**base), MemoryRecord(**base), MemoryRecord(**{**base, "body": "c"})
    assert one == same and hash(one) == hash(same) and one != other
    assert hash(one) == hash(_frozen_twin(MemoryRecord)(**base))


def test_the_native_fingerprint_is_of_the_cells_and_moves_with_any_of_them(tmp_path):
    """ctxtui's own reader hashes the cells (not the records): same cells, same fingerprint; any edit moves it."""
    import sqlite3

    from ctxtui.engine.sources.memory.adapters import load_memories
    from ctxtui.engine.sources.memory.source import fingerprint

    from tests.factories.memory_dbs import build_native_db, build_shabka_db

    db = build_native_db(tmp_path / "m.db", 40, seed=3, now=NOW)
    first, again = load_memories(db, now=NOW), load_memories(db, now=NOW)
    assert first.fingerprint is not None and fingerprint(first) == fingerprint(again)
    assert load_memories(db, "no-such-project", now=NOW).fingerprint != first.fingerprint
    assert load_memories(db, now=NOW + timedelta(days=400)).fingerprint != first.fingerprint  # another date bound
    seen = {fingerprint(first)}
    for sql in (
        "UPDATE memories SET body = body || 'é' WHERE rowid = 7",
        "UPDATE usage_events SET event = 'retrieved' "
        "WHERE rowid = (SELECT max(rowid) FROM usage_events WHERE event = 'referenced')",
        "DELETE FROM usage_events WHERE rowid = (SELECT min(rowid) FROM usage_events)",
    ):
        with sqlite3.connect(db) as conn:
            conn.execute(sql)
        changed = load_memories(db, now=NOW)
        assert fingerprint(changed) not in seen
        seen.add(fingerprint(changed))
    shabka = load_memories(build_shabka_db(tmp_path / "s.db", 10, seed=3, now=NOW), now=NOW)
    assert shabka.fingerprint is None and fingerprint(shabka) == hash(tuple(shabka.records))  # other stores: records


def test_a_join_keeps_its_records_only_until_released(tmp_path, monkeypatch):
    """The records a join's entries were made from are freed when the TUI says (after a first frame), in slices."""
    import sys

    import ctxtui.engine.packers.ctx.memories as joins
    from ctxtui.engine.packers.ctx.memories import MemoryJoin

    from tests.factories.memory_dbs import build_native_db

    monkeypatch.setattr(joins, "RELEASE_SLICE", 7)  # several slices
    join = MemoryJoin(build_native_db(tmp_path / "m.db", 30, seed=5, now=NOW), live=True)
    joined = join.load(NOW)
    assert len(join._made_from) == len(joined.entries) == 30
    probe = join._made_from[0]
    held = sys.getrefcount(probe)
    join.release_records()
    assert join._made_from == [] and len(joined.entries) == 30
    assert sys.getrefcount(probe) == held - 1  # the join let go of it: only the probe holds it now
    join.release_records()  # nothing left: a no-op
    again = join.load(NOW, refresh=False)  # the entries outlive their records
    assert again.entries == joined.entries
