"""MemorySource notices other processes' commits through PRAGMA data_version, and nothing else."""

from __future__ import annotations

import os
import shutil

import pytest
from ctxtui.engine.sources.memory import MemorySource, MemorySourceError
from ctxtui.engine.sources.memory.errors import MISSING

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


def test_checkpoint_is_not_a_change(native_db, writer):
    w = writer(native_db)
    w("insert before-checkpoint")
    with MemorySource(native_db) as source:
        source.load()
        w.close()  # the writer's close checkpoints the WAL into the main file
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
