"""Cortex v2 (the Rust rewrite) databases for tests, built in code.

`V2_DDL` is the v2 schema's `schema_version` and `memories` (migration v001
plus v015's namespace columns) with their indexes, a plain BLOB embeddings
table (v002) and the FTS5 index over memories (v003) when SQLite has FTS5.
Rows are written the way `memory_crud.rs` writes them: adjacently tagged
content JSON, RFC 3339 times, a JSON array of tags.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

V2_DDL = """
CREATE TABLE schema_version (
    version     INTEGER PRIMARY KEY,
    applied_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE memories (
    id                TEXT PRIMARY KEY,
    memory_type       TEXT NOT NULL,
    content           TEXT NOT NULL,
    summary           TEXT NOT NULL DEFAULT '',
    transaction_time  TEXT NOT NULL,
    valid_time        TEXT NOT NULL,
    valid_until       TEXT,
    confidence        REAL NOT NULL DEFAULT 1.0,
    importance        TEXT NOT NULL DEFAULT 'normal',
    last_accessed     TEXT NOT NULL,
    access_count      INTEGER NOT NULL DEFAULT 0,
    tags              TEXT NOT NULL DEFAULT '[]',
    archived          INTEGER NOT NULL DEFAULT 0,
    superseded_by     TEXT,
    supersedes        TEXT,
    content_hash      TEXT NOT NULL,
    created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    namespace_id      TEXT DEFAULT 'agent://default/',
    source_agent      TEXT DEFAULT 'default'
);
CREATE INDEX idx_memories_type ON memories(memory_type);
CREATE INDEX idx_memories_importance ON memories(importance);
CREATE INDEX idx_memories_confidence ON memories(confidence);
CREATE INDEX idx_memories_archived ON memories(archived);
CREATE INDEX idx_memories_content_hash ON memories(content_hash);
CREATE INDEX idx_memories_last_accessed ON memories(last_accessed);
CREATE INDEX idx_memories_transaction_time ON memories(transaction_time);
CREATE TABLE memory_embeddings (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    content_hash  TEXT NOT NULL UNIQUE,
    embedding     BLOB NOT NULL,
    dimensions    INTEGER NOT NULL,
    model_name    TEXT NOT NULL DEFAULT 'unknown',
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
"""
FTS = "CREATE VIRTUAL TABLE memory_fts USING fts5(content, summary, tags, content='memories', content_rowid='rowid');"


def v2_memory(
    mid: str,
    mtype: str,
    data: dict[str, Any],
    summary: str = "",
    *,
    recorded: str = "2025-05-01T10:00:00+00:00",
    valid_until: str | None = None,
    confidence: float = 0.9,
    importance: str = "normal",
    accessed: str = "2025-05-30T09:00:00+00:00",
    access_count: int = 0,
    tags: tuple[str, ...] = (),
    archived: int = 0,
    superseded_by: str | None = None,
) -> dict[str, Any]:
    content = json.dumps({"type": mtype, "data": data}, separators=(",", ":"), ensure_ascii=False)
    return {
        "id": mid,
        "memory_type": mtype,
        "content": content,
        "summary": summary,
        "transaction_time": recorded,
        "valid_time": recorded,
        "valid_until": valid_until,
        "confidence": confidence,
        "importance": importance,
        "last_accessed": accessed,
        "access_count": access_count,
        "tags": json.dumps(list(tags)),
        "archived": archived,
        "superseded_by": superseded_by,
        "supersedes": None,
        "content_hash": hashlib.sha256(content.encode()).hexdigest(),
        "created_at": "2025-06-01T00:00:00.000Z",
        "updated_at": "2025-06-01T00:00:00.000Z",
    }


def build_v2_db(path: str | Path, rows: list[dict[str, Any]], *, wal: bool = True) -> Path:
    """A v2 database (WAL, as the Rust writer leaves it, when `wal`), migrations 1-15 recorded."""
    p = Path(path)
    if p.exists():
        raise FileExistsError(p)
    conn = sqlite3.connect(p, isolation_level=None)
    try:
        if wal:
            conn.execute("PRAGMA journal_mode = WAL")
        conn.executescript("BEGIN;" + V2_DDL + "COMMIT;")
        try:
            conn.execute(FTS)
        except sqlite3.OperationalError:
            pass  # no FTS5 in this SQLite: the v2 reader never needs it
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO schema_version (version) VALUES (?)", [(v,) for v in range(1, 16)])
        for row in rows:
            conn.execute(
                f"INSERT INTO memories ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values())
            )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return p
