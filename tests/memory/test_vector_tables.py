"""A store with a vector virtual table whose extension is not loaded still reads."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from ctxtui.engine.sources.memory import load_memories

from .conftest import FIXTURES, fingerprint


def test_real_sqlite_vec_table_without_the_extension(tmp_path):
    """cortex_vec0.db was written by sqlite-vec (see make_vec0_fixture.py); we do not load it."""
    db = tmp_path / "cortex.db"
    shutil.copy(FIXTURES / "cortex_vec0.db", db)
    conn = sqlite3.connect(db)
    listed = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'memory_embeddings'").fetchone()[0]
    with pytest.raises(sqlite3.OperationalError, match="no such module: vec0"):
        conn.execute("SELECT * FROM memory_embeddings").fetchall()
    conn.close()
    assert "USING vec0" in listed
    before = fingerprint(db)
    load = load_memories(db)
    assert (load.schema, len(load.records), load.problems) == ("cortex", 20, [])
    assert fingerprint(db) == before


@pytest.mark.parametrize("module", ["vss0", "vec0"])
def test_virtual_table_row_written_into_the_schema(tmp_path, shabka_db, module):
    """The same state built without any extension: the row CREATE VIRTUAL TABLE would have written."""
    db = tmp_path / "with-vectors.db"
    shutil.copy(shabka_db, db)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute(
        "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES ('table', 'vss_memories', "
        f"'vss_memories', 0, 'CREATE VIRTUAL TABLE vss_memories USING {module}(e(4))')"
    )
    conn.commit()
    conn.close()
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.OperationalError, match=f"no such module: {module}"):
        conn.execute("SELECT * FROM vss_memories").fetchall()
    conn.close()
    load = load_memories(db)
    assert (load.schema, len(load.records), load.problems) == ("shabka", 40, [])


def test_unreadable_virtual_usage_table_is_a_problem_not_a_failure(tmp_path, native_db):
    db = tmp_path / "odd.db"
    shutil.copy(native_db, db)
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE usage_events")
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute(
        "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES "
        "('table', 'usage_events', 'usage_events', 0, 'CREATE VIRTUAL TABLE usage_events USING vec0(x)')"
    )
    conn.commit()
    conn.close()
    load = load_memories(db)
    assert len(load.records) == 40
    assert [p.message for p in load.problems] == ["table usage_events cannot be read (no such module: vec0): ignored"]
