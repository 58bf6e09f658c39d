"""What the rebuild reads from a real PostgreSQL as nous reads it (issue 22): the float32 confidence, the
procedure outcome counts, the session's earlier turns, and the turns list in UTC."""

from __future__ import annotations

from datetime import timedelta

from ctxtui.cli import main
from ctxtui.engine.packers.nous import formats as f
from ctxtui.engine.packers.nous.build import packer_for_turn
from ctxtui.engine.sources.memory.nous.source import read_turn

from tests.factories import nous_db as F


def test_rule1_a_real_confidence_reads_as_its_exact_float32(nous_db):
    # nous reads brain.decisions / heart.facts through asyncpg, which decodes a REAL (float4) cell to its exact
    # binary32 value; _format_decisions (context.py:1964) and _format_facts (:2065) print `{conf:.2f}`. So a
    # stored 0.045 prints 0.05 in nous (0.04500000178813934), not the 0.04 of the text "0.045" parsed as a double.
    nous_db.execute("ALTER TABLE brain.decisions ALTER COLUMN confidence TYPE real")
    nous_db.execute("ALTER TABLE heart.facts ALTER COLUMN confidence TYPE real")
    with nous_db.connect() as conn:
        ds = [F.add_decision(conn, i, f"Decision {i}", confidence=c) for i, c in enumerate((0.045, 0.365, 0.995))]
        fact = F.add_fact(conn, 1, "Metric units", subject="units", confidence=0.045)
        F.add_retrieval(conn, "r1", candidates=[F.candidate(d, "decision", final_rank=1) for d in ds])
        F.add_retrieval(conn, "r2", turn=2, candidates=[F.candidate(fact, "fact", final_rank=1)])
    _, rows = read_turn(nous_db.url, "r1")
    lines = [f.decision_line(rows[("decision", d)]) for d in ds]
    assert lines == [
        "- [success] Decision 0 (confidence: 0.05)",
        "- [success] Decision 1 (confidence: 0.37)",
        "- [success] Decision 2 (confidence: 1.00)",
    ]
    assert rows[("decision", ds[0])].get("confidence") == 0.04500000178813934
    _, rows = read_turn(nous_db.url, "r2")
    assert f.fact_line(rows[("fact", fact)], 0) == "- [units] Metric units [confidence: 0.05]"


def test_rule1_a_double_precision_confidence_reads_as_its_exact_double(nous_db):
    # asyncpg decodes float8 exactly as well: 0.045 stored in double precision prints 0.04, in nous and here.
    with nous_db.connect() as conn:
        d = F.add_decision(conn, 1, "Decision", confidence=0.045)
        F.add_retrieval(conn, "r1", candidates=[F.candidate(d, "decision", final_rank=1)])
    _, rows = read_turn(nous_db.url, "r1")
    assert f.decision_line(rows[("decision", d)]) == "- [success] Decision (confidence: 0.04)"


def test_rule6_the_outcome_counts_are_read_for_the_effectiveness(nous_db):
    # heart.procedures success_count / failure_count (sql/init.sql) feed _compute_effectiveness (procedures.py).
    with nous_db.connect() as conn:
        p = F.add_procedure(conn, 1, "deploy", description="Ship it")
        conn.execute(
            "UPDATE heart.procedures SET activation_count = 7, success_count = 1, failure_count = 3 WHERE id = %s",
            (p,),
        )
        F.add_retrieval(conn, "r1", candidates=[F.candidate(p, "procedure", final_rank=1)])
    _, rows = read_turn(nous_db.url, "r1")
    assert f.procedure_line(rows[("procedure", p)]) == "- **deploy** (ops): Ship it | activated 7x, effectiveness: 33%"


def test_rule5_the_first_turn_is_inferred_from_the_sessions_log(nous_db):
    # F083: is_first_turn = session_id not in _active_episodes (layer.py), not logged. A turn whose session logged
    # no lower turn number is taken as a first turn (and the knob says it was inferred); a later one is not.
    with nous_db.connect() as conn:
        F.add_retrieval(conn, "r1", turn=1, candidates=[], query="did that fix work?")
        F.add_retrieval(conn, "r2", turn=2, candidates=[], query="did that fix work?", at=F.T0 + timedelta(minutes=1))
    env = {"NOUS_MODEL": "gpt-4o"}
    first, _ = packer_for_turn(*read_turn(nous_db.url, "r1"), env)
    later, _ = packer_for_turn(*read_turn(nous_db.url, "r2"), env)
    assert first.settings.first_turn and first.settings.source("first_turn").startswith("inferred")
    assert not later.settings.first_turn and later.settings.source("first_turn").startswith("turn log")
    # "did that fix work?" is F083 C1's deictic follow-up: a follow-up on the first turn only.
    assert first.settings.followup and not later.settings.followup
    assert any(a[0] == "first_turn" for a in first.assumptions)


def test_also_the_turns_list_shows_utc_whatever_the_servers_zone(nous_db, capsys):
    # psycopg hands timestamptz over in the session's TimeZone: the list's TIME (UTC) column was that zone's.
    nous_db.execute(f"ALTER DATABASE {nous_db.name} SET timezone = 'Asia/Kolkata'")  # UTC+05:30
    with nous_db.connect() as conn:
        F.add_call(conn, "c1", tokens={"identity": 1})
    assert main(["turns", "--db", nous_db.url]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "TIME (UTC)" in out[1]
    assert out[2].split()[:2] == ["2026-08-21", "10:00:00"]  # F.T0, 10:00 UTC (15:30 in Kolkata)
