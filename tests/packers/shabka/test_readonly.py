"""Packing from a Shabka store never changes it: same bytes, same mtime, same directory listing.

Shabka itself opens its database read-write (WAL mode, a rebuilt vector
table, a metadata stamp); ctxtui reads the same facts without writing a
byte, and leaves no `-wal`, `-shm` or `-journal` behind.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from ctxtui.cli import main

from tests.factories.shabka_dbs import memory, write_store
from tests.memory.conftest import Writer

NOW = "2025-06-01T12:00:00Z"


def snapshot(db: Path) -> tuple[dict[str, tuple[str, int]], list[str]]:
    """sha256 and mtime of every file beside the store, and the directory listing."""
    files = sorted(os.listdir(db.parent))
    state = {}
    for name in files:
        path = db.parent / name
        state[name] = (hashlib.sha256(path.read_bytes()).hexdigest(), os.stat(path).st_mtime_ns)
    return state, files


def store(tmp_path: Path, *, wal: bool) -> Path:
    memories = [memory(n, f"Memory {n} about sqlite", "body " * n, privacy="public") for n in range(1, 30)]
    memories.append(memory(99, "Broken", "x", privacy="public", importance=0.5))
    return write_store(tmp_path / "shabka.db", memories, wal=wal)


def every_command(db: Path, capsys) -> None:
    common = ["--packer", "shabka", "--db", str(db), "--now", NOW, "--user", "alice"]
    assert main(["pack", *common, "--query", "sqlite"]) == 0
    assert main(["pack", *common, "--format", "json", "--budget", "100"]) == 0
    assert main(["pack", *common, "--budget", "0"]) == 0  # the empty pack: Shabka's line on stderr
    assert main(["sweep", *common, "--to", "2000", "--step", "500"]) == 0
    assert main(["explain", *common, "Memory 3 about"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("wal", [False, True], ids=["rollback-journal", "wal-quiet"])
def test_pack_explain_sweep_leave_the_store_as_it_was(tmp_path, capsys, wal):
    db = store(tmp_path, wal=wal)
    before = snapshot(db)
    every_command(db, capsys)
    assert snapshot(db) == before


def test_a_store_with_a_writer_attached_is_read_through_its_wal_and_left_alone(tmp_path, capsys):
    db = store(tmp_path, wal=True)
    w = Writer(db)
    try:
        w(
            "sql UPDATE memories SET title = 'Rewritten by a live writer' "
            "WHERE id = '0197a000-0000-7000-8000-000000000003'"
        )
        assert os.path.getsize(f"{db}-wal") > 0
        wal_before = (hashlib.sha256(Path(f"{db}-wal").read_bytes()).hexdigest(), os.stat(f"{db}-wal").st_mtime_ns)
        main_before = (hashlib.sha256(db.read_bytes()).hexdigest(), os.stat(db).st_mtime_ns)
        assert (
            main(["pack", "--packer", "shabka", "--db", str(db), "--now", NOW, "--user", "alice", "--budget", "100000"])
            == 0
        )
        assert "Rewritten by a live writer" in capsys.readouterr().out
        assert (
            hashlib.sha256(Path(f"{db}-wal").read_bytes()).hexdigest(),
            os.stat(f"{db}-wal").st_mtime_ns,
        ) == wal_before
        assert (hashlib.sha256(db.read_bytes()).hexdigest(), os.stat(db).st_mtime_ns) == main_before
    finally:
        w.close()
