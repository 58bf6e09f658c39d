"""Each store's rows map onto MemoryRecord as documented in adapters.py."""

from __future__ import annotations

import json

from ctxtui.engine.sources.memory import load_memories
from ctxtui.engine.sources.memory.native.schema import add_memory

from .conftest import empty_store, execute


def by_id(load):
    return {record.id: record for record in load.records}


def test_native_columns_events_and_provenance(tmp_path, now):
    db = tmp_path / "memory.db"
    add_memory(
        db,
        id="d1",
        kind="decision",
        title="Use SQLite for memories",
        body="One file.\nNo server.",
        summary="One file",
        tags=["db", "storage"],
        project="ctxtui",
        importance=0.9,
        confidence=0.7,
        created_at="2026-04-30T08:00:00Z",
        updated_at="2026-04-30T09:00:00Z",
        last_accessed="2026-05-01T10:00:00Z",
        events=[
            ("2026-04-30T10:00:00Z", "retrieved"),
            ("2026-04-30T10:00:01Z", "included"),
            ("2026-04-30T10:00:02Z", "referenced"),
            ("2026-05-01T10:00:00Z", "retrieved"),
        ],
    )
    load = load_memories(db)
    assert load.schema == "ctxtui" and load.problems == [] and load.user_version == 1
    record = load.records[0]
    assert record.provenance == "memory.db:d1"
    assert (record.origin, record.kind, record.title, record.body) == (
        "memory.db",
        "decision",
        "Use SQLite for memories",
        "One file.\nNo server.",
    )
    assert record.summary == "One file" and record.tags == ("db", "storage") and record.project == "ctxtui"
    assert (record.importance, record.confidence, record.status) == (0.9, 0.7, "active")
    assert (record.created_at, record.created_date) == ("2026-04-30T08:00:00Z", "2026-04-30")
    assert record.updated_at == "2026-04-30T09:00:00Z" and record.last_accessed == "2026-05-01T10:00:00Z"
    assert (record.times_retrieved, record.times_referenced) == (2, 1)
    assert record.usage_events[0] == ("2026-04-30T10:00:00Z", "retrieved")
    assert len(record.usage_events) == 4 and record.row == 1


def test_native_usage_stats_and_superseded(tmp_path):
    db = tmp_path / "memory.db"
    add_memory(db, id="old", title="Old way", created_at="2026-01-01T00:00:00Z", superseded_by="new")
    add_memory(
        db, id="new", title="New way", created_at="2026-02-01T00:00:00Z", events=[("2026-02-02T00:00:00Z", "retrieved")]
    )
    execute(db, "INSERT INTO usage_stats VALUES ('new', 7, 3)")
    records = by_id(load_memories(db))
    assert records["old"].status == "superseded" and records["old"].superseded_by == "new"
    assert (records["new"].times_retrieved, records["new"].times_referenced) == (7, 3)


