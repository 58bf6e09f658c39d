"""The schema is recognised from the tables, not the name; whole-file failures are one clear line."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from ctxtui.engine.sources.memory import MemorySourceError, load_memories
from ctxtui.engine.sources.memory.shared.errors import CORRUPT, MISSING, NOT_SQLITE, UNKNOWN_SCHEMA


def test_names_mean_nothing(tmp_path, native_db, shabka_db, cortex_db):
    for source, schema, misleading in [
        (native_db, "ctxtui", "shabka.db"),
        (shabka_db, "shabka", "cortex.db"),
        (cortex_db, "cortex", "memory.db"),
    ]:
        target = tmp_path / "renamed" / schema / misleading
        target.parent.mkdir(parents=True)
        shutil.copy(source, target)
        assert load_memories(target).schema == schema


def failure(path) -> MemorySourceError:
    with pytest.raises(MemorySourceError) as caught:
        load_memories(path)
    error = caught.value
    assert "\n" not in str(error) and error.path == str(path)
    assert str(error.problem).startswith(str(path)) and error.line == f"{path}: {error}"
    return error


def test_missing_file(tmp_path):
    error = failure(tmp_path / "nope.db")
    assert error.kind == MISSING and str(error) == "no such file"
    assert not (tmp_path / "nope.db").exists()  # a read-only open never creates the file


def test_directory(tmp_path):
    assert "directory" in str(failure(tmp_path))


def test_not_sqlite(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("# just some markdown\n" * 20)
    error = failure(path)
    assert error.kind == NOT_SQLITE and str(error) == "is not an SQLite database"


def test_empty_file(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    error = failure(path)
    assert error.kind == NOT_SQLITE and "empty" in str(error)


def test_truncated_header(tmp_path):
    path = tmp_path / "short.db"
    path.write_bytes(b"SQLite format 3\x00\x10\x00")
    assert failure(path).kind == CORRUPT


def test_corrupt_schema_page(tmp_path, native_db):
    path = tmp_path / "corrupt.db"
    data = bytearray(native_db.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the schema page, after the header
    path.write_bytes(bytes(data))
    error = failure(path)
    assert error.kind == CORRUPT and str(error) == "is corrupt: database disk image is malformed"


def test_truncated_file(tmp_path, native_db):
    path = tmp_path / "half.db"
    data = native_db.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert failure(path).kind == CORRUPT


def test_no_memories_table(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id, text)")
    conn.close()
    error = failure(path)
    assert error.kind == UNKNOWN_SCHEMA and "no `memories` table (tables: notes)" in str(error)


def test_memories_table_of_another_shape(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE memories (key TEXT, value TEXT)")
    conn.close()
    error = failure(path)
    assert error.kind == UNKNOWN_SCHEMA and "columns (key, value)" in str(error)


def test_empty_sqlite_database(tmp_path):
    path = tmp_path / "blank.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 3")  # makes SQLite write the file
    conn.close()
    assert failure(path).kind == UNKNOWN_SCHEMA


def test_ctxtui_needs_its_version_and_origin(tmp_path, native_db):
    """Without user_version a db with the native columns is not claimed as ours."""
    path = tmp_path / "copy.db"
    shutil.copy(native_db, path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 0")
    conn.close()
    assert failure(path).kind == UNKNOWN_SCHEMA


def test_newer_native_version_reads_with_a_note(tmp_path, native_db):
    path = tmp_path / "copy.db"
    shutil.copy(native_db, path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 2")
    conn.close()
    load = load_memories(path)
    assert len(load.records) == 40
    assert [p.message for p in load.problems] == [
        "schema version 2 is newer than this ctxtui reads (1): known columns only"
    ]
