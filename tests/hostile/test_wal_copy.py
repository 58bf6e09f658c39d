"""The private copy of a database whose `-wal` has no `-shm`: regular files only, bounded, always removed (issue 20, high 6).

Such a database is read from a copy in $TMPDIR (a read-only open would
write a `-shm`). A cloned repository can ship `memory.db-wal` as a link to
`/dev/zero` (13 GB written in 30 s, left behind after a kill) or as a FIFO
(a traceback); a file-size limit gave a traceback too. And a half-written
or linked `-shm` is written to by SQLite's own read (issue 20, item 18):
such a database is read from the copy as well, leaving the `-shm` alone.
"""

from __future__ import annotations

import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from ctxtui.engine.sources.memory import load_memories
from ctxtui.engine.sources.memory.shared import private_copy
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError

from tests.conftest import ROOT
from tests.factories.memory_dbs import build_native_db
from tests.memory.conftest import NOW, fingerprint


def crashed_db(folder: Path, rows: int = 40) -> Path:
    """A WAL database with a committed, un-checkpointed `-wal` and no `-shm`, as a crash leaves it."""
    folder.mkdir(parents=True, exist_ok=True)
    source = build_native_db(folder / "source.db", rows, seed=1, now=NOW)
    writer = sqlite3.connect(source)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute(
        "INSERT INTO memories (id, kind, title, body, created_at, updated_at) VALUES ('in-wal', 'fact', 'In the WAL', "
        "'Committed, not checkpointed.', '2026-04-30T00:00:00Z', '2026-04-30T00:00:00Z')"
    )
    writer.commit()
    crashed = folder / "crashed"
    crashed.mkdir()
    shutil.copyfile(source, crashed / "memory.db")
    shutil.copyfile(f"{source}-wal", crashed / "memory.db-wal")
    writer.close()
    return crashed / "memory.db"


def run_pack(db: Path, tmpdir: Path, *, fsize: int = 64 << 20, timeout: float = 20) -> subprocess.CompletedProcess:
    """`ctxtui pack PROJECT --db DB` (a ctx packet joined to `db`) in a child with a file-size limit."""
    project = db.parent / "project"
    (project / ".context").mkdir(parents=True, exist_ok=True)
    (project / ".context" / "TASKS.md").write_text("- [ ] one\n")
    tmpdir.mkdir(exist_ok=True)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "pack", str(project), "--ignore-refusal", "--db", str(db)],
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmpdir), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit,
    )


def test_a_wal_linked_to_dev_zero_is_refused_and_nothing_is_copied(tmp_path):
    db = crashed_db(tmp_path / "repo")
    os.remove(f"{db}-wal")
    os.symlink("/dev/zero", f"{db}-wal")
    result = run_pack(db, tmp_path / "tmp")
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 2) and "memory.db-wal is a device: not read" in result.stderr, result.stderr
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_fifo_wal_is_refused_without_a_hang_or_a_traceback(tmp_path):
    db = crashed_db(tmp_path / "repo")
    os.remove(f"{db}-wal")
    os.mkfifo(f"{db}-wal")
    result = run_pack(db, tmp_path / "tmp")
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 2) and "memory.db-wal is a FIFO (named pipe): not read" in result.stderr
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_file_size_limit_is_one_clear_line_and_the_copy_is_removed(tmp_path):
    db = crashed_db(tmp_path / "repo", rows=400)
    assert os.path.getsize(db) > 64 << 10
    result = run_pack(db, tmp_path / "tmp", fsize=64 << 10)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 2) and "file-size limit" in result.stderr, result.stderr
    assert list((tmp_path / "tmp").iterdir()) == []


def test_the_copy_is_bounded(tmp_path, monkeypatch):
    db = crashed_db(tmp_path / "repo")
    monkeypatch.setattr(private_copy, "COPY_LIMIT", 1024)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    from ctxtui.engine.sources.memory.shared import snapshot

    monkeypatch.setattr(snapshot, "COPY_LIMIT", 1024)
    with pytest.raises(MemorySourceError) as caught:
        load_memories(db)
    assert "copies at most" in caught.value.message
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("ctxtui-read-")]


def test_a_killed_readers_copy_is_removed_by_the_next_read(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f"ctxtui-read-{int(gone.stdout)}-abc"
    stale.mkdir()
    (stale / "copy.db").write_bytes(b"x" * 1000)
    alive = tmp_path / f"ctxtui-read-{os.getppid()}-def"  # a live process's: kept
    alive.mkdir()
    db = crashed_db(tmp_path / "repo")
    assert "in-wal" in {r.id for r in load_memories(db).records}
    assert not stale.exists() and alive.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("ctxtui-read-")) == [alive.name]


def test_a_killed_copy_leaves_nothing_after_the_next_run(tmp_path):
    """SIGKILL in the middle of a copy (here: a copy throttled by a huge -wal), then a normal run."""
    db = crashed_db(tmp_path / "repo")
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    size = os.path.getsize(f"{db}-wal")
    os.truncate(f"{db}-wal", 300 << 20)  # sparse: 300 MB to copy, so the kill lands mid-copy
    project = db.parent / "project"
    (project / ".context").mkdir(parents=True)
    (project / ".context" / "TASKS.md").write_text("- [ ] one\n")
    child = subprocess.Popen(
        [sys.executable, "-m", "ctxtui.cli", "pack", str(project), "--ignore-refusal", "--db", str(db)],
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmpdir), "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        if list(tmpdir.iterdir()):
            break
        if child.poll() is not None:
            break
        time.sleep(0.02)
    child.kill()
    child.wait()
    assert list(tmpdir.iterdir()), "the copy had not started when the child was killed"
    os.truncate(f"{db}-wal", size)
    result = run_pack(db, tmpdir)
    assert result.returncode == 0, result.stderr
    assert list(tmpdir.iterdir()) == []


def test_a_half_written_shm_is_left_as_it_is(tmp_path):
    db = crashed_db(tmp_path / "repo")
    Path(f"{db}-shm").write_bytes(b"\x00" * 100)  # half-written: SQLite's read would extend it to 32 KiB
    before = fingerprint(db), Path(f"{db}-shm").read_bytes()
    assert "in-wal" in {r.id for r in load_memories(db).records}
    assert (fingerprint(db), Path(f"{db}-shm").read_bytes()) == before


def test_a_linked_shm_is_never_written_through(tmp_path):
    db = crashed_db(tmp_path / "repo")
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n" * 4096)  # 36 KiB: SQLite would take it for a wal-index
    os.symlink(victim, f"{db}-shm")
    load = load_memories(db)
    assert "in-wal" in {r.id for r in load.records}
    assert victim.read_bytes() == b"precious\n" * 4096