def test_shabka_mapping(tmp_path):
    db = empty_store(tmp_path / "any-name.sqlite", "shabka")
    row = (
        "INSERT INTO memories (id, kind, title, content, summary, tags, importance, status, project_id, "
        "created_at, updated_at, accessed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    stamp = "2026-04-29T22:15:03.123456789+00:00"
    execute(
        db,
        row,
        "u1",
        "lesson",
        "Pin the runner image",
        "It drifted.",
        "",
        '["ci"]',
        0.8,
        "active",
        "p1",
        stamp,
        stamp,
        stamp,
    )
    execute(db, row, "u2", "decision", "Old plan", "Body", "A summary", "[]", 0.3, "active", "p2", stamp, stamp, stamp)
    execute(db, row, "u3", "fact", "Gone", "Body", "", "[]", 0.1, "archived", "p1", stamp, stamp, stamp)
    execute(db, "INSERT INTO relations (source_id, target_id, relation_type) VALUES ('u1', 'u2', 'supersedes')")
    load = load_memories(db)
    assert load.schema == "shabka" and load.problems == []
    records = by_id(load)
    u1 = records["u1"]
    assert u1.provenance == "shabka:u1" and u1.body == "It drifted." and u1.summary is None
    assert u1.project == "p1" and u1.importance == 0.8 and u1.created_date == "2026-04-29"
    assert u1.last_accessed == stamp and (u1.times_retrieved, u1.usage_events) == (0, ())
    assert records["u2"].status == "superseded" and records["u2"].superseded_by == "u1"
    assert records["u3"].status == "archived"
    assert [r.id for r in load_memories(db, project="p1").records] == ["u1", "u3"]


def cortex_row(db, mid, type_, content, **extra):
    columns = {
        "id": mid,
        "type": type_,
        "content": json.dumps(content),
        "summary": extra.pop("summary", "s"),
        "created_at": "2026-04-01T10:00:00.000Z",
        "updated_at": "2026-04-01T10:00:00.000Z",
        **extra,
    }
    names = ", ".join(columns)
    execute(db, f"INSERT INTO memories ({names}) VALUES ({', '.join('?' * len(columns))})", *columns.values())


def test_cortex_title_keys_in_order(tmp_path):
    db = empty_store(tmp_path / "x.db", "cortex")
    cortex_row(db, "a", "core", {"decisionSummary": "D", "patternName": "P", "name": "N", "topic": "T", "title": "A"})
    cortex_row(db, "b", "tribal", {"decisionSummary": "D", "patternName": "P", "name": "N", "topic": "B"})
    cortex_row(db, "c", "procedural", {"decisionSummary": "D", "name": "C", "steps": ["x", "y"]})
    cortex_row(db, "d", "pattern_rationale", {"decisionSummary": "D", "patternName": "Pd"})
    cortex_row(db, "e", "decision_context", {"decisionSummary": "E", "businessContext": "Why we chose it."})
    cortex_row(db, "f", "episodic", {"interaction": {"q": 1}}, summary="From the summary")
    records = by_id(load_memories(db))
    assert [records[k].title for k in "abcdef"] == ["A", "B", "C", "Pd", "E", "From the summary"]
    assert records["e"].body == "Why we chose it."
    assert records["c"].body == "decisionSummary: D\n\nsteps: x, y"  # the rest of the JSON, as text
    assert records["e"].kind == "decision_context" and records["e"].provenance == "cortex:e"


def test_cortex_importance_status_and_usage(tmp_path):
    db = empty_store(tmp_path / "x.db", "cortex")
    for mid, word in [("l", "low"), ("n", "normal"), ("h", "high"), ("c", "CRITICAL")]:
        cortex_row(db, mid, "semantic", {"topic": mid}, importance=word)
    cortex_row(db, "arch", "semantic", {"topic": "t"}, archived=1)
    cortex_row(db, "sup", "semantic", {"topic": "t"}, archived=1, superseded_by="n")
    cortex_row(db, "used", "semantic", {"topic": "t"}, access_count=5, last_accessed="2026-04-30T00:00:00.000Z")
    for i, outcome in enumerate(["accepted", "modified", "rejected"]):
        execute(
            db,
            "INSERT INTO memory_usage_history (id, memory_id, outcome, used_at) VALUES (?, 'used', ?, ?)",
            f"h{i}",
            outcome,
            f"2026-04-2{i}T00:00:00.000Z",
        )
    load = load_memories(db, project="anything")
    records = by_id(load)
    assert [records[k].importance for k in "lnhc"] == [0.2, 0.5, 0.8, 1.0]
    assert records["arch"].status == "archived"
    assert records["sup"].status == "superseded" and records["sup"].superseded_by == "n"
    used = records["used"]
    assert (used.times_retrieved, used.times_referenced) == (5, 2)
    assert used.usage_events == (
        ("2026-04-20T00:00:00.000Z", "retrieved"),
        ("2026-04-20T00:00:00.000Z", "referenced"),
        ("2026-04-21T00:00:00.000Z", "retrieved"),
        ("2026-04-21T00:00:00.000Z", "referenced"),
        ("2026-04-22T00:00:00.000Z", "retrieved"),
    )
    assert used.last_accessed == "2026-04-30T00:00:00.000Z"
    # Cortex has no project column: the filter is reported, not silently applied.
    assert len(load.records) == 7
    assert any("no project column" in p.message for p in load.problems)


def test_synthetic_stores_all_load_cleanly(native_db, shabka_db, cortex_db):
    for db, schema in [(native_db, "ctxtui"), (shabka_db, "shabka"), (cortex_db, "cortex")]:
        load = load_memories(db)
        assert (load.schema, len(load.records), load.problems) == (schema, 40, [])
        assert {r.status for r in load.records} <= {"active", "pending", "archived", "superseded"}
        assert all(r.title and r.created_date for r in load.records)
