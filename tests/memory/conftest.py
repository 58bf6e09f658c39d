"""Shared fixtures: a fixed "now", small databases of each schema, file fingerprints."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from ctxtui.engine.sources.memory.native.schema import init_db

from tests.factories.memory_dbs import CORTEX_DDL, SHABKA_DDL, build_cortex_db, build_native_db, build_shabka_db

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def now() -> datetime:
    return NOW


@pytest.fixture
def native_db(tmp_path) -> Path:
    return build_native_db(tmp_path / "memory.db", 40, seed=1, now=NOW)


@pytest.fixture
def shabka_db(tmp_path) -> Path:
    return build_shabka_db(tmp_path / "shabka.db", 40, seed=2, now=NOW)


@pytest.fixture
def cortex_db(tmp_path) -> Path:
    return build_cortex_db(tmp_path / "cortex.db", 40, seed=3, now=NOW)


def empty_store(path: Path, schema: str) -> Path:
    """An empty database of one schema, for tests that insert rows by hand."""
    if schema == "ctxtui":
        init_db(path)
        return path
    conn = sqlite3.connect(path)
    conn.executescript(SHABKA_DDL if schema == "shabka" else CORTEX_DDL)
    conn.close()
    return path


def execute(path: Path, sql: str, *params) -> None:
    """One committed write by a test (never by the code under test)."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(sql, params)
    conn.close()


def fingerprint(path: Path) -> dict[str, tuple[str, int] | None]:
    """sha256 and mtime of the database and its -wal (None when absent)."""
    result = {}
    for name in (str(path), f"{path}-wal"):
        if os.path.exists(name):
            data = Path(name).read_bytes()
            result[name] = (hashlib.sha256(data).hexdigest(), os.stat(name).st_mtime_ns)
        else:
            result[name] = None
    return result


class Writer:
    """Drives writer_process.py: another OS process with its own SQLite connection."""

    def __init__(self, db: Path):
        import subprocess
        import sys

        script = Path(__file__).parent / "writer_process.py"
        self.proc = subprocess.Popen(
            [sys.executable, str(script), str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout.readline().strip() == "ready"

    def __call__(self, command: str) -> None:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "ok", f"writer failed on {command!r}"

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=10)


@pytest.fixture
def writer():
    """A factory of writer processes, each closed after the test."""
    started: list[Writer] = []

    def start(db: Path) -> Writer:
        started.append(Writer(db))
        return started[-1]

    yield start
    for w in started:
        w.close()
