"""The synthetic builders: deterministic, varied, and careful with existing files."""

from __future__ import annotations

from collections import Counter

import pytest
from ctxtui.engine.sources.memory import load_memories, section_for_kind

from tests.factories.memory_dbs import build_cortex_db, build_native_db, build_shabka_db

from .conftest import NOW

BUILDERS = [build_native_db, build_shabka_db, build_cortex_db]


@pytest.mark.parametrize("build", BUILDERS)
def test_same_seed_same_memories(tmp_path, build):
    a = load_memories(build(tmp_path / "a.db", 60, seed=5, now=NOW)).records
    b = load_memories(build(tmp_path / "b.db", 60, seed=5, now=NOW)).records
    c = load_memories(build(tmp_path / "c.db", 60, seed=6, now=NOW)).records
    assert a == b and a != c


def test_demo_sized_native_db_is_varied(tmp_path):
    records = load_memories(build_native_db(tmp_path / "m.db", 300, seed=42, now=NOW)).records
    assert len(records) == 300 and len({r.id for r in records}) == 300
    assert set(Counter(section_for_kind(r.kind) for r in records)) == {"decisions", "learnings", "memories"}
    statuses = Counter(r.status for r in records)
    assert statuses["active"] > 200 and statuses["archived"] and statuses["superseded"] and statuses["pending"]
    assert all(r.superseded_by in {x.id for x in records} for r in records if r.superseded_by)
    sentences = [r.body.count(". ") + 1 for r in records]
    assert min(sentences) == 1 and max(sentences) >= 5
    assert min(r.importance for r in records) < 0.2 and max(r.importance for r in records) > 0.8
    assert sum(1 for r in records if r.times_retrieved >= 2) > 30
    assert any(r.tags for r in records) and any(not r.tags for r in records)
    assert len({r.title for r in records}) > 250
    assert all(r.created_date <= NOW.date().isoformat() for r in records)


@pytest.mark.parametrize("build", BUILDERS)
def test_builders_refuse_existing_files(tmp_path, build):
    path = tmp_path / "existing.db"
    path.write_text("keep me")
    with pytest.raises(FileExistsError):
        build(path, 5, seed=1, now=NOW)
    assert path.read_text() == "keep me"
