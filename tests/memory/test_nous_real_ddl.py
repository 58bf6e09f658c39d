"""The reader against nous's own DDL, when a copy of it is at hand (CTXTUI_NOUS_SQL_DIR).

ctxtui does not ship nous's SQL (no licence was found for it); the suite's
schema is ctxtui's own stand-in (tests/factories/nous_schema.sql). Point
CTXTUI_NOUS_SQL_DIR at a folder holding nous's `init.sql` and
`migrations/026_observability.sql` and `migrations/070_retrieval_telemetry.sql`
to check the reader against the real thing as well.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ctxtui.engine.sources.memory.nous.source import list_turns, load_nous_memories, read_turn

from tests.factories import nous_db as F

SQL_DIR = os.environ.get("CTXTUI_NOUS_SQL_DIR")

pytestmark = pytest.mark.skipif(not SQL_DIR, reason="CTXTUI_NOUS_SQL_DIR is not set (nous's own DDL is optional)")


def test_the_reader_on_nous_own_ddl(pg_cluster):
    folder = Path(SQL_DIR)
    name = pg_cluster.new_database()
    try:
        import psycopg

        with psycopg.connect(pg_cluster.server.conninfo(dbname=name), autocommit=True) as su:
            for schema in ("brain", "heart", "nous_system"):
                su.execute(f"DROP SCHEMA {schema} CASCADE")
            su.execute("DROP EXTENSION IF EXISTS vector CASCADE")
            init = (folder / "init.sql").read_text().replace("CREATE EXTENSION IF NOT EXISTS pg_trgm;", "")
            su.execute(init)
            for migration in ("026_observability.sql", "070_retrieval_telemetry.sql"):
                su.execute((folder / "migrations" / migration).read_text())
            su.execute(
                "GRANT USAGE ON SCHEMA brain, heart, nous_system TO ctxtui_ro; "
                "GRANT SELECT ON ALL TABLES IN SCHEMA brain, heart, nous_system TO ctxtui_ro"
            )
            fact = F.add_fact(su, 1, "User prefers metric units", subject="units")
            F.add_decision(su, 1, "Use PostgreSQL")
            # init.sql alone has no procedures.archived_at (migration 057): the reader reads it as NULL
            su.execute(
                "INSERT INTO heart.procedures (agent_id, name, description) "
                "VALUES ('nous-default', 'deploy', 'How to deploy')"
            )
            F.add_episode(su, 1, "We set it up", title="Setup")
            F.add_call(su, "c1", tokens={"relevant_facts": 11})
            F.add_retrieval(su, "r1", candidates=[F.candidate(fact, "fact", final_rank=1)])
        url = pg_cluster.server.url("ctxtui_ro", name)
        assert len(load_nous_memories(url).records) == 4
        assert [t.key for t in list_turns(url)[1]] == ["r1"]
        turn, rows = read_turn(url, "r1")
        assert rows[("fact", fact)].get("subject") == "units"
    finally:
        pg_cluster.drop_database(name)
