"""Proofs that ctxtui never writes to a nous database.

Three layers, each tested: ctxtui's session is read-only by default and every
transaction it opens is READ ONLY; no statement it sends is a write (the
server logs every statement, `log_statement=all`, and the log is checked);
and the role the tests give it, `ctxtui_ro`, holds only USAGE and SELECT, so
even a write that got past the first two would be refused.
"""

from __future__ import annotations

import re

import psycopg
import pytest
from ctxtui.engine.sources.memory.nous.source import (
    NousSource,
    list_turns,
    load_nous_memories,
    newest_sampled_turn,
    read_turn,
)
from ctxtui.engine.sources.memory.nous.store import NousStore

from tests.factories import nous_db as F

# What ctxtui may send: reads, and the statements that open, tune and close a read-only transaction.
ALLOWED = re.compile(
    r"^(SELECT|WITH|BEGIN ISOLATION LEVEL REPEATABLE READ,? READ ONLY|SET LOCAL (statement_timeout|"
    r"lock_timeout) = \d+|ROLLBACK)\b",
    re.IGNORECASE,
)


def seed(db):
    with db.connect() as conn:
        fact = F.add_fact(conn, 1, "User prefers metric units", subject="units")
        F.add_call(conn, "c1", tokens={"relevant_facts": 10})
        F.add_retrieval(conn, "r1", candidates=[F.candidate(fact, "fact", final_rank=1)])


def everything_ctxtui_does(url: str) -> None:
    load_nous_memories(url)
    list_turns(url)
    read_turn(url, "r1")
    newest_sampled_turn(url)
    with NousSource(url) as source:
        source.load()
        source.changed()
        source.turns()
        source.turns_changed()
        source.turn("s1#1")


def ctxtui_statements(db) -> list[str]:
    statements = []
    for line in db.server.log_text().splitlines():
        if "app=ctxtui user=" in line and f"db={db.name}:" in line and "statement: " in line:
            statements.append(line.split("statement: ", 1)[1].strip())
    return statements


def test_no_write_statement_reaches_postgres(nous_db):
    seed(nous_db)
    everything_ctxtui_does(nous_db.owner_url)  # the superuser: only ctxtui's own discipline holds
    statements = ctxtui_statements(nous_db)
    assert len(statements) > 20
    offending = [s for s in statements if not ALLOWED.match(s)]
    assert offending == []
    assert sum(s.startswith("BEGIN") for s in statements) == sum(s == "ROLLBACK" for s in statements) > 5


def test_ctxtuis_session_refuses_writes_even_as_the_owner(nous_db):
    store = NousStore(nous_db.owner_url)
    conn = store.connect()
    try:
        assert conn.execute("SHOW default_transaction_read_only").fetchone()[0] == "on"
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            conn.execute("INSERT INTO heart.facts (agent_id, content) VALUES ('x', 'y')")
    finally:
        store.close()


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO heart.facts (agent_id, content) VALUES ('x', 'y')",
        "UPDATE brain.decisions SET confidence = 0.1",
        "DELETE FROM nous_system.context_log",
        "CREATE TABLE heart.t (i int)",
    ],
)
def test_the_read_only_role_refuses_writes(nous_db, statement):
    with psycopg.connect(nous_db.url) as conn, pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
        conn.execute(statement)


def test_the_read_only_role_has_no_write_grants_either(nous_db):
    # A role may switch its own read-only default off; its grants still refuse the write.
    with psycopg.connect(nous_db.url, autocommit=True) as conn:
        conn.execute("SET default_transaction_read_only = off")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO heart.facts (agent_id, content) VALUES ('x', 'y')")
