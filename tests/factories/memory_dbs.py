"""Synthetic memory databases for tests and benchmarks (the demo has its own, in ctxtui/demo/).

Each builder writes a new file in one store's schema — ctxtui's own, Shabka's
or Cortex's — filled with `n` varied memories about software work: kinds,
titles, bodies of one to six sentences, tags, an importance spread, some
archived, superseded or pending, and usage events. The same (n, seed, now)
always gives the same memories; `now` anchors every date, so nothing here
reads the clock. Builders refuse an existing non-empty file.
"""

from __future__ import annotations

import json
import random
import sqlite3
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ctxtui.engine.sources.memory.native.schema import add_memories

from tests.factories import words

# Share of each native kind; the other stores map these onto their own kinds.
KIND_WEIGHTS = {
    "decision": 20,
    "learning": 14,
    "lesson": 5,
    "gotcha": 5,
    "fix": 8,
    "error": 5,
    "fact": 10,
    "observation": 8,
    "preference": 5,
    "pattern": 6,
    "procedure": 5,
    "todo": 4,
    "note": 5,
}
SHABKA_KIND = {"learning": "lesson", "gotcha": "lesson", "note": "observation"}
CORTEX_TYPE = {
    "decision": "decision_context",
    "learning": "tribal",
    "lesson": "tribal",
    "gotcha": "tribal",
    "fix": "tribal",
    "error": "code_smell",
    "fact": "semantic",
    "observation": "episodic",
    "preference": "core",
    "pattern": "pattern_rationale",
    "procedure": "procedural",
    "todo": "episodic",
    "note": "semantic",
}
CORTEX_WORDS = ((0.35, "low"), (0.65, "normal"), (0.9, "high"), (1.01, "critical"))


@dataclass
class _Memory:
    """One generated memory, before any store's spelling."""

    key: str
    kind: str
    title: str
    sentences: list[str]
    tags: list[str]
    project: str | None
    importance: float
    status: str
    created: datetime
    updated: datetime
    accessed: datetime | None
    events: list[tuple[datetime, str]] = field(default_factory=list)
    superseded_by: int | None = None  # index of the replacing memory

    @property
    def body(self) -> str:
        return " ".join(self.sentences)


def generate(n: int, seed: int, now: datetime) -> list[_Memory]:
    """The store-independent memories every builder writes."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    rng = random.Random(seed)
    kinds, weights = list(KIND_WEIGHTS), list(KIND_WEIGHTS.values())
    keys: set[str] = set()
    memories = []
    for _ in range(n):
        kind = rng.choices(kinds, weights)[0]
        age = min(720.0, rng.expovariate(1 / 60))
        created = now - timedelta(days=age, seconds=rng.randrange(86400))
        created = created.replace(microsecond=0)
        updated = created + timedelta(days=rng.uniform(0, min(age, 30)) if rng.random() < 0.3 else 0)
        importance = min(1.0, round(rng.betavariate(2, 2.5) + (0.1 if kind == "decision" else 0), 2))
        key = f"{rng.getrandbits(48):012x}"
        while key in keys:
            key = f"{rng.getrandbits(48):012x}"
        keys.add(key)
        memory = _Memory(
            key,
            kind,
            _title(rng, kind),
            _sentences(rng),
            rng.sample(words.tag, rng.randint(0, 4)),
            rng.choices(words.project + [None], [5, 3, 2, 1, 2])[0],
            importance,
            _status(rng),
            created,
            updated.replace(microsecond=0),
            None,
        )
        if rng.random() < 0.35:
            memory.events = _events(rng, created, now)
            memory.accessed = max(at for at, _ in memory.events)
        memories.append(memory)
    order = sorted(range(n), key=lambda i: memories[i].created)
    for rank, i in enumerate(order):
        if memories[i].status == "superseded":
            later = order[rank + 1 :]
            if later:
                memories[i].superseded_by = rng.choice(later[:50])
            else:
                memories[i].status = "active"
    return memories


def _fill(rng: random.Random, template: str) -> str:
    tool, tool2 = rng.sample(words.tool, 2)
    text = template.format(
        component=rng.choice(words.component),
        tool=tool,
        tool2=tool2,
        symptom=rng.choice(words.symptom),
        cause=rng.choice(words.cause),
        practice=rng.choice(words.practice),
        tag=rng.choice(words.tag),
    )
    return text[0].upper() + text[1:]


def _title(rng: random.Random, kind: str) -> str:
    group = kind if kind in words.titles else ("learning" if kind in ("lesson", "gotcha") else "other")
    return _fill(rng, rng.choice(words.titles[group]))


def _sentences(rng: random.Random) -> list[str]:
    return [_fill(rng, t) for t in rng.sample(words.sentences, rng.randint(1, 6))]


def _status(rng: random.Random) -> str:
    roll = rng.random()
    return "archived" if roll < 0.04 else "superseded" if roll < 0.09 else "pending" if roll < 0.11 else "active"


def _events(rng: random.Random, created: datetime, now: datetime) -> list[tuple[datetime, str]]:
    usefulness = rng.random()
    span = max(1.0, (now - created).total_seconds())
    events = []
    for _ in range(rng.randint(1, 8)):
        at = (created + timedelta(seconds=rng.uniform(0, span))).replace(microsecond=0)
        events.append((at, "retrieved"))
        if rng.random() < 0.4:
            events.append((at + timedelta(seconds=1), "included"))
        if rng.random() < usefulness:
            events.append((at + timedelta(seconds=2), "referenced"))
    return sorted(events)


def _fresh(path: str | Path) -> Path:
    p = Path(path)
    if p.exists() and p.stat().st_size > 0:
        raise FileExistsError(f"{path}: exists; the synthetic builders only write new files")
    return p


def _z(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------- ctxtui


def build_native_db(path: str | Path, n: int, seed: int, now: datetime) -> Path:
    """ctxtui's own schema (WAL mode), with usage events."""
    p = _fresh(path)
    memories = generate(n, seed, now)
    ids = [f"m-{m.key}" for m in memories]
    add_memories(
        p,
        [
            dict(
                id=ids[i],
                kind=m.kind,
                title=m.title,
                body=m.body,
                summary=m.sentences[0] if len(m.sentences) > 2 else None,
                tags=m.tags,
                project=m.project,
                importance=m.importance,
                status=m.status,
                superseded_by=ids[m.superseded_by] if m.superseded_by is not None else None,
                created_at=_z(m.created),
                updated_at=_z(m.updated),
                last_accessed=_z(m.accessed) if m.accessed else None,
                events=[(_z(at), event, f"s-{m.key[:4]}") for at, event in m.events],
            )
            for i, m in enumerate(memories)
        ],
    )
    return p


