"""A locked database is retried with bounded back-off, then reported in one line; nothing is lost."""

from __future__ import annotations

import os
import time

import pytest
from ctxtui.engine.sources.memory import MemorySource, MemorySourceError, load_memories
from ctxtui.engine.sources.memory.shared.connect import DEFAULT_DELAYS
from ctxtui.engine.sources.memory.shared.errors import LOCKED


def test_back_off_is_bounded_then_a_clear_error(cortex_db, writer):
    writer(cortex_db)("exclusive")  # rollback-journal mode: readers are shut out
    slept: list[float] = []
    with pytest.raises(MemorySourceError) as caught:
        load_memories(cortex_db, sleep=slept.append)
    assert slept == list(DEFAULT_DELAYS) and sum(slept) <= 1.0
    error = caught.value
    assert error.kind == LOCKED and "\n" not in error.line
    assert str(error) == "is locked by another connection (still busy after 7 retries over 0.98 s)"


def test_real_waiting_takes_about_a_second(cortex_db, writer):
    writer(cortex_db)("exclusive")
    start = time.monotonic()
    with pytest.raises(MemorySourceError):
        load_memories(cortex_db)
    assert 0.9 <= time.monotonic() - start < 2.0


def test_lock_released_during_back_off(cortex_db, writer):
    w = writer(cortex_db)
    w("exclusive")
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:
            w("commit")

    assert len(load_memories(cortex_db, sleep=sleep).records) == 40
    assert slept == list(DEFAULT_DELAYS[:3])


def test_wal_database_in_exclusive_locking_mode(native_db, writer):
    w = writer(native_db)
    w("sql PRAGMA locking_mode = EXCLUSIVE")
    w("insert holds-the-lock")
    # No -shm (an exclusive writer keeps its WAL index in memory): the database and its WAL are read from a
    # private copy, committed rows included, and nothing appears beside the database.
    load = load_memories(native_db, sleep=lambda s: None)
    assert "holds-the-lock" in {r.id for r in load.records}
    assert not os.path.exists(f"{native_db}-shm")


def test_source_keeps_its_last_good_load_while_locked(cortex_db, writer):
    with MemorySource(cortex_db, sleep=lambda s: None) as source:
        good = source.load()
        w = writer(cortex_db)
        w("exclusive")
        assert not source.changed()  # a lock is not a commit
        with pytest.raises(MemorySourceError) as caught:
            source.load()
        assert caught.value.kind == LOCKED and source.error is caught.value and source.last is good
        w("commit")
        assert source.changed()  # the last attempt failed: try again
        again = source.reload()
        assert again is not None and len(again.records) == 40 and source.error is None
        assert not source.changed()
