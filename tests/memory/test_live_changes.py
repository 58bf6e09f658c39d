"""MemorySource notices every commit by another process, and re-reads for nothing else (a touch, a writer attaching)."""

from __future__ import annotations

import os
import shutil

import pytest
from ctxtui.engine.sources.memory import MemorySource, MemorySourceError
from ctxtui.engine.sources.memory.shared.errors import MISSING

from tests.factories.memory_dbs import build_native_db

from .conftest import NOW


def ids(load) -> set[str]:
    return {r.id for r in load.records}


def test_commit_by_another_process_is_noticed(native_db, writer):
    w = writer(native_db)
    with MemorySource(native_db) as source:
        first = source.load()
        assert not source.changed() and source.reload() is None
        w("insert live-1")
        assert source.changed()
        second = source.reload()
        assert second is not None and ids(second) - ids(first) == {"live-1"}
        assert source.last is second and not source.changed() and source.reload() is None


def test_uncommitted_transaction_is_not_a_change(native_db, writer):
    w = writer(native_db)
    with MemorySource(native_db) as source:
        source.load()
        w("begin pending")
        assert not source.changed()
        w("commit")
        assert source.changed()
        assert "pending" in ids(source.reload())


def test_checkpoint_brings_no_new_load(native_db, writer):
    w = writer(native_db)
    w("insert before-checkpoint")
    with MemorySource(native_db) as source:
        source.load()
        w.close()  # the writer's close checkpoints the WAL into the main file
        assert source.reload() is None  # the bytes moved, so it reads again, and finds the same records
        assert not source.changed()


def test_rollback_journal_database(cortex_db, writer):
    """Cortex stores use a rollback journal; data_version works the same there."""
    with MemorySource(cortex_db) as source:
        source.load()
        w = writer(cortex_db)
        w("exclusive")
        w("commit")
        assert not source.changed()  # an empty transaction changes nothing
        w(
            "sql INSERT INTO memories (id, type, content, summary) "
            "VALUES ('c-live', 'semantic', '{\"topic\": \"Live\"}', '')"
        )
        assert source.changed()
        load = source.reload()
        assert {r.title for r in load.records if r.id == "c-live"} == {"Live"}
    assert not os.path.exists(f"{cortex_db}-wal")  # no WAL appears for a rollback-journal store


def test_replaced_file_is_a_change(tmp_path, native_db):
    with MemorySource(native_db) as source:
        source.load()
        fresh = build_native_db(tmp_path / "fresh.db", 5, seed=9, now=NOW)
        os.replace(fresh, native_db)
        assert source.changed()
        assert len(source.reload().records) == 5


def test_failed_reload_keeps_the_last_good_load(native_db):
    with MemorySource(native_db) as source:
        good = source.load()
        saved = native_db.with_suffix(".bak")
        shutil.move(native_db, saved)
        assert source.changed()
        with pytest.raises(MemorySourceError) as caught:
            source.reload()
        assert caught.value.kind == MISSING and source.error is caught.value
        assert source.last is good
        shutil.move(saved, native_db)
        assert len(source.reload().records) == 40 and source.error is None


def test_watch_paths_are_the_file_and_its_wal(native_db):
    source = MemorySource(native_db)
    assert source.watch_paths() == (str(native_db), f"{native_db}-wal")
    assert source.changed()  # nothing loaded yet


def test_touch_storm_is_not_a_change_and_reads_nothing(native_db, monkeypatch):
    import ctxtui.engine.sources.memory.source as source_module

    with MemorySource(native_db) as source:
        source.load()
        reads = []
        monkeypatch.setattr(source_module, "load_memories", lambda *a, **k: reads.append(1))
        for step in range(50):
            os.utime(native_db, ns=(step * 10**9, step * 10**9))
            assert not source.changed() and source.reload() is None
        assert reads == []


def test_a_writer_that_opens_commits_and_closes_between_two_looks_is_seen(native_db):
    """What `ctxtui memory add` in another terminal does: its close checkpoints and deletes the -wal."""
    import sqlite3

    with MemorySource(native_db) as source:
        source.load()
        for n in range(5):
            conn = sqlite3.connect(native_db)
            with conn:
                conn.execute("UPDATE memories SET title = ? WHERE id = (SELECT min(id) FROM memories)", (f"T{n}",))
            conn.close()
            assert not os.path.exists(f"{native_db}-wal")
            assert source.changed()
            load = source.reload()
            assert load is not None and f"T{n}" in {r.title for r in load.records}


@pytest.mark.parametrize("keep_records", [True, False])
def test_without_kept_records_commits_and_checkpoints_are_told_apart_the_same(native_db, writer, keep_records):
    """The live join keeps its own entries, so its source keeps only a fingerprint of the records (issue 11)."""
    w = writer(native_db)
    with MemorySource(native_db, keep_records=keep_records) as source:
        first = source.load()
        assert len(first.records) > 0  # the caller gets every record either way
        assert (len(source.last.records) > 0) is keep_records
        w("insert live-2")
        second = source.reload()
        assert second is not None and ids(second) - ids(first) == {"live-2"}
        w("sql PRAGMA wal_checkpoint(TRUNCATE)")  # the commit moves from the -wal into the main file
        assert source.changed()  # the bytes moved: it must read again to know
        assert source.reload() is None  # and finds the same records


def test_the_token_hashed_beside_a_read_is_the_token_of_before_it(native_db, writer):
    """Nothing written during the read: `token_beside` gives what `change_token` gave just before it."""
    from ctxtui.engine.sources.memory.shared.snapshot import change_token, token_beside

    w = writer(native_db)
    w("insert wal-row")  # a WAL and its index beside the database, as with a live writer
    before = change_token(native_db)
    result, token = token_beside(native_db, lambda: "read")
    assert result == "read" and token == before and token.digest is not None


def test_a_commit_during_the_read_leaves_the_hash_out_and_is_never_missed(native_db, writer):
    """A write while the hash runs: the token keeps no hash, so the next look reads again."""
    from ctxtui.engine.sources.memory.shared.snapshot import still_same, token_beside

    w = writer(native_db)
    _, token = token_beside(native_db, lambda: w("insert during-read"))
    assert token.digest is None
    assert still_same(native_db, token) is None  # the quick part moved and no hash vouches for the bytes