# ---------------------------------------------------------------- Shabka

SHABKA_DDL = """
CREATE TABLE memories (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT NOT NULL, content TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT '', tags TEXT NOT NULL DEFAULT '[]', source TEXT NOT NULL DEFAULT '"manual"',
    scope TEXT NOT NULL DEFAULT '"global"', importance REAL NOT NULL DEFAULT 0.5, status TEXT NOT NULL DEFAULT 'active',
    privacy TEXT NOT NULL DEFAULT 'private', verification TEXT NOT NULL DEFAULT 'unverified', project_id TEXT,
    session_id TEXT, created_by TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    accessed_at TEXT NOT NULL
);
CREATE TABLE embeddings (
    memory_id TEXT PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE, vector BLOB NOT NULL,
    dimensions INTEGER NOT NULL
);
CREATE TABLE relations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    target_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    relation_type TEXT NOT NULL DEFAULT 'related', strength REAL NOT NULL DEFAULT 0.5,
    UNIQUE(source_id, target_id, relation_type)
);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, project_id TEXT, started_at TEXT NOT NULL, ended_at TEXT, summary TEXT,
    memory_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_memories_created_at ON memories(created_at DESC);
CREATE INDEX idx_memories_project_id ON memories(project_id);
CREATE INDEX idx_memories_status ON memories(status);
"""


def _rfc3339(when: datetime, rng: random.Random) -> str:
    """As chrono's to_rfc3339 writes it: nanoseconds and "+00:00"."""
    base = when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{base}.{rng.randrange(10**9):09d}+00:00"


