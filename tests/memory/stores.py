"""The same handful of memories written into each store's schema, and a small `.context/` to join them to.

Each store spells them its own way (Shabka's RFC 3339 dates and `relations`,
Cortex's JSON content, importance words and usage history), so a test can
ask the same questions of all three and expect the same sections and fates.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ctxtui.engine.sources.memory.native.schema import add_memories

from tests.conftest import write_context
from tests.factories.memory_dbs import CORTEX_DDL, SHABKA_DDL

STORES = ("native", "shabka", "cortex")
PREFIX = {"native": "memory.db", "shabka": "shabka", "cortex": "cortex"}
CORTEX_WORD = {0.2: "low", 0.5: "normal", 0.8: "high", 1.0: "critical"}


@dataclass(frozen=True)
class Mem:
    id: str
    kind: str
    title: str
    body: str
    importance: float  # one of CORTEX_WORD's keys, so every store can say it
    days: int  # age at NOW
    status: str = "active"
    superseded_by: str | None = None
    uses: tuple[int, int] = (0, 0)  # (retrieved, referenced)
    project: str | None = "ctxtui"


MEMS = (
    Mem("d1", "decision", "Keep memories in SQLite", "One file in WAL mode, read by every agent.", 1.0, 2, uses=(4, 4)),
    Mem(
        "l1",
        "lesson",
        "WAL readers never write the main file",
        "Only the -wal and -shm files change while a reader is attached.",
        0.8,
        10,
        uses=(3, 0),
    ),
    Mem("f1", "fix", "Fix the flaky reload watcher", "The watcher fired before the commit was visible.", 0.5, 40),
    Mem(
        "e1",
        "error",
        "database is locked during import",
        "A writer held an exclusive lock; retry with back-off.",
        0.2,
        100,
    ),
    Mem("o1", "observation", "Memory loads take 0.4 s for 50k rows", "Measured on the bench machine.", 0.5, 5),
    Mem(
        "p1", "preference", "Prefer read-only connections", "Open every database with mode=ro.", 0.8, 1, project="other"
    ),
    Mem("a1", "decision", "Store memories in JSON files", "One file per memory.", 0.5, 200, status="archived"),
    Mem(
        "s1",
        "lesson",
        "Readers may checkpoint the WAL",
        "They cannot: read-only connections never write.",
        0.5,
        150,
        status="superseded",
        superseded_by="l1",
    ),
)
ACTIVE = [m for m in MEMS if m.status == "active"]
SECTION = {
    "decision": "decisions",
    "lesson": "learnings",
    "fix": "learnings",
    "error": "learnings",
    "observation": "memories",
    "preference": "memories",
}

TASKS = "# Tasks\n\n- [ ] Keep SQLite memories read-only\n- [ ] Fix the reload watcher\n"
DECISIONS = (
    "# Decisions\n\n## [2026-04-28-120000] Read .context before the database\n\nMarkdown first.\n\n"
    "## [2026-03-01-120000] Use Textual for the TUI\n\nOne framework.\n"
)
LEARNINGS = (
    "# Learnings\n\n## [2026-04-20-120000] ctx reads only top-level md files\n\nSubfolders are skipped.\n\n"
    "## [2026-01-10-120000] Budgets can be negative\n\nTier 1 still prints.\n"
)


def workspace(root: Path) -> Path:
    """A small project whose tasks share words with some memories."""
    return write_context(root, {"TASKS.md": TASKS, "DECISIONS.md": DECISIONS, "LEARNINGS.md": LEARNINGS})


def build(store: str, path: Path, now: datetime, mems=MEMS) -> Path:
    """Write `mems` into a new database of `store`'s schema at `path`."""
    return {"native": _native, "shabka": _shabka, "cortex": _cortex}[store](path, now, mems)


def _at(now: datetime, days: int, seconds: int = 0) -> datetime:
    return (now - timedelta(days=days, seconds=seconds)).astimezone(UTC)


def _native(path: Path, now: datetime, mems) -> Path:
    def events(m: Mem):
        retrieved, referenced = m.uses
        out = [(_at(now, 0, 3600 * (k + 1)).strftime("%Y-%m-%dT%H:%M:%SZ"), "retrieved") for k in range(retrieved)]
        out += [
            (_at(now, 0, 3600 * (k + 1) - 1).strftime("%Y-%m-%dT%H:%M:%SZ"), "referenced") for k in range(referenced)
        ]
        return out

    stamp = lambda m: _at(now, m.days).strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731
    add_memories(
        path,
        [
            dict(
                id=m.id,
                kind=m.kind,
                title=m.title,
                body=m.body,
                importance=m.importance,
                status=m.status,
                superseded_by=m.superseded_by,
                project=m.project,
                created_at=stamp(m),
                events=events(m),
            )
            for m in mems
        ],
    )
    return path


def _shabka(path: Path, now: datetime, mems) -> Path:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript(SHABKA_DDL)
    for m in mems:
        when = _at(now, m.days).strftime("%Y-%m-%dT%H:%M:%S.123456789+00:00")
        conn.execute(
            "INSERT INTO memories (id, kind, title, content, importance, status, project_id, created_at, updated_at, "
            "accessed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (m.id, m.kind, m.title, m.body, m.importance, m.status, m.project, when, when, when),
        )
        if m.superseded_by:
            conn.execute(
                "INSERT INTO relations (source_id, target_id, relation_type) VALUES (?, ?, 'supersedes')",
                (m.superseded_by, m.id),
            )
    conn.close()
    return path


def _cortex(path: Path, now: datetime, mems) -> Path:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(CORTEX_DDL)
    for m in mems:
        when = _at(now, m.days).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        conn.execute(
            "INSERT INTO memories (id, type, content, summary, importance, access_count, created_at, updated_at, "
            "archived, superseded_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                m.id,
                m.kind,
                json.dumps({"title": m.title, "description": m.body}),
                m.title,
                CORTEX_WORD[m.importance],
                m.uses[0],
                when,
                when,
                int(m.status == "archived"),
                m.superseded_by,
            ),
        )
        retrieved, referenced = m.uses
        for k in range(retrieved):
            used = _at(now, 0, 3600 * (k + 1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            conn.execute(
                "INSERT INTO memory_usage_history (id, memory_id, outcome, used_at) VALUES (?, ?, ?, ?)",
                (f"{m.id}-use-{k}", m.id, "accepted" if k < referenced else "rejected", used),
            )
    conn.close()
    return path
