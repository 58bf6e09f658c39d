"""Cortex v1 (drift, TypeScript) databases for the cortex packer's tests, built in code.

`V1_DDL` is the part of Cortex's v1 schema that `drift memory why` touches:
the `memories` table with its type CHECK and indexes, and
`schema_migrations` at version 8 (so a real Cortex opening a copy runs no
migration and plans its queries exactly as on a database it made itself).
Rows are inserted in the given order, so rowid order is insertion order.

`memory()` writes a memory the way Cortex does (the whole object as the JSON
`content`, columns copied from it); `random_store()` makes varied stores —
JSON-only types, missing or odd fields, dates in every shape V8 parses,
tied and NULL `last_accessed`, archived rows, and (when `chaos`) the rows
that make the CLI print an error. The same seed always gives the same store.
"""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

NOW = datetime(2025, 6, 1, tzinfo=UTC)
NOW_ISO = "2025-06-01T00:00:00.000Z"

V1_DDL = """
CREATE TABLE schema_migrations (
  version INTEGER PRIMARY KEY,
  applied_at TEXT DEFAULT (datetime('now')),
  description TEXT
);
CREATE TABLE memories (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL CHECK (type IN ('core', 'tribal', 'procedural', 'semantic', 'episodic',
    'pattern_rationale', 'constraint_override', 'decision_context', 'code_smell')),
  content TEXT NOT NULL,
  summary TEXT NOT NULL,
  recorded_at TEXT NOT NULL DEFAULT (datetime('now')),
  valid_from TEXT NOT NULL DEFAULT (datetime('now')),
  valid_until TEXT,
  confidence REAL NOT NULL DEFAULT 1.0 CHECK (confidence >= 0 AND confidence <= 1),
  importance TEXT DEFAULT 'normal' CHECK (importance IN ('low', 'normal', 'high', 'critical')),
  last_accessed TEXT,
  access_count INTEGER DEFAULT 0,
  created_at TEXT DEFAULT (datetime('now')),
  updated_at TEXT DEFAULT (datetime('now')),
  created_by TEXT,
  tags TEXT,
  archived INTEGER DEFAULT 0,
  archive_reason TEXT,
  superseded_by TEXT,
  supersedes TEXT,
  last_validated TEXT
);
CREATE INDEX idx_memories_type ON memories(type);
CREATE INDEX idx_memories_confidence ON memories(confidence);
CREATE INDEX idx_memories_valid ON memories(valid_from, valid_until);
CREATE INDEX idx_memories_archived ON memories(archived);
CREATE INDEX idx_memories_importance ON memories(importance);
CREATE INDEX idx_memories_created_at ON memories(created_at);
CREATE INDEX idx_memories_last_accessed ON memories(last_accessed);
CREATE TABLE memory_patterns (memory_id TEXT NOT NULL, pattern_id TEXT NOT NULL, PRIMARY KEY (memory_id, pattern_id));
CREATE TABLE memory_constraints (memory_id TEXT NOT NULL, constraint_id TEXT NOT NULL,
  PRIMARY KEY (memory_id, constraint_id));
CREATE TABLE memory_files (memory_id TEXT NOT NULL, file_path TEXT NOT NULL, PRIMARY KEY (memory_id, file_path));
CREATE TABLE memory_functions (memory_id TEXT NOT NULL, function_id TEXT NOT NULL,
  PRIMARY KEY (memory_id, function_id));
CREATE TABLE memory_relationships (source_id TEXT NOT NULL, target_id TEXT NOT NULL, relationship TEXT NOT NULL,
  PRIMARY KEY (source_id, target_id, relationship));
CREATE INDEX idx_memory_patterns_pattern ON memory_patterns(pattern_id);
CREATE INDEX idx_memory_constraints_constraint ON memory_constraints(constraint_id);
CREATE INDEX idx_memory_files_file ON memory_files(file_path);
CREATE INDEX idx_memory_functions_function ON memory_functions(function_id);
CREATE INDEX idx_memory_relationships_target ON memory_relationships(target_id);
"""
COLUMN_TYPES = (
    "core",
    "tribal",
    "procedural",
    "semantic",
    "episodic",
    "pattern_rationale",
    "constraint_override",
    "decision_context",
    "code_smell",
)
OMIT: Any = object()


