"""One clear line for every way a nous database can fail to be read.

Each failure is a MemorySourceError whose `line` names the database (without
its password) and says what to do; the CLI prints it on stderr with exit 2.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from ctxtui.engine.sources.memory.nous.source import list_turns, load_nous_memories
from ctxtui.engine.sources.memory.nous.store import NousStore
from ctxtui.engine.sources.memory.shared.errors import (
    BAD_URL,
    MISSING,
    PERMISSION,
    UNKNOWN_SCHEMA,
    UNREACHABLE,
    MemorySourceError,
)

from tests.conftest import ROOT


def failure(call, *args, **kwargs) -> MemorySourceError:
    with pytest.raises(MemorySourceError) as caught:
        call(*args, **kwargs)
    return caught.value


def test_a_refused_connection():
    error = failure(load_nous_memories, "postgresql://ctxtui:secret@127.0.0.1:1/nous")
    assert error.kind == UNREACHABLE
    assert error.line == (
        "postgresql://ctxtui@127.0.0.1:1/nous: connection refused: no PostgreSQL server is "
        "listening for database nous on 127.0.0.1:1 (is it running, on that host and port?)"
    )


def test_no_server_on_a_socket():
    error = failure(load_nous_memories, "postgresql://ctxtui@/nous?host=/nonexistent-dir")
    assert error.kind == UNREACHABLE and "no PostgreSQL server socket" in error.message


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://u@h/db?bogus=1", 'invalid URI query parameter: "bogus"'),
        ("postgresql://u@h:notaport/db", "port 'notaport' is not a number"),
        ("postgresql://[::1/db", "not a valid PostgreSQL URL"),
    ],
)
def test_a_bad_url(url, says):
    error = failure(load_nous_memories, url)
    assert error.kind == BAD_URL and error.message.startswith("not a valid PostgreSQL URL") and says in error.message


def test_a_missing_database(pg_cluster):
    error = failure(load_nous_memories, pg_cluster.server.url("ctxtui_ro", "no_such_db"))
    assert error.kind == MISSING and error.message.startswith("database no_such_db does not exist on socket")


def test_an_unknown_user(nous_db):
    error = failure(load_nous_memories, nous_db.server.url("nobody_here", nous_db.name))
    assert error.kind == PERMISSION and error.message == "user nobody_here does not exist on that server"


def test_not_a_nous_database(pg_cluster):
    error = failure(load_nous_memories, pg_cluster.server.url("postgres", "postgres"))
    assert error.kind == UNKNOWN_SCHEMA
    assert error.message == (
        "not a nous database: database postgres has no schemas brain and heart (is this the right database?)"
    )


def test_a_missing_schema(nous_db):
    nous_db.execute("DROP SCHEMA heart CASCADE")
    error = failure(load_nous_memories, nous_db.url)
    assert error.kind == UNKNOWN_SCHEMA and error.message.startswith(
        f"schema heart does not exist in database {nous_db.name} (needed for heart.facts, heart.procedures, "
        "heart.episodes)"
    )


def test_a_missing_table(nous_db):
    nous_db.execute("DROP TABLE nous_system.retrieval_log")
    error = failure(list_turns, nous_db.url, "nous-default")
    assert error.message == (
        f"table nous_system.retrieval_log does not exist in database {nous_db.name} (nous migration 070 creates it)"
    )


def test_a_missing_column(nous_db):
    nous_db.execute("ALTER TABLE heart.facts DROP COLUMN content CASCADE")
    error = failure(load_nous_memories, nous_db.url)
    assert error.message == "heart.facts has no column content: not the nous schema ctxtui knows"


def test_no_usage_on_a_schema(nous_db):
    error = failure(load_nous_memories, nous_db.noperm_url)
    assert error.kind == PERMISSION
    assert error.message == (
        "permission denied: user ctxtui_noperm has no USAGE on schema brain "
        "(GRANT USAGE ON SCHEMA brain TO ctxtui_noperm)"
    )


def test_no_select_on_a_table(nous_db):
    nous_db.execute("REVOKE SELECT ON heart.facts FROM ctxtui_ro")
    error = failure(load_nous_memories, nous_db.url)
    assert error.kind == PERMISSION
    assert error.message == (
        "permission denied: user ctxtui_ro may not read heart.facts (GRANT SELECT ON heart.facts TO ctxtui_ro)"
    )


def test_a_table_locked_by_a_migration(nous_db):
    with nous_db.connect() as holder:
        holder.autocommit = False
        holder.execute("LOCK TABLE heart.facts IN ACCESS EXCLUSIVE MODE")
        error = failure(load_nous_memories, nous_db.url)
        holder.rollback()
    assert error.kind == UNREACHABLE and "a table is locked by another session" in error.message


def test_a_statement_timeout_is_a_clear_line(nous_db):
    store = NousStore(nous_db.url, statement_timeout_ms=50)
    try:
        error = failure(store.read, lambda cur: cur.execute("SELECT pg_sleep(1)"))
    finally:
        store.close()
    assert error.message.startswith("a query took longer than 0.05 s (statement timeout)")


def test_the_cli_prints_one_line_and_exits_2():
    result = subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "turns", "--db", "postgresql://x@127.0.0.1:1/db"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "ctxtui: postgresql://x@127.0.0.1:1/db: connection refused: no PostgreSQL server "
        "is listening for database db on 127.0.0.1:1 (is it running, on that host and port?)\n"
    )


def test_packing_without_a_postgres_url_never_imports_psycopg(tmp_path):
    (tmp_path / ".context").mkdir()
    (tmp_path / ".context" / "TASKS.md").write_text("- [ ] one task\n")
    code = (
        "import sys; from ctxtui.cli import main; main(['pack', sys.argv[1], '-o', sys.argv[2]]); "
        "main(['sweep', sys.argv[1], '--to', '500', '--step', '250']); "
        "sys.exit(1 if 'psycopg' in sys.modules else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), str(tmp_path / "out.md")], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
