"""Live nous: new turns and changed memories are noticed by a cheap poll; a vanished server is survived."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from ctxtui.engine.sources.memory.nous.source import NousSource
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
from ctxtui.session import Session

from tests.conftest import write_context
from tests.factories import nous_db as F
from tests.pg import NousDb, private_cluster

NOW = datetime(2026, 9, 1, tzinfo=UTC)


def test_memory_changes_of_the_agent_are_noticed_and_nothing_else(nous_db):
    with nous_db.connect() as conn:
        fact = F.add_fact(conn, 1, "first")
    with NousSource(nous_db.url) as source:
        source.load(NOW)
        assert source.changed() is False
        with nous_db.connect() as conn:
            F.add_fact(conn, 2, "another agent's", agent="other")
            F.add_call(conn, "c1")
        assert source.changed() is False  # commits elsewhere: the snapshot moved, the agent's tables did not
        nous_db.execute("INSERT INTO heart.facts (agent_id, content) VALUES ('nous-default', 'second')")
        assert source.changed() is True
        assert source.changed() is True  # until a load records it
        assert len(source.reload(NOW).records) == 2
        assert source.reload(NOW) is None
        nous_db.execute("UPDATE heart.facts SET content = 'edited' WHERE id = %s", (fact,))
        assert source.changed() is True
        source.load(NOW)
        nous_db.execute("DELETE FROM heart.facts WHERE id = %s", (fact,))
        assert source.changed() is True
        assert [r.body for r in source.load(NOW).records] == ["second"]


def test_new_turns_are_noticed(nous_db):
    with NousSource(nous_db.url) as source:
        assert source.turns() == []
        assert source.turns_changed() is False
        with nous_db.connect() as conn:
            F.add_call(conn, "c1", turn=1)
        assert source.turns_changed() is True
        assert [t.key for t in source.turns()] == ["c1"]
        with nous_db.connect() as conn:
            F.add_retrieval(conn, "r1", turn=1, candidates=None)
        assert source.turns_changed() is True
        assert [t.key for t in source.turns()] == ["r1"]  # the turn now has its retrieval row
        assert source.turns_changed() is False


def test_a_lost_connection_is_reopened(nous_db):
    with nous_db.connect() as conn:
        F.add_fact(conn, 1, "first")
    with NousSource(nous_db.url) as source:
        source.load(NOW)
        nous_db.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'ctxtui' AND datname = %s",
            (nous_db.name,),
        )
        assert source.changed() is True  # the poll failed: only a reload can tell
        assert len(source.load(NOW).records) == 1  # and it reconnects


def test_a_server_that_goes_away_and_comes_back(tmp_path):
    root = write_context(tmp_path, {"TASKS.md": "- [ ] watch the store\n"})
    with private_cluster() as cluster:
        db = NousDb(cluster, cluster.new_database())
        with db.connect() as conn:
            F.add_fact(conn, 1, "kept while the server is away")
        session = Session(project=root, db_url=db.url, clock=lambda: NOW)
        session.load()
        assert [e.title for e in session.workspace.memories] == ["kept while the server is away"]
        assert session.poll() is None  # nothing committed: one snapshot query

        cluster.server.stop_server("fast")  # a clean stop: the server's sessions are cut
        start = time.perf_counter()
        problems = session.poll()
        assert time.perf_counter() - start < 3  # a vanished server costs seconds at most, never a hang
        assert any(
            "no PostgreSQL server socket" in p.message and "showing the last good state" in p.message for p in problems
        )
        assert [e.title for e in session.workspace.memories] == ["kept while the server is away"]
        generation = session.generation
        assert session.poll() is None and session.generation == generation  # the same failure: nothing to redraw

        cluster.server.start_server()
        with db.connect() as conn:
            F.add_fact(conn, 2, "written after the restart")
        assert session.poll() == []
        assert sorted(e.title for e in session.workspace.memories) == [
            "kept while the server is away",
            "written after the restart",
        ]
        session.memory_join.close()


def test_session_poll_picks_up_a_new_memory(nous_db, tmp_path):
    root = write_context(tmp_path, {"TASKS.md": "- [ ] watch the store\n"})
    session = Session(project=root, db_url=nous_db.url, clock=lambda: NOW)
    session.load()
    assert session.workspace.memories == [] and session.watch_paths() == [root / ".context"]
    with nous_db.connect() as conn:
        F.add_decision(conn, 1, "Use PostgreSQL")
    assert session.poll() == []
    assert [e.title for e in session.workspace.memories] == ["Use PostgreSQL"]
    assert session.poll() is None
    session.memory_join.close()


def test_an_unreachable_url_fails_fast():
    source = NousSource("postgresql://ctxtui@127.0.0.1:1/nous")
    start = time.perf_counter()
    try:
        source.load(NOW)
    except MemorySourceError as exc:
        assert "connection refused" in exc.message
    assert source.changed() is True and time.perf_counter() - start < 2
