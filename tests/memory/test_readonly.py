"""Reading never changes a database: same bytes, same mtime, for the file and its -wal."""

from __future__ import annotations

import os

import pytest
from ctxtui.engine.sources.memory import MemorySource, load_memories

from .conftest import fingerprint


def sidecars(db) -> set[str]:
    return {suffix for suffix in ("-wal", "-shm", "-journal") if os.path.exists(f"{db}{suffix}")}


@pytest.mark.parametrize("store", ["native_db", "shabka_db", "cortex_db"])
def test_one_shot_read_leaves_every_byte_and_creates_nothing(store, request):
    db = request.getfixturevalue(store)
    before, files = fingerprint(db), sorted(os.listdir(db.parent))
    for _ in range(2):
        assert len(load_memories(db).records) == 40
    assert fingerprint(db) == before
    assert sorted(os.listdir(db.parent)) == files  # no -wal, -shm or -journal left behind


def test_read_while_a_writer_has_commits_in_the_wal(native_db, writer):
    w = writer(native_db)
    w("insert live-1")
    w("insert live-2")
    assert sidecars(native_db) == {"-wal", "-shm"} and os.path.getsize(f"{native_db}-wal") > 0
    before = fingerprint(native_db)
    load = load_memories(native_db)
    assert {"live-1", "live-2"} <= {r.id for r in load.records}  # read through the WAL
    assert fingerprint(native_db) == before


def test_uncommitted_writes_are_invisible_and_untouched(native_db, writer):
    w = writer(native_db)
    w("begin pending-1")
    before = fingerprint(native_db)
    load = load_memories(native_db)
    assert "pending-1" not in {r.id for r in load.records} and len(load.records) == 40
    assert fingerprint(native_db) == before
    w("rollback")


def test_live_source_never_writes_the_database(native_db, writer):
    """A live source on a WAL db keeps no connection: no -wal or -shm appears, the data is untouched."""
    main_before = fingerprint(native_db)[str(native_db)]
    with MemorySource(native_db) as source:
        source.load()
        assert not source.changed()
        assert fingerprint(native_db)[str(native_db)] == main_before
        assert not os.path.exists(f"{native_db}-wal") and not os.path.exists(f"{native_db}-shm")
    w = writer(native_db)
    w("insert x")
    before = fingerprint(native_db)
    with MemorySource(native_db) as source:
        assert len(source.load().records) == 41
    assert fingerprint(native_db) == before


def test_stale_wal_without_shm_is_read_with_its_commits_and_nothing_created(native_db, tmp_path):
    """A crash leaves a -wal and no -shm: a read-only open would create -shm, an immutable one miss the WAL."""
    import shutil
    import sqlite3

    from ctxtui.engine.sources.memory import load_memories

    writer = sqlite3.connect(native_db)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute(
        "INSERT INTO memories (id, kind, title, body, created_at, updated_at) VALUES ('in-wal', 'fact', 'In the WAL', "
        "'Committed, not checkpointed.', '2026-04-30T00:00:00Z', '2026-04-30T00:00:00Z')"
    )
    writer.commit()
    # Copy the files as a crash would leave them (the writer's close would checkpoint and delete the -wal).
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    shutil.copyfile(native_db, crashed / "memory.db")
    shutil.copyfile(f"{native_db}-wal", crashed / "memory.db-wal")
    writer.close()
    before = sorted(os.listdir(crashed)), fingerprint(crashed / "memory.db")
    load = load_memories(crashed / "memory.db")
    assert "in-wal" in {r.id for r in load.records}
    assert (sorted(os.listdir(crashed)), fingerprint(crashed / "memory.db")) == before