def iso(days_ago: float, now: datetime = NOW) -> str:
    """A time `days_ago` before `now`, as JavaScript's toISOString writes it."""
    t = now - timedelta(days=days_ago)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def _escape_surrogates(text: str) -> str:
    """Lone surrogates cannot be stored as UTF-8: write them as JSON escapes."""
    return "".join(f"\\u{ord(c):04x}" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def memory(
    mid: str,
    mtype: Any,
    summary: Any = OMIT,
    *,
    confidence: Any = 0.8,
    importance: Any = "normal",
    created: Any = 10.0,
    access: Any = 0,
    last_accessed: str | None = None,
    archived: Any = 0,
    raw_content: str | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """One row: the JSON blob Cortex reads, and the columns it writes beside it (which `why` ignores)."""
    created_iso = iso(created) if isinstance(created, float) and abs(created) < 100_000 else created
    content: dict[str, Any] = {"id": mid, "type": mtype}
    if summary is not OMIT:
        content["summary"] = summary
    stamp = iso(10) if created_iso is OMIT else created_iso
    content.update(
        confidence=confidence,
        importance=importance,
        createdAt=created_iso,
        updatedAt=stamp,
        accessCount=access,
        transactionTime={"recordedAt": stamp},
        validTime={"validFrom": stamp},
        tags=[],
    )
    content.update(fields)
    content = {k: value for k, value in content.items() if value is not OMIT}
    if mtype is OMIT:
        content.pop("type", None)
    text = (
        raw_content
        if raw_content is not None
        else _escape_surrogates(json.dumps(content, ensure_ascii=False, separators=(",", ":")))
    )
    column_created = created_iso if isinstance(created_iso, str) else iso(10)
    plain = isinstance(confidence, float) and 0 <= confidence <= 1
    return {
        "id": mid,
        "type": mtype if mtype in COLUMN_TYPES else "tribal",
        "content": text,
        "summary": _escape_surrogates(summary) if isinstance(summary, str) and summary else "summary",
        "recorded_at": column_created,
        "valid_from": column_created,
        "confidence": confidence if plain else 0.5,
        "importance": importance if importance in ("low", "normal", "high", "critical") else "normal",
        "last_accessed": last_accessed,
        "access_count": access if isinstance(access, int) else 0,
        "created_at": column_created,
        "updated_at": column_created,
        "archived": archived,
    }


def build_v1_db(path: str | Path, rows: list[dict[str, Any]], *, analyze: bool = False) -> Path:
    """A Cortex v1 database file holding `rows` (column dicts), one file, rollback journal."""
    p = Path(path)
    if p.exists():
        raise FileExistsError(p)
    conn = sqlite3.connect(p, isolation_level=None)
    try:
        conn.executescript("BEGIN;" + V1_DDL + "COMMIT;")
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO schema_migrations (version, applied_at, description) VALUES (?, ?, ?)",
            [(v, "2025-01-01 00:00:00", f"migration {v}") for v in range(1, 9)],
        )
        for row in rows:
            columns = ", ".join(row)
            conn.execute(f"INSERT INTO memories ({columns}) VALUES ({', '.join('?' * len(row))})", list(row.values()))
        conn.execute("COMMIT")
        if analyze:
            conn.execute("ANALYZE")
    finally:
        conn.close()
    return p


# ---------------------------------------------------------------- random stores

TYPES = (
    "tribal",
    "procedural",
    "semantic",
    "episodic",
    "core",
    "pattern_rationale",
    "constraint_override",
    "decision_context",
    "code_smell",
    "decision",
    "insight",
    "reference",
    "preference",
    "agent_spawn",
    "entity",
    "goal",
    "feedback",
    "workflow",
    "conversation",
    "incident",
    "meeting",
    "skill",
    "environment",
)
WORDS = (
    "auth",
    "cache",
    "db",
    "redis",
    "Auth",
    "login",
    "pool",
    "retry",
    "é",
    "ünï",
    "🔥",
    "x",
    "CAFÉ",
    "straße",
    "token",
    "deploy",
    "Σίσυφος",
    "naïve",
    "𝔘𝔫𝔦",
)
SEPARATORS = (" ", " ", " ", " ", "  ", "\t", "\u00a0", "\u3000", "\u2028", "\ufeff", "\u001f", "\n")
INTENTS = (
    "create",
    "investigate",
    "decide",
    "recall",
    "learn",
    "add_feature",
    "fix_bug",
    "refactor",
    "security_audit",
    "understand_code",
    "add_test",
    "spawn_agent",
    "execute_workflow",
    "track_progress",
    "diagnose_issue",
)


def words(rng: random.Random, n: int) -> str:
    out = []
    for i in range(n):
        if i:
            out.append(rng.choice(SEPARATORS) if rng.random() < 0.3 else " ")
        out.append(rng.choice(WORDS))
    return "".join(out)


def _date(rng: random.Random) -> Any:
    days = rng.random() * rng.choice([1, 30, 400, 4000])
    t = NOW - timedelta(days=days)
    shape = rng.random()
    if shape < 0.75:
        return iso(days)
    if shape < 0.8:
        return t.strftime("%Y-%m-%d")  # date only: UTC
    if shape < 0.85:
        return t.strftime("%Y-%m-%dT%H:%M:%S")  # no zone: local time
    if shape < 0.88:
        return t.strftime("%Y-%m-%d %H:%M:%S")  # SQLite's datetime(): V8's legacy parser, local time
    if shape < 0.9:
        return t.strftime("%b %d, %Y")
    if shape < 0.92:
        return t.strftime("%Y-%m-%dT%H:%M:%S+02:00")
    if shape < 0.94:
        return float(int(t.timestamp() * 1000))  # epoch milliseconds
    if shape < 0.96:
        return (NOW + timedelta(days=rng.random() * 30)).strftime("%Y-%m-%dT%H:%M:%S.000Z")  # future: recency > 1
    if shape < 0.98:
        return OMIT
    return "not a date"


def _fields(rng: random.Random, t: str, chaos: bool) -> dict[str, Any]:
    w = lambda n: words(rng, n)  # noqa: E731
    if t in ("tribal", "semantic"):
        extra: dict[str, Any] = {"topic": w(rng.randint(1, 3)), "knowledge": w(rng.randint(0, 60))}
        if t == "tribal" and rng.random() < 0.5:
            extra["warnings"] = [w(2) for _ in range(rng.randint(0, 3))]
        return extra
    if t == "procedural":
        return {"name": w(2), "steps": [{"action": w(3)} for _ in range(rng.randint(0, 3))]}
    if t == "core":
        if chaos and rng.random() < 0.3:
            return {}
        return {"project": {"name": w(1), "techStack": ["ts", "py"][: rng.randint(0, 2)]}}
    if t == "pattern_rationale":
        return {"patternName": w(2), "rationale": w(rng.randint(1, 40))}
    if t == "constraint_override":
        return {"constraintName": w(1), "reason": w(5)}
    if t == "decision_context":
        return {"decisionSummary": w(8), "businessContext": w(rng.randint(0, 30))}
    if t == "code_smell":
        return {"name": w(2), "reason": w(4), "suggestion": w(4)}
    if t == "episodic":
        return {"context": {"focus": w(2)}, "interaction": {"userQuery": w(30), "outcome": "accepted"}}
    if t == "incident":
        return {
            "title": w(2),
            "severity": "high",
            "impact": w(3),
            "rootCause": w(rng.randint(0, 4)),
            "lessonsLearned": [w(3)],
        }
    if t == "workflow":
        return {"name": w(2), "steps": [{"name": "a"}], "triggerPhrases": [w(2)]}
    if t == "entity":
        return {"entityType": "team", "name": w(1), "status": "active", "keyFacts": [w(3)]}
    if t == "goal":
        return {
            "title": w(2),
            "status": "active",
            "progress": float(rng.randint(0, 100)),
            "description": w(4),
            "blockers": [w(1)] * rng.randint(0, 2),
        }
    if t == "feedback":
        return {"feedbackType": "correction", "correction": w(10)}
    if t == "agent_spawn":
        return {"name": w(1), "description": w(4), "tools": [w(1)], "triggerPatterns": [w(1)]}
    if t == "conversation":
        return {"title": w(2), "participants": ["a", "b"], "conversationSummary": w(6)}
    if t == "meeting":
        return {"title": w(2), "meetingType": "standup", "meetingSummary": w(6)}
    if t == "skill":
        return {"name": w(1), "domain": w(1), "proficiencyLevel": "expert"}
    if t == "environment":
        return {"name": w(1), "environmentType": "prod", "warnings": [w(2)]}
    return {}


def random_memory(rng: random.Random, k: int, chaos: bool) -> dict[str, Any]:
    t: Any = rng.choice(TYPES)
    if chaos and rng.random() < 0.03:
        t = rng.choice([OMIT, 123.0, "123", "toString", "straße"])
    summary: Any = OMIT if rng.random() < 0.15 else words(rng, rng.randint(1, 12)) + (" " if rng.random() < 0.2 else "")
    if chaos and rng.random() < 0.04:
        summary = rng.choice([42.0, "", None, ["a", "b"]])
    confidence: Any = round(rng.random(), rng.choice([1, 2, 17]))
    if rng.random() < 0.08:
        confidence = rng.choice(["0.9", None, True, "junk", OMIT, 1.0, 0.0])
    access: Any = rng.choice([0, 1, 2, 5, 9, 50, 99, 999, 12345])
    if rng.random() < 0.06:
        access = rng.choice(["3", None, OMIT, 0.5])
    if rng.random() < 0.3:
        last = None
    else:
        last = iso(rng.choice([0, 1, 2, 3]) + (0 if rng.random() < 0.4 else rng.random() * 5))
    fields = _fields(rng, t if isinstance(t, str) else "", chaos)
    raw = None
    if chaos and rng.random() < 0.02:
        raw = rng.choice(['{"id":"x","type":"tribal",}', "null", '"just a string"', "[1,2]", "not json", "7"])
    mid = f"z{k:03d}-{words(rng, 1)}"  # (the order of the draws is part of every recorded case)
    importance = rng.choice(["low", "normal", "high", "critical", "weird", 3.0])
    created = _date(rng)
    archived = 1 if rng.random() < 0.05 else (None if rng.random() < 0.01 else 0)
    return memory(
        mid,
        t,
        summary,
        confidence=confidence,
        importance=importance,
        created=created,
        access=access,
        last_accessed=last,
        archived=archived,
        raw_content=raw,
        **fields,
    )


def random_store(seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(rows, settings) for one random case; settings: focus, intent, budget, format, embedding, tz."""
    rng = random.Random(seed)
    chaos = rng.random() < 0.25
    rows = [random_memory(rng, k, chaos) for k in range(rng.randint(0, 35))]
    focus = words(rng, rng.randint(0, 3))
    intent = rng.choice((*INTENTS, "bogus", ""))
    budget = rng.choice([None, 0, 50, 120, 300, 500, 1000, 20, -5, 150, 2000])
    fmt = rng.choice(["json", "text"])
    embedding = "fails" if rng.random() < 0.15 else "works"
    if embedding == "fails" and rows and rng.random() < 0.7:
        focus = rng.choice(WORDS)
    tz = "Europe/Paris" if rng.random() < 0.15 else "UTC"
    return rows, {"focus": focus, "intent": intent, "budget": budget, "format": fmt, "embedding": embedding, "tz": tz}
