"""A hostile nous database cannot put its own functions, operators or types into ctxtui's queries (issue 20, high 5).

The session is pinned to `search_path=pg_catalog` (at connect and at the
start of every transaction), so a database or role whose search path is
`evil, pg_catalog` gets nowhere by that alone. But code the database's owner
controls runs inside ctxtui's transaction all the same: a row-level-security
policy (or a view) on a table ctxtui reads can call
`set_config('search_path', 'evil, pg_catalog', true)`, and every statement
after it in that transaction is then parsed with the owner's schema first.
Every statement ctxtui sends must therefore name PostgreSQL's own objects
itself: `OPERATOR(pg_catalog.=)`, `pg_catalog.count(*)`, `::pg_catalog.text`.

Here the owner shadows the operators (`=`, `<>`, `<` on text and integers),
the functions (`to_char`, `array_to_json`, `json_build_array`, `float8send`),
the aggregates (`count`, `min`, `max`, `array_agg`) and the types (`text`,
`float8`, as domains whose check runs their code) that ctxtui's memory, turn
and rebuild statements use, each logging its call; a policy on every nous
table puts the `evil` schema first. Every load must read the same data as
on a clean database, and no shadow may run.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from ctxtui.engine.sources.memory.nous.source import (
    list_turns,
    load_nous_memories,
    newest_sampled_turn,
    read_turn,
)

from tests.factories import nous_db as F

MARK = "ctxtui-evil-shadow-called"
TABLES = (
    "brain.decisions",
    "heart.facts",
    "heart.procedures",
    "heart.episodes",
    "nous_system.context_log",
    "nous_system.retrieval_log",
)

_LOG = f"""
CREATE SCHEMA evil;
GRANT USAGE ON SCHEMA evil TO ctxtui_ro;
CREATE FUNCTION evil.mark(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN RAISE LOG '{MARK} %', what; RETURN true; END $$;
-- Run by the policy on every nous table: the rest of ctxtui's transaction resolves names in `evil` first.
CREATE FUNCTION evil.repath() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_catalog.set_config('search_path', 'evil, pg_catalog', true); RETURN true; END $$;
"""


def _operator(op: str, left: str, right: str, proc: str) -> str:
    name = f"evil.op_{abs(hash((op, left, right))) % 10**8}"
    return (
        f"CREATE FUNCTION {name}(a {left}, b {right}) RETURNS boolean LANGUAGE plpgsql AS $$ "
        f"BEGIN PERFORM evil.mark('operator {op}({left},{right})'); RETURN pg_catalog.{proc}(a, b); END $$;\n"
        f"CREATE OPERATOR evil.{op} (LEFTARG = {left}, RIGHTARG = {right}, FUNCTION = {name});\n"
    )


OPERATORS = "".join(
    [
        _operator("=", "text", "text", "texteq"),
        _operator("<>", "text", "text", "textne"),
        _operator("=", "integer", "integer", "int4eq"),
        _operator("<", "integer", "integer", "int4lt"),
        _operator("<", "integer", "smallint", "int42lt"),
        _operator("<", "integer", "bigint", "int48lt"),
        _operator("=", "integer", "smallint", "int42eq"),
        _operator("=", "integer", "bigint", "int48eq"),
        _operator("=", "uuid", "uuid", "uuid_eq"),
    ]
)

FUNCTIONS = """
CREATE FUNCTION evil.to_char(t timestamp, f text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.mark('to_char'); RETURN pg_catalog.to_char(t, f); END $$;
CREATE FUNCTION evil.array_to_json(a anyarray) RETURNS json LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.mark('array_to_json'); RETURN pg_catalog.array_to_json(a); END $$;
CREATE FUNCTION evil.json_build_array(v varchar) RETURNS json LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.mark('json_build_array'); RETURN pg_catalog.json_build_array(v); END $$;
CREATE FUNCTION evil.float8send(v float8) RETURNS bytea LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.mark('float8send'); RETURN pg_catalog.float8send(v); END $$;
CREATE FUNCTION evil.count_step(n bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.mark('count'); RETURN n + 1; END $$;
CREATE AGGREGATE evil.count(*) (SFUNC = evil.count_step, STYPE = bigint, INITCOND = '0');
CREATE FUNCTION evil.ts_step(s timestamptz, v timestamptz) RETURNS timestamptz LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.mark('min/max'); RETURN pg_catalog.timestamptz_larger(s, v); END $$;
CREATE AGGREGATE evil.min(timestamptz) (SFUNC = evil.ts_step, STYPE = timestamptz);
CREATE AGGREGATE evil.max(timestamptz) (SFUNC = evil.ts_step, STYPE = timestamptz);
CREATE FUNCTION evil.agg_step(s text[], v text) RETURNS text[] LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.mark('array_agg'); RETURN pg_catalog.array_append(s, v); END $$;
CREATE AGGREGATE evil.array_agg(text) (SFUNC = evil.agg_step, STYPE = text[]);
CREATE DOMAIN evil.text AS pg_catalog.text CHECK (evil.mark('type text'));
CREATE DOMAIN evil.float8 AS pg_catalog.float8 CHECK (evil.mark('type float8'));
CREATE DOMAIN evil.int8 AS pg_catalog.int8 CHECK (evil.mark('type int8'));
"""

POLICIES = "".join(
    f"ALTER TABLE {t} ENABLE ROW LEVEL SECURITY;\nCREATE POLICY repath ON {t} FOR SELECT USING (evil.repath());\n"
    for t in TABLES
)


def seed(nous_db) -> None:
    """A little of everything ctxtui reads: memories of all four kinds, and a logged turn log."""
    t0 = F.T0
    with nous_db.connect() as conn:
        d = F.add_decision(conn, 1, "Use PostgreSQL", context="why not", category="architecture")
        f = F.add_fact(conn, 1, "The store is PostgreSQL", subject="store")
        F.add_fact(conn, 2, "An old fact", active=False)
        F.add_procedure(conn, 1, "Deploy")
        e = F.add_episode(conn, 1, "We shipped it")
        cands = [
            F.candidate(d, "decision", final_rank=1),
            F.candidate(f, "fact", final_rank=2),
            F.candidate(e, "episode", final_rank=3),
        ]
        F.add_call(conn, "c1a", turn=1, at=t0, tokens={"identity": 120, "relevant_facts": 10})
        F.add_call(conn, "c1b", turn=1, at=t0 + timedelta(seconds=5), tokens={"identity": 120})
        F.add_retrieval(conn, "r1", turn=1, at=t0, candidates=cands)
        F.add_retrieval(conn, "p1", turn=1, at=t0 + timedelta(seconds=3), path="pipeline", candidates=None)
        F.add_call(conn, "c2", turn=2, at=t0 + timedelta(minutes=1), frame="question")
        F.add_retrieval(conn, "r2", turn=2, at=t0 + timedelta(minutes=1), candidates=cands)


def poison(nous_db) -> None:
    nous_db.execute(_LOG + OPERATORS + FUNCTIONS + POLICIES)
    nous_db.execute(f"ALTER DATABASE {nous_db.name} SET search_path = evil, pg_catalog")
    nous_db.execute(f"ALTER ROLE ctxtui_ro IN DATABASE {nous_db.name} SET search_path = evil, pg_catalog")


def shadows_called(nous_db) -> list[str]:
    """The shadows that logged a call in this test's database, as `what` (the RAISE LOG, not a CREATE)."""
    found = re.findall(rf"db={re.escape(nous_db.name)}: LOG:  {MARK} (.+)", nous_db.server.log_text())
    return sorted(set(found))


def everything(url: str):
    """What ctxtui reads from a nous database, as comparable values."""
    memories = load_nous_memories(url)
    turn, rows = read_turn(url, "r2")
    by_call, _ = read_turn(url, "c1b")
    by_pair, _ = read_turn(url, "s1#2")
    return (
        sorted(memories.records, key=lambda r: r.provenance),
        [p.message for p in memories.problems],
        list_turns(url),
        newest_sampled_turn(url),
        (turn, sorted(rows.items())),
        by_call,
        by_pair,
    )


def test_shadowed_operators_functions_and_types_never_run(nous_db):
    seed(nous_db)
    clean = everything(nous_db.url)
    poison(nous_db)
    assert everything(nous_db.url) == clean
    assert shadows_called(nous_db) == []


def test_the_shadows_would_run_were_ctxtuis_names_not_qualified(nous_db):
    """The trap works: the same statements unqualified, after the policy, call the owner's code."""
    seed(nous_db)
    poison(nous_db)
    import psycopg

    with psycopg.connect(nous_db.url, autocommit=True) as conn:
        conn.execute("BEGIN READ ONLY")
        conn.execute("SELECT pg_catalog.set_config('search_path', 'pg_catalog', true)")
        conn.execute("SELECT count(*) FROM brain.decisions").fetchone()  # the policy moves `evil` first
        conn.execute("SELECT id::text FROM heart.facts WHERE agent_id = %s", (F.AGENT,)).fetchall()
        conn.execute("ROLLBACK")
    assert {"operator =(text,text)", "type text"} <= set(shadows_called(nous_db))


@pytest.fixture(autouse=True)
def _reset_settings(nous_db):
    yield
    nous_db.execute(f"ALTER ROLE ctxtui_ro IN DATABASE {nous_db.name} RESET ALL")
    nous_db.execute(f"ALTER DATABASE {nous_db.name} RESET ALL")
