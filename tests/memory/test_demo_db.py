"""The demo ships a memory database: about 300 varied memories that `ctxtui demo` joins to the packet."""

from __future__ import annotations

import argparse
import sqlite3
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from ctxtui.demo import demo_memories, demo_memory_db_path, write_demo
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.packers.ctx.memories import attach_memories
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.sources.memory import load_memories
from ctxtui.engine.sources.workspace import load_workspace

NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)
KINDS = {"decision", "lesson", "fix", "error", "fact", "preference", "pattern", "observation", "procedure"}


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return write_demo(tmp_path_factory.mktemp("demo") / "demo", NOW)


@pytest.fixture(scope="module")
def load(demo):
    return load_memories(demo_memory_db_path(demo), now=NOW)


def test_write_demo_creates_the_database(demo, load):
    assert demo_memory_db_path(demo).is_file()
    assert load.schema == "ctxtui" and load.problems == []
    assert 280 <= len(load.records) <= 320
    assert {p.name for p in (demo / ".context").iterdir() if p.name.startswith("memory.db")} == {"memory.db"}


def test_memories_are_varied(load):
    records = load.records
    kinds = Counter(r.kind for r in records)
    assert set(kinds) >= KINDS and min(kinds[k] for k in KINDS) >= 5
    statuses = Counter(r.status for r in records)
    assert statuses["archived"] >= 5 and statuses["superseded"] >= 3 and statuses["pending"] >= 1
    superseded = [r for r in records if r.status == "superseded"]
    ids = {r.id: r for r in records}
    assert all(ids[r.superseded_by].created_at > r.created_at for r in superseded)  # replaced by a newer one
    importances = [r.importance for r in records]
    assert min(importances) < 0.25 and max(importances) > 0.9
    used = [r for r in records if r.times_retrieved >= 2]
    assert len(used) > 50 and len(used) < len(records)
    from ctxtui.engine.sources.memory.shared.scoring import usage_of

    boosts = [usage_of(r, NOW) for r in used]
    assert min(boosts) < 0.7 and max(boosts) > 1.3
    ages = [(NOW.date() - datetime.strptime(r.created_date, "%Y-%m-%d").date()).days for r in records]
    assert min(ages) <= 7 and max(ages) > 90
    assert len({r.title for r in records}) == len(records)


def test_memories_are_about_the_demo_project(load):
    text = " ".join(r.title + " " + r.body for r in load.records).lower()
    for word in ("stripe", "invoice", "dunning", "proration", "usage", "celery", "tax", "webhook"):
        assert text.count(word) >= 5, word
    assert {r.project for r in load.records} <= {"acme-billing", None}


def test_same_now_same_database_and_dates_follow_now(tmp_path):
    first = write_demo(tmp_path / "a", NOW)
    second = write_demo(tmp_path / "b", NOW)

    def dump(root):
        conn = sqlite3.connect(f"file:{demo_memory_db_path(root)}?mode=ro", uri=True)
        rows = [
            conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall()
            for t in ("memories", "usage_events", "relations")
        ]
        conn.close()
        return rows

    assert dump(first) == dump(second)
    later = [m["created_at"] for m in demo_memories(NOW + timedelta(days=10))]
    now = [m["created_at"] for m in demo_memories(NOW)]
    shift = {
        (datetime.fromisoformat(b.replace("Z", "+00:00")) - datetime.fromisoformat(a.replace("Z", "+00:00")))
        for a, b in zip(now, later)
    }
    assert shift == {timedelta(days=10)}
    write_demo(tmp_path / "a", NOW)  # rewritten on every launch: the old file goes first
    assert dump(first) == dump(second)


def test_demo_packet_at_the_default_budget_shows_both_sources(demo):
    workspace = load_workspace(demo)
    attach_memories(workspace, demo_memory_db_path(demo), project=None, now=NOW)
    assert workspace.memory_problems == []
    packet = packer_for(workspace, now=NOW).plan(8000)
    memories = [o for o in packet.outcomes if o.entry.key.startswith("memory:")]
    fates = Counter((o.entry.section, o.fate) for o in memories)
    for section in ("decisions", "learnings", "memories"):
        assert fates[(section, Fate.INCLUDED)] >= 3 and fates[(section, Fate.SUMMARIZED)] >= 3, section
    reasons = Counter(o.reason for o in memories if o.fate is Fate.DROPPED)
    assert reasons[Reason.ARCHIVED] >= 5 and reasons[Reason.SUPERSEDED] >= 3
    markdown_decisions = [o for o in packet.outcomes if o.entry.source.startswith(".context/DECISIONS.md")]
    assert any(o.fate is Fate.INCLUDED for o in markdown_decisions)
    text = packet.render("md")
    assert "## Memories\n" in text and "## Recent Decisions\n" in text and "## Also Noted\n" in text


def test_demo_command_opens_the_memory_database(tmp_path, monkeypatch):
    import ctxtui.tui.app as app_module
    from ctxtui.cli import tui as tui_launch

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    opened = {}

    class FakeApp:
        def __init__(self, session, **kwargs):
            opened["session"] = session

        def run(self):
            opened["ran"] = True

    monkeypatch.setattr(app_module, "CtxtuiApp", FakeApp)
    args = argparse.Namespace(db=None, db_project=None, budget=None, theme=None, now=None)
    assert tui_launch.run(args, demo=True) == 0
    session = opened["session"]
    assert opened["ran"] and session.db == demo_memory_db_path(session.project)
    assert session.db.is_file()
    session.clock = lambda: NOW
    session.load()
    assert len(session.workspace.memories) == len(load_memories(session.db).records)
