"""Importing Shabka and Cortex stores into ctxtui's own: mapped by the adapters, idempotent."""

from __future__ import annotations

import sqlite3

import pytest
from ctxtui.engine.sources.memory import MemorySourceError, import_db, load_memories
from ctxtui.engine.sources.memory.shared.errors import REFUSED

from .conftest import fingerprint


def dump(db) -> list:
    conn = sqlite3.connect(db)
    rows = [
        conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
        for table in ("memories", "usage_events", "usage_stats", "relations")
    ]
    conn.close()
    return rows


@pytest.mark.parametrize("store, origin", [("shabka_db", "shabka"), ("cortex_db", "cortex")])
def test_import_keeps_origin_and_is_idempotent(tmp_path, request, store, origin):
    source = request.getfixturevalue(store)
    target = tmp_path / "memory.db"
    before = fingerprint(source)
    report = import_db(target, source)
    assert (report.schema, report.imported, report.problems) == (origin, 40, [])
    assert fingerprint(source) == before
    once = dump(target)
    assert import_db(target, source).imported == 40
    assert dump(target) == once

    original = {r.id: r for r in load_memories(source).records}
    imported = load_memories(target).records
    assert len(imported) == 40
    for record in imported:
        twin = original[record.id.removeprefix(f"{origin}-")]
        assert record.imported_from == twin.provenance and record.provenance == f"memory.db:{record.id}"
        assert (record.kind, record.title, record.body, record.importance, record.status, record.created_date) == (
            twin.kind,
            twin.title,
            twin.body,
            twin.importance,
            twin.status,
            twin.created_date,
        )
        assert (record.times_retrieved, record.times_referenced) == (twin.times_retrieved, twin.times_referenced)
        assert sorted(record.usage_events) == sorted(twin.usage_events)
        if twin.superseded_by:
            assert record.superseded_by == f"{origin}-{twin.superseded_by}"


def test_superseded_memories_become_relations(tmp_path, shabka_db):
    target = tmp_path / "memory.db"
    import_db(target, shabka_db)
    superseded = [r for r in load_memories(target).records if r.superseded_by]
    conn = sqlite3.connect(target)
    relations = set(conn.execute("SELECT source_id, target_id, relation FROM relations"))
    conn.close()
    assert superseded and relations == {(r.superseded_by, r.id, "supersedes") for r in superseded}


def test_import_refuses_a_ctxtui_source_and_itself(tmp_path, native_db):
    with pytest.raises(MemorySourceError) as caught:
        import_db(tmp_path / "other.db", native_db)
    assert caught.value.kind == REFUSED
    with pytest.raises(MemorySourceError):
        import_db(native_db, native_db)


def test_import_into_a_foreign_file_is_refused(tmp_path, shabka_db, cortex_db):
    before = fingerprint(cortex_db)
    with pytest.raises(MemorySourceError):
        import_db(cortex_db, shabka_db)
    assert fingerprint(cortex_db) == before


def test_import_with_a_project_filter(tmp_path, shabka_db):
    projects = {r.project for r in load_memories(shabka_db).records}
    project = sorted(p for p in projects if p)[0]
    report = import_db(tmp_path / "memory.db", shabka_db, project=project)
    records = load_memories(tmp_path / "memory.db").records
    assert report.imported == len(records) > 0 and {r.project for r in records} == {project}