def build_shabka_db(path: str | Path, n: int, seed: int, now: datetime) -> Path:
    """Shabka's schema (WAL mode, as Shabka opens it), with supersedes relations."""
    p = _fresh(path)
    memories = generate(n, seed, now)
    rng = random.Random(seed ^ 0x5AB)
    ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in memories]
    rows = []
    for i, m in enumerate(memories):
        rows.append(
            (
                ids[i],
                SHABKA_KIND.get(m.kind, m.kind),
                m.title,
                m.body,
                m.sentences[0] if len(m.sentences) > 2 else "",
                json.dumps(m.tags),
                m.importance,
                m.status,
                m.project,
                _rfc3339(m.created, rng),
                _rfc3339(m.updated, rng),
                _rfc3339(m.accessed or m.updated, rng),
            )
        )
    relations = [
        (ids[m.superseded_by], ids[i], "supersedes") for i, m in enumerate(memories) if m.superseded_by is not None
    ]
    conn = sqlite3.connect(p, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.executescript(f"BEGIN;{SHABKA_DDL}")
        conn.executemany(
            "INSERT INTO memories (id, kind, title, content, summary, tags, importance, status, project_id, "
            "created_at, updated_at, accessed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        conn.executemany("INSERT INTO relations (source_id, target_id, relation_type) VALUES (?, ?, ?)", relations)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return p


# ---------------------------------------------------------------- Cortex

CORTEX_DDL = """
CREATE TABLE memories (
    id TEXT PRIMARY KEY, type TEXT NOT NULL, content TEXT NOT NULL, summary TEXT NOT NULL,
    recorded_at TEXT, valid_from TEXT, valid_until TEXT, confidence REAL DEFAULT 1.0,
    importance TEXT DEFAULT 'normal', last_accessed TEXT, access_count INTEGER DEFAULT 0,
    created_at TEXT DEFAULT (datetime('now')), updated_at TEXT DEFAULT (datetime('now')), created_by TEXT,
    tags TEXT, archived INTEGER DEFAULT 0, archive_reason TEXT, superseded_by TEXT, supersedes TEXT,
    last_validated TEXT
);
CREATE INDEX idx_memories_type ON memories(type);
CREATE TABLE memory_usage_history (
    id TEXT PRIMARY KEY, memory_id TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('accepted', 'modified', 'rejected')),
    context TEXT, used_at TEXT DEFAULT (datetime('now')), session_id TEXT,
    FOREIGN KEY (memory_id) REFERENCES memories(id) ON DELETE CASCADE
);
CREATE INDEX idx_usage_memory ON memory_usage_history(memory_id);
"""


def _cortex_content(m: _Memory, kind: str) -> dict:
    body, rest = m.body, " ".join(m.sentences[1:])
    if kind == "tribal":
        return {"topic": m.title, "knowledge": body, "severity": "warning"}
    if kind == "pattern_rationale":
        return {"patternName": m.title, "rationale": body}
    if kind == "decision_context":
        return {"decisionSummary": m.title, "businessContext": body, "stillValid": m.status == "active"}
    if kind == "procedural":
        return {"name": m.title, "steps": m.sentences, "triggers": m.tags}
    if kind == "code_smell":
        return {"name": m.title, "description": body, "severity": "warning"}
    if kind == "core":
        return {"title": m.title, "description": body}
    if kind == "episodic":  # no title key: the reader falls back to the summary
        return {"interaction": {"userQuery": m.title}, "context": rest or body}
    return {"topic": m.title, "knowledge": body}


def build_cortex_db(path: str | Path, n: int, seed: int, now: datetime) -> Path:
    """Cortex's schema (rollback journal), with memory_usage_history."""
    p = _fresh(path)
    memories = generate(n, seed, now)
    rng = random.Random(seed ^ 0xC0)
    ids = [f"mem_{m.key}" for m in memories]
    rows, history = [], []
    for i, m in enumerate(memories):
        kind = CORTEX_TYPE[m.kind]
        importance = next(word for bound, word in CORTEX_WORDS if m.importance < bound)
        retrieved = [at for at, event in m.events if event == "retrieved"]
        referenced = {at - timedelta(seconds=2) for at, event in m.events if event == "referenced"}
        summary = m.title if kind != "episodic" else m.sentences[0][:120]
        rows.append(
            (
                ids[i],
                kind,
                json.dumps(_cortex_content(m, kind)),
                summary,
                _ms(m.created),
                round(rng.uniform(0.5, 1.0), 2),
                importance,
                _ms(m.accessed) if m.accessed else None,
                len(retrieved) + rng.randint(0, 3) * bool(retrieved),
                _ms(m.created),
                _ms(m.updated),
                json.dumps(m.tags),
                int(m.status == "archived"),
                ids[m.superseded_by] if m.superseded_by is not None else None,
            )
        )
        for j, at in enumerate(retrieved):
            outcome = ("accepted" if rng.random() < 0.8 else "modified") if at in referenced else "rejected"
            history.append((f"use_{m.key}_{j}", ids[i], outcome, _ms(at)))
    conn = sqlite3.connect(p, isolation_level=None)
    try:
        conn.executescript(f"BEGIN;{CORTEX_DDL}")
        conn.executemany(
            "INSERT INTO memories (id, type, content, summary, recorded_at, confidence, importance, last_accessed, "
            "access_count, created_at, updated_at, tags, archived, superseded_by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        conn.executemany(
            "INSERT INTO memory_usage_history (id, memory_id, outcome, used_at) VALUES (?, ?, ?, ?)", history
        )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return p


def _ms(when: datetime) -> str:
    """As JavaScript's toISOString writes it."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"
