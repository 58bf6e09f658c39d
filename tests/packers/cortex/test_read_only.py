"""The real CLI writes to the database it reads (WAL switch, migrations); ctxtui never does.

Proofs: after every way ctxtui reads a Cortex store — the store reader, the
packer at many budgets, `pack`, `explain` and `sweep` — the file's bytes
(SHA-256), its mtime and the directory listing are unchanged: no `-wal`,
no `-shm`, no journal.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3

import pytest
from ctxtui.cli import main
from ctxtui.engine.sources.memory.cortex.v1_store import read_cortex_store

from tests.factories.cortex_v1 import iso, memory
from tests.packers.cortex.conftest import case_rows, packer_for


def fingerprint(path):
    folder = path.parent
    return (
        hashlib.sha256(path.read_bytes()).hexdigest(),
        os.stat(path).st_mtime_ns,
        os.stat(path).st_size,
        sorted(os.listdir(folder)),
    )


@pytest.fixture(params=["delete", "wal"])
def store(request, v1_db):
    db = v1_db(case_rows("basic") + [memory("extra", "tribal", "one more", last_accessed=iso(0))])
    if request.param == "wal":  # as the real CLI leaves it: WAL mode, -wal and -shm gone after a clean close
        conn = sqlite3.connect(db)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.close()
        assert not os.path.exists(f"{db}-wal") and not os.path.exists(f"{db}-shm")
    os.utime(db, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    return db


def test_reading_and_planning_leave_the_file_alone(store):
    before = fingerprint(store)
    read_cortex_store(store)
    packer = packer_for(store, "auth")
    for budget in (-1, 0, 50, 400, 2000):
        plan = packer.plan(budget)
        plan.render("md"), plan.render("json"), plan.outcomes, plan.buckets
    assert fingerprint(store) == before


def test_the_commands_leave_the_file_alone(store, capsys, monkeypatch):
    monkeypatch.setenv("CORTEX_NOW", "2025-06-01T00:00:00.000Z")
    before = fingerprint(store)
    common = ["--packer", "cortex", "--db", str(store), "--query", "auth"]
    assert main(["pack", *common]) == 0
    assert main(["pack", *common, "--format", "json", "--budget", "50"]) == 0
    assert main(["explain", *common, "cortex:b-tribal-1"]) == 0
    assert main(["sweep", *common, "--to", "600", "--step", "200"]) == 0
    capsys.readouterr()
    assert fingerprint(store) == before


def test_a_read_only_directory_is_enough(store, tmp_path):
    before = fingerprint(store)
    os.chmod(store.parent, 0o555)
    try:
        assert read_cortex_store(store).recent
    finally:
        os.chmod(store.parent, 0o755)
    assert fingerprint(store) == before
