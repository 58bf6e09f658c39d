"""nous's memory tables as memories: kinds, provenance, titles, bodies and statuses, for one agent.

Against a real PostgreSQL (tests/pg.py) loaded with ctxtui's stand-in for
nous's schema; ctxtui connects as the read-only role `ctxtui_ro`.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from ctxtui.engine.packers.ctx.memories import MemoryJoin, attach_memories
from ctxtui.engine.sources.memory import load_memories
from ctxtui.engine.sources.memory.nous.source import load_nous_memories
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
from ctxtui.engine.sources.workspace import load_workspace

from tests.conftest import write_context
from tests.factories import nous_db as F

NOW = datetime(2026, 9, 1, tzinfo=UTC)


def by_provenance(records):
    return {r.provenance: r for r in records}


def seed(db):
    with db.connect() as conn:
        d_ok = F.add_decision(conn, 1, "Use PostgreSQL for the store", context="unify storage", outcome="success")
        d_new = F.add_decision(conn, 2, "Use SQLite after all", outcome="pending")
        d_old = F.add_decision(conn, 3, "Use files", outcome="superseded", superseded_by=d_new)
        d_noise = F.add_decision(conn, 4, "sweep artefact", outcome="noise")
        f_ok = F.add_fact(conn, 1, "User prefers metric units", subject="units")
        f_new = F.add_fact(conn, 2, "User prefers kelvin", subject="temperature")
        f_old = F.add_fact(conn, 3, "User prefers celsius", subject="temperature", active=False, superseded_by=f_new)
        f_off = F.add_fact(conn, 4, "Deactivated fact", active=False)
        f_nosubj = F.add_fact(conn, 5, "A fact with no subject\nand two lines")
        p_ok = F.add_procedure(conn, 1, "deploy", description="How to deploy", notes=["run make", "source: wiki"])
        p_arch = F.add_procedure(conn, 2, "old deploy", archived=True)
        e_ok = F.add_episode(conn, 1, "We set up the database", title="Set up DB")
        e_untitled = F.add_episode(conn, 2, "x" * 80, title=None)
        e_gone = F.add_episode(conn, 3, "Gave up", outcome="abandoned", active=False)
        F.add_fact(conn, 9, "Another agent's fact", agent="other-agent")
    return locals()


def test_the_four_tables_become_memories_with_nous_provenance(nous_db):
    ids = seed(nous_db)
    load = load_nous_memories(nous_db.url, now=NOW)
    assert load.schema == "nous" and load.problems == []
    records = by_provenance(load.records)
    assert len(records) == 14  # the other agent's fact is not read
    dec = records[f"nous:decisions:{ids['d_ok']}"]
    assert (dec.kind, dec.title, dec.body, dec.status) == (
        "decision",
        "Use PostgreSQL for the store",
        "unify storage",
        "active",
    )
    fact = records[f"nous:facts:{ids['f_ok']}"]
    assert (fact.kind, fact.title, fact.body, fact.confidence) == ("fact", "units", "User prefers metric units", 0.9)
    assert records[f"nous:facts:{ids['f_nosubj']}"].title == "A fact with no subject"
    proc = records[f"nous:procedures:{ids['p_ok']}"]
    assert (proc.kind, proc.title, proc.body) == ("procedure", "deploy", "How to deploy\n\nrun make")
    ep = records[f"nous:episodes:{ids['e_ok']}"]
    assert (ep.kind, ep.title, ep.body, ep.created_date) == (
        "episode",
        "Set up DB",
        "We set up the database",
        "2026-08-21",
    )
    assert records[f"nous:episodes:{ids['e_untitled']}"].title == "x" * 60  # nous's own fallback (context.py:1492)
    assert dec.importance == 0.5 and dec.created_at == "2026-08-21T10:00:00Z"


@pytest.mark.parametrize(
    ("key", "status"),
    [
        ("d_old", "superseded"),  # decisions have no `active`: outcome 'superseded' + superseded_by
        ("d_noise", "archived"),  # outcome 'noise': a sweep artefact
        ("f_old", "superseded"),  # superseded_by wins over active=false
        ("f_off", "archived"),
        ("p_arch", "archived"),  # archived_at (migration 057)
        ("e_gone", "archived"),  # an abandoned episode has active=false
    ],
)
def test_statuses_come_from_the_columns_each_table_has(nous_db, key, status):
    ids = seed(nous_db)
    table = {"d": "decisions", "f": "facts", "p": "procedures", "e": "episodes"}[key[0]]
    record = by_provenance(load_nous_memories(nous_db.url).records)[f"nous:{table}:{ids[key]}"]
    assert record.status == status


def test_one_agent_at_a_time(nous_db):
    seed(nous_db)
    other = load_nous_memories(nous_db.url, "other-agent")
    assert [r.title for r in other.records] == ["Another agent's fact"]
    with pytest.raises(
        MemorySourceError,
        match=r"2 agents in this database \(other-agent, third\): "
        r"choose one with --agent",
    ):
        with nous_db.connect() as conn:
            conn.execute("DELETE FROM heart.facts WHERE agent_id = 'nous-default'")
            conn.execute("DELETE FROM brain.decisions WHERE agent_id = 'nous-default'")
            conn.execute("UPDATE heart.procedures SET agent_id = 'third'")
            conn.execute("UPDATE heart.episodes SET agent_id = 'other-agent'")
        load_nous_memories(nous_db.url)


def test_the_only_agent_is_chosen_without_asking(nous_db):
    with nous_db.connect() as conn:
        F.add_fact(conn, 1, "solo", agent="solo-agent")
    assert [r.body for r in load_nous_memories(nous_db.url).records] == ["solo"]


def test_a_project_filter_is_reported_as_ignored(nous_db):
    seed(nous_db)
    load = load_nous_memories(nous_db.url, project="p1")
    assert any("nous keeps no project column" in p.message for p in load.problems)


def test_load_memories_accepts_a_url(nous_db):
    seed(nous_db)
    load = load_memories(nous_db.url, agent="other-agent")
    assert load.schema == "nous" and len(load.records) == 1


def test_a_database_from_before_migration_057_still_reads(nous_db):
    with nous_db.connect() as conn:
        F.add_procedure(conn, 1, "deploy")
        conn.execute("ALTER TABLE heart.procedures DROP COLUMN archived_at, DROP COLUMN superseded_by")
    [proc] = load_nous_memories(nous_db.url).records
    assert proc.status == "active"


def test_memories_join_the_ctx_packet_like_the_sqlite_stores(nous_db, tmp_path):
    ids = seed(nous_db)
    root = write_context(tmp_path, {"TASKS.md": "- [ ] move the store to PostgreSQL\n"})
    workspace = load_workspace(root)
    attach_memories(workspace, nous_db.url, now=NOW)
    sources = {e.source: e for e in workspace.memories}
    entry = sources[f"nous:decisions:{ids['d_ok']}"]
    assert entry.section == "decisions" and entry.key == f"memory:nous:decisions:{ids['d_ok']}"
    assert entry.text == "## [2026-08-21-100000] Use PostgreSQL for the store\n\nunify storage"
    assert sources[f"nous:facts:{ids['f_ok']}"].section == "memories"
    assert sources[f"nous:decisions:{ids['d_old']}"].status == "superseded"


def test_a_one_shot_join_reports_an_unreachable_server_as_a_problem(tmp_path):
    join = MemoryJoin("postgresql://ctxtui@/nous?host=/nonexistent-socket-dir")
    assert join.path == "postgresql://ctxtui@/nous?host=/nonexistent-socket-dir"  # not folded into a Path
    joined = join.load(NOW)
    assert joined.entries == [] and "no PostgreSQL server socket" in joined.problems[0].message
