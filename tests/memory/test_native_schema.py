"""ctxtui's own database: created once, versioned, never clobbering a foreign file."""

from __future__ import annotations

import sqlite3

import pytest
from ctxtui.engine.sources.memory import MemorySourceError, MemoryWriteError, add_memory, init_db, load_memories
from ctxtui.engine.sources.memory.native.schema import SCHEMA_VERSION, add_memories, memory_id
from ctxtui.engine.sources.memory.shared.errors import REFUSED

from .conftest import fingerprint


def test_init_creates_the_documented_schema(tmp_path):
    db = tmp_path / "memory.db"
    init_db(db)
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 1
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"memories", "usage_events", "usage_stats", "relations"}
    columns = [row[1] for row in conn.execute("PRAGMA table_info(memories)")]
    assert columns == [
        "id",
        "origin",
        "origin_id",
        "kind",
        "title",
        "body",
        "summary",
        "tags",
        "project",
        "importance",
        "confidence",
        "status",
        "superseded_by",
        "created_at",
        "updated_at",
        "last_accessed",
        "extra",
    ]
    assert [row[1] for row in conn.execute("PRAGMA table_info(usage_events)")] == [
        "memory_id",
        "at",
        "event",
        "session_id",
    ]
    assert [row[1] for row in conn.execute("PRAGMA table_info(relations)")] == ["source_id", "target_id", "relation"]
    conn.close()
    assert load_memories(db).records == []


def test_init_is_a_no_op_on_our_own_database(native_db):
    before = fingerprint(native_db)
    init_db(native_db)
    assert fingerprint(native_db) == before


@pytest.mark.parametrize("store", ["shabka_db", "cortex_db"])
def test_init_refuses_a_foreign_database(store, request):
    db = request.getfixturevalue(store)
    before = fingerprint(db)
    with pytest.raises(MemoryWriteError) as caught:
        init_db(db)
    assert isinstance(caught.value, MemorySourceError)  # one except clause catches read and write failures
    assert caught.value.kind == REFUSED and "not written" in str(caught.value)
    assert fingerprint(db) == before


def test_init_refuses_any_other_file(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("precious")
    with pytest.raises(MemorySourceError):
        init_db(path)
    assert path.read_text() == "precious"


def test_init_in_a_missing_directory(tmp_path):
    with pytest.raises(MemoryWriteError, match="cannot be created"):
        init_db(tmp_path / "no" / "such" / "memory.db")


def test_init_fills_an_empty_file(tmp_path):
    path = tmp_path / "memory.db"
    path.touch()
    init_db(path)
    assert load_memories(path).schema == "ctxtui"


def test_add_memory_ids_are_stable_and_writing_twice_changes_nothing(tmp_path):
    db = tmp_path / "memory.db"
    args = dict(
        kind="lesson",
        title="Retry with jitter",
        created_at="2026-04-01T00:00:00Z",
        events=[("2026-04-02T00:00:00Z", "retrieved", "s1")],
    )
    first = add_memory(db, **args)
    assert first == memory_id("lesson", "Retry with jitter", "2026-04-01T00:00:00Z")
    once = load_memories(db).records
    assert add_memory(db, **args) == first
    assert load_memories(db).records == once


@pytest.mark.parametrize(
    "bad, message",
    [
        (dict(title=" "), "non-empty title"),
        (dict(created_at="soon"), "created_at"),
        (dict(importance=1.2), "importance"),
        (dict(importance=float("nan")), "importance"),
        (dict(status="deleted"), "status"),
        (dict(confidence=2), "confidence"),
        (dict(tags=[1]), "tags"),
        (dict(events=[("2026-01-01T00:00:00Z", "clicked")]), "usage event"),
    ],
)
def test_add_memory_validates(tmp_path, bad, message):
    args = dict(title="T", created_at="2026-04-01T00:00:00Z", **{})
    args.update(bad)
    with pytest.raises(ValueError, match=message):
        add_memory(tmp_path / "memory.db", **args)


def test_add_memories_is_one_transaction(tmp_path):
    db = tmp_path / "memory.db"
    good = dict(title="Fine", created_at="2026-04-01T00:00:00Z")
    with pytest.raises(ValueError):
        add_memories(db, [good, dict(title="Bad", created_at="never")])
    assert not db.exists() or load_memories(db).records == []
