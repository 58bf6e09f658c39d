"""A hostile nous database cannot run its owner's code in ctxtui's queries, nor keep one running (issue 20, high 5).

The attack: `ALTER DATABASE … SET search_path = evil, pg_catalog` plus an
`evil.||(text, text)` operator. ctxtui's catalog query used `||`, so the
owner's function ran inside it and switched `statement_timeout` and
`lock_timeout` off; a lock held elsewhere then kept the next query waiting
for good. Now the session's search_path is pinned to pg_catalog (at connect
and in every transaction) and names are qualified, so the operator is never
called; and a client-side deadline (cancel, then the socket shut) ends any
query the server does not end itself, even code that disables the
timeouts and swallows the cancel.
"""

from __future__ import annotations

import threading
import time

import pytest
from ctxtui.engine.sources.memory.nous.source import load_nous_memories
from ctxtui.engine.sources.memory.nous.store import NousStore
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError

from tests.factories import nous_db as F

EVIL = """
CREATE SCHEMA evil;
GRANT USAGE ON SCHEMA evil TO ctxtui_ro;
CREATE FUNCTION evil.cat(a text, b text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_catalog.set_config('statement_timeout', '0', true);
    PERFORM pg_catalog.set_config('lock_timeout', '0', true);
    RAISE LOG 'ctxtui-evil-operator-called';
    RETURN pg_catalog.textcat(a, b);
END $$;
CREATE OPERATOR evil.|| (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.cat);
CREATE FUNCTION evil.count(anyelement) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN RAISE LOG 'ctxtui-evil-operator-called'; RETURN 0; END $$;
"""

# Code the server cannot stop: it switches the timeout off and swallows every cancel.
STALL = """
CREATE FUNCTION evil.stall() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_catalog.set_config('statement_timeout', '0', true);
    FOR i IN 1..600 LOOP
        BEGIN
            PERFORM pg_catalog.pg_sleep(0.1);
        EXCEPTION WHEN query_canceled THEN NULL;
        END;
    END LOOP;
    RETURN true;
END $$;
ALTER TABLE heart.episodes ENABLE ROW LEVEL SECURITY;
CREATE POLICY stall ON heart.episodes FOR SELECT USING (evil.stall());
"""


def poison(nous_db) -> None:
    nous_db.execute(EVIL)
    nous_db.execute(f"ALTER DATABASE {nous_db.name} SET search_path = evil, pg_catalog")
    with nous_db.connect() as conn:
        F.add_decision(conn, 1, "Use PostgreSQL")
        F.add_fact(conn, 1, "The store is PostgreSQL")


def evil_ran(nous_db) -> bool:
    """The owner's operator logged its call in this test's database (RAISE LOG; not the CREATE statement)."""
    return f"db={nous_db.name}: LOG:  ctxtui-evil-operator-called" in nous_db.server.log_text()


def bounded(call, seconds: float):
    """`call()` in a thread: (result or exception, elapsed), or fail if it outlives `seconds`."""
    box: list = []
    started = time.monotonic()

    def run() -> None:
        try:
            box.append(call())
        except Exception as exc:  # the result under test
            box.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    elapsed = time.monotonic() - started
    assert not thread.is_alive(), f"still running after {seconds} s: the server's timeouts were switched off"
    return box[0], elapsed


def test_the_owners_operator_never_runs_in_ctxtuis_queries(nous_db):
    poison(nous_db)
    load = load_nous_memories(nous_db.url)
    assert sorted(r.title for r in load.records) == ["The store is PostgreSQL", "Use PostgreSQL"]
    assert not evil_ran(nous_db)


def test_a_lock_elsewhere_still_times_out_in_a_poisoned_database(nous_db):
    poison(nous_db)
    with nous_db.connect() as locker:
        locker.execute("BEGIN")
        locker.execute("LOCK TABLE heart.facts IN ACCESS EXCLUSIVE MODE")
        result, elapsed = bounded(lambda: load_nous_memories(nous_db.url), 20)
        locker.execute("ROLLBACK")
    assert isinstance(result, MemorySourceError), result
    assert "locked" in result.message and elapsed < 10
    assert not evil_ran(nous_db)


def test_a_query_the_server_will_not_end_is_ended_by_the_clients_deadline(nous_db):
    poison(nous_db)
    nous_db.execute(STALL)
    with nous_db.connect() as conn:
        F.add_episode(conn, 1, "A stalled episode")
    store = NousStore(nous_db.url, statement_timeout_ms=500)
    try:
        result, elapsed = bounded(lambda: store.read(lambda cur: store.memories(cur, F.AGENT, _report())), 30)
        assert isinstance(result, MemorySourceError), result
        assert "deadline" in result.message and elapsed < 8, (result.line, elapsed)
        # The connection was given up; the next read opens a new one and works.
        assert store.read(lambda cur: store.snapshot(cur))
    finally:
        store.close()


def test_the_session_is_pinned_to_pg_catalog(nous_db):
    poison(nous_db)
    store = NousStore(nous_db.url)
    try:
        path = store.read(lambda cur: cur.execute("SHOW search_path").fetchone()[0])
        assert path == "pg_catalog"
    finally:
        store.close()


def _report():
    from ctxtui.engine.sources.memory.shared.rows import Report

    return Report("nous", [], "2100-01-01")


@pytest.fixture(autouse=True)
def _reset_database_settings(nous_db):
    yield
    nous_db.execute(f"ALTER DATABASE {nous_db.name} RESET ALL")
