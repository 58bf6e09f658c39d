"""Cortex v2 (Rust) stores: recognised by their schema, read read-only as MemoryRecords, joined to ctx packets."""

from __future__ import annotations

import hashlib
import os
import shutil
from datetime import UTC, datetime

import pytest
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.packers.ctx.memories import attach_memories
from ctxtui.engine.sources.memory import SCHEMA_CORTEX, SCHEMA_CORTEX_V2, load_memories
from ctxtui.engine.sources.workspace import load_workspace

from tests.factories.cortex_v1 import build_v1_db, iso, memory
from tests.factories.cortex_v2 import build_v2_db, v2_memory

from . import stores

NOW = datetime(2025, 6, 1, tzinfo=UTC)

ROWS = [
    v2_memory(
        "m-tribal",
        "tribal",
        {
            "knowledge": "Always hash passwords with bcrypt",
            "severity": "critical",
            "warnings": ["never md5"],
            "consequences": [],
        },
        "Hash passwords with bcrypt",
        importance="high",
        access_count=4,
        tags=("security", "auth"),
    ),
    v2_memory(
        "m-decision",
        "decision",
        {"decision": "Use PostgreSQL", "rationale": "row locks", "alternatives": []},
        "",
        recorded="2025-04-01T10:00:00.123456789+00:00",
        confidence=0.8,
    ),
    v2_memory(
        "m-proc",
        "procedural",
        {
            "title": "Deploy",
            "steps": [
                {"order": 1, "instruction": "run the tests", "completed": False},
                {"order": 2, "instruction": "tag the release", "completed": False},
            ],
            "prerequisites": [],
        },
        "How to deploy",
        importance="low",
        archived=1,
        superseded_by="m-proc-2",
    ),
    v2_memory(
        "m-old",
        "semantic",
        {"knowledge": "v1 API is gone", "source_episodes": [], "consolidation_confidence": 0.5},
        "Old API",
        valid_until="2025-05-01T00:00:00+00:00",
    ),
    v2_memory(
        "m-new",
        "insight",
        {"observation": "Caching halves latency", "evidence": ["bench 1", "bench 2"]},
        "",
        importance="critical",
    ),
]


@pytest.fixture
def v2_db(tmp_path):
    return build_v2_db(tmp_path / "cortex.db", ROWS)


def by_id(load):
    return {record.id: record for record in load.records}


def test_recognised_by_schema_not_name(v2_db, tmp_path):
    for name in ("memory.db", "shabka.db", "notes.sqlite"):
        renamed = tmp_path / name
        shutil.copy(v2_db, renamed)
        assert load_memories(renamed).schema == SCHEMA_CORTEX_V2
    v1 = build_v1_db(tmp_path / "v1.db", [memory("a", "tribal", "x", last_accessed=iso(0))])
    assert load_memories(v1).schema == SCHEMA_CORTEX


def test_rows_map_onto_records(v2_db):
    load = load_memories(v2_db, now=NOW)
    records = by_id(load)
    tribal = records["m-tribal"]
    assert tribal.provenance == "cortex:m-tribal" and tribal.origin == "cortex"
    assert (tribal.kind, tribal.title, tribal.body) == (
        "tribal",
        "Hash passwords with bcrypt",
        "Always hash passwords with bcrypt",
    )
    assert (tribal.importance, tribal.confidence, tribal.tags) == (0.8, 0.9, ("security", "auth"))
    assert (tribal.times_retrieved, tribal.status, tribal.created_date) == (4, "active", "2025-05-01")
    decision = records["m-decision"]  # empty summary: the type's name field is the title
    assert (decision.title, decision.body, decision.created_date) == ("Use PostgreSQL", "row locks", "2025-04-01")
    proc = records["m-proc"]
    assert (proc.status, proc.superseded_by, proc.body) == ("archived", "m-proc-2", "run the tests\n\ntag the release")
    assert records["m-new"].title == "Caching halves latency" and records["m-new"].importance == 1.0
    assert records["m-old"].status == "archived"
    assert any("valid_until" in str(p) for p in load.problems)


def test_valid_until_needs_a_now(v2_db):
    assert by_id(load_memories(v2_db))["m-old"].status == "active"


def test_every_type_has_a_title_and_a_body(tmp_path):
    from ctxtui.engine.sources.memory.cortex.v2_reader import BODY_FIELDS, TITLE_FIELDS

    assert set(TITLE_FIELDS) == set(BODY_FIELDS) and len(TITLE_FIELDS) == 23
    rows = [
        v2_memory(
            f"m-{t}",
            t,
            {TITLE_FIELDS[t]: f"the {t}", **{f: f"{t} {f}" for f in BODY_FIELDS[t] if f != TITLE_FIELDS[t]}},
        )
        for t in TITLE_FIELDS
    ]
    load = load_memories(build_v2_db(tmp_path / "all.db", rows))
    assert len(load.records) == 23
    for record in load.records:
        assert record.title and record.body, record.kind


def test_read_only_wal_store_is_left_alone(v2_db):
    assert not os.path.exists(f"{v2_db}-wal")
    before = (
        hashlib.sha256(v2_db.read_bytes()).hexdigest(),
        os.stat(v2_db).st_mtime_ns,
        sorted(os.listdir(v2_db.parent)),
    )
    load_memories(v2_db, now=NOW)
    after = (
        hashlib.sha256(v2_db.read_bytes()).hexdigest(),
        os.stat(v2_db).st_mtime_ns,
        sorted(os.listdir(v2_db.parent)),
    )
    assert after == before


def test_joined_to_a_ctx_packet(v2_db, tmp_path):
    root = stores.workspace(tmp_path / "project")
    workspace = load_workspace(root)
    attach_memories(workspace, v2_db, now=NOW)
    text = packer_for(workspace, now=NOW).plan(100_000).render("md")
    assert "Hash passwords with bcrypt" in text and "How to deploy" not in text


def test_the_v1_cli_cannot_open_a_v2_store(v2_db, capsys):
    """A v2 file handed to `drift memory why`: its migrations fail on the first v1 index whose column is missing."""
    from ctxtui.cli import main

    assert main(["pack", "--packer", "cortex", "--db", str(v2_db), "--query", "x", "--format", "json"]) == 0
    assert capsys.readouterr().out == (
        '{"error":"Error: Failed to initialize Cortex: SqliteError: no such column: valid_from"}\n'
    )
