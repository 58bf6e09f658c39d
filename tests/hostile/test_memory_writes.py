"""`memory add/import` write only into ctxtui's own database of a version it knows, and say why not otherwise.

They used to write into a database with a newer user_version, a corrupt one
and a foreign store; `import SRC --db TARGET` named SRC for TARGET's problem,
a locked database was "not a ctxtui memory database", a symlink loop "no such file".
"""

from __future__ import annotations

import os
import sqlite3

from ctxtui.cli import main
from ctxtui.engine.sources.memory.native.schema import init_db

from tests.conftest import NOW
from tests.factories.memory_dbs import build_shabka_db


def fingerprint(path):
    return path.read_bytes(), path.stat().st_mtime_ns


def add(db, capsys) -> tuple[int, str]:
    code = main(["memory", "add", "--db", str(db), "--title", "A memory", "--kind", "fact"])
    return code, capsys.readouterr().err


def test_newer_schema_is_refused(tmp_path, capsys):
    db = tmp_path / "memory.db"
    init_db(db)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 7")
    before = fingerprint(db)
    code, err = add(db, capsys)
    assert code == 2 and "newer ctxtui (schema version 7" in err and str(db) in err
    assert fingerprint(db) == before


def test_corrupt_database_is_refused(tmp_path, capsys):
    db = tmp_path / "memory.db"
    init_db(db)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")
    data = bytearray(db.read_bytes())
    data[4096 : 4096 + 200] = b"\xff" * 200  # the first table page
    db.write_bytes(bytes(data))
    code, err = add(db, capsys)
    assert code == 2 and ("corrupt" in err or "not written" in err)


def test_foreign_store_is_refused_for_add_and_import(tmp_path, capsys):
    shabka = build_shabka_db(tmp_path / "shabka.db", 5, seed=1, now=NOW)
    before = fingerprint(shabka)
    code, err = add(shabka, capsys)
    assert code == 2 and "another tool's memory store" in err
    other = build_shabka_db(tmp_path / "other.db", 5, seed=2, now=NOW)
    assert main(["memory", "import", str(other), "--db", str(shabka)]) == 2
    err = capsys.readouterr().err
    assert str(shabka) in err and str(other) not in err  # the message names the target, whose problem it is
    assert fingerprint(shabka) == before


def test_locked_database_says_locked(tmp_path, capsys):
    db = tmp_path / "memory.db"
    init_db(db)
    holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA journal_mode = DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code, err = add(db, capsys)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 2 and "locked" in err and "not a ctxtui memory database" not in err


def test_symlink_loop_is_named(tmp_path, capsys):
    loop = tmp_path / "loop.db"
    os.symlink(loop, loop)
    code, err = add(loop, capsys)
    assert code == 2 and "symbolic link loop" in err and "no such file" not in err


# -- `memory init/add --db` never turns a file the packers read, or an empty file of another kind, into a database


def test_init_refuses_an_empty_ctxrc(tmp_path, capsys, monkeypatch):
    """SQLite takes a 0-byte file as an empty database: `memory init --db .ctxrc` made `.ctxrc` 45 KB of SQLite."""
    (tmp_path / ".context").mkdir()
    (tmp_path / ".ctxrc").write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    assert main(["memory", "init", "--db", ".ctxrc"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".ctxrc" in err and "the packer reads" in err
    assert (tmp_path / ".ctxrc").read_bytes() == b""


def test_init_refuses_an_empty_file_not_named_as_a_database(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"")
    assert main(["memory", "init", "--db", str(notes)]) == 2
    assert "not named as a database" in capsys.readouterr().err
    assert notes.read_bytes() == b""


def test_an_empty_db_file_is_still_initialised(tmp_path, capsys):
    db = tmp_path / "memory.db"
    db.write_bytes(b"")
    assert main(["memory", "init", "--db", str(db)]) == 0
    assert capsys.readouterr().out == f"created {db}\n"


def test_add_says_when_it_creates_the_database(tmp_path, capsys):
    """A typo in --db made a new database silently ("added … to" read like the usual case)."""
    db = tmp_path / "typo.db"
    assert main(["memory", "add", "--db", str(db), "--title", "A memory"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"created {db}; added m-") and out.endswith(f" to {db}\n")
    assert main(["memory", "add", "--db", str(db), "--title", "Another"]) == 0
    assert capsys.readouterr().out.startswith("added m-")
