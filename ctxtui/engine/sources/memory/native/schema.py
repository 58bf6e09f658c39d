"""ctxtui's own memory database: its schema, and the only code that writes one.

The schema is versioned with `PRAGMA user_version` (currently 1) and is the
DDL below, comments included. `init_db`, `add_memory`/`add_memories` and
`import_db` write, and only to the file they are given; everything else in
this package opens databases read-only. No function here reads the clock:
timestamps are the caller's.

Ids are stable so that writing twice changes nothing: a native memory's id
defaults to a hash of (kind, title, created_at); an imported one is
"<origin>-<origin id>", and importing again updates it in place.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeAlias

from ctxtui.engine.sources.memory.native.reader import NATIVE_FIELDS
from ctxtui.engine.sources.memory.shared.connect import check_header, open_readonly, quiet, with_retry
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError, MemoryWriteError
from ctxtui.engine.sources.memory.shared.records import EVENT_INCLUDED, EVENT_REFERENCED, EVENT_RETRIEVED, STATUSES
from ctxtui.engine.sources.memory.shared.values import parse_when

# One row for an INSERT: its values in the statement's column order.
Row: TypeAlias = tuple[Any, ...]

SCHEMA_VERSION = 1
EVENTS = (EVENT_RETRIEVED, EVENT_INCLUDED, EVENT_REFERENCED)

DDL = """
-- ctxtui memory database, schema version 1 (PRAGMA user_version = 1).
CREATE TABLE memories (
    id            TEXT PRIMARY KEY,              -- stable; imports use '<origin>-<origin_id>'
    origin        TEXT NOT NULL DEFAULT 'native',-- native | shabka | cortex
    origin_id     TEXT,                          -- the id in the origin store; NULL when native
    kind          TEXT NOT NULL,                 -- decision, learning, lesson, fix, error, gotcha, fact, ...
    title         TEXT NOT NULL,
    body          TEXT NOT NULL DEFAULT '',
    summary       TEXT,
    tags          TEXT NOT NULL DEFAULT '[]',    -- JSON array of strings
    project       TEXT,
    importance    REAL NOT NULL DEFAULT 0.5,     -- 0..1
    confidence    REAL,                          -- 0..1; NULL when unknown
    status        TEXT NOT NULL DEFAULT 'active',-- active | pending | archived | superseded
    superseded_by TEXT,                          -- id of the memory that replaced this one
    created_at    TEXT NOT NULL,                 -- ISO 8601, UTC ('...Z') when written by ctxtui
    updated_at    TEXT NOT NULL,
    last_accessed TEXT,
    extra         TEXT                           -- JSON object: what the origin had that is not mapped
);
CREATE UNIQUE INDEX memories_by_origin ON memories(origin, origin_id) WHERE origin_id IS NOT NULL;
CREATE INDEX memories_by_project ON memories(project);

-- One row per use of a memory; an event is identified by all four values.
CREATE TABLE usage_events (
    memory_id  TEXT NOT NULL,
    at         TEXT NOT NULL,                    -- ISO 8601
    event      TEXT NOT NULL,                    -- retrieved | included | referenced
    session_id TEXT
);
CREATE UNIQUE INDEX usage_events_once ON usage_events(memory_id, at, event, ifnull(session_id, ''));

-- Counters known without their events (e.g. Cortex's access_count).
-- Readers take the larger of these and the counted events.
CREATE TABLE usage_stats (
    memory_id        TEXT PRIMARY KEY,
    times_retrieved  INTEGER NOT NULL DEFAULT 0,
    times_referenced INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE relations (
    source_id TEXT NOT NULL,
    target_id TEXT NOT NULL,
    relation  TEXT NOT NULL,                     -- supersedes (source replaces target) | related | ...
    PRIMARY KEY (source_id, target_id, relation)
);
"""

_COLUMNS = (*NATIVE_FIELDS, "extra")  # what the reader reads, and the JSON of anything else
_UPSERT = (
    f"INSERT INTO memories ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))}) "
    f"ON CONFLICT(id) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS[1:])
)


def init_db(path: str | Path) -> bool:
    """Create an empty ctxtui memory database (WAL mode) at `path`; False when one is already there.

    Refuses (MemoryWriteError) any file that is not ctxtui's own database of a
    schema version this ctxtui knows: another tool's store, a corrupt or
    locked file, a newer schema — rather than clobber or half-understand it.
    """
    p = Path(path)
    if check_writable(p):
        return False
    # What this call creates, to remove if it fails (a full disk left a 0-byte memory.db behind).
    created = [name for name in (str(p), *(f"{p}{suffix}" for suffix in _SIDE_FILES)) if not os.path.lexists(name)]
    try:
        conn = sqlite3.connect(p, isolation_level=None)
    except sqlite3.Error as exc:
        _remove(created)
        raise MemoryWriteError(str(path), f"cannot be created: {exc}") from exc
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        # One transaction: a crash leaves an empty file, never half a schema.
        conn.executescript(f"BEGIN;{DDL}PRAGMA user_version = {SCHEMA_VERSION};COMMIT;")
    except sqlite3.Error as exc:
        _rollback(conn)
        conn.close()
        _remove(created)
        raise MemoryWriteError(str(path), f"cannot be created: {exc}: nothing was left behind") from exc
    conn.close()
    return True


_SIDE_FILES = ("-wal", "-shm", "-journal")


def _remove(names: list[str]) -> None:
    for name in names:
        try:
            os.unlink(name)
        except OSError:
            pass


def _rollback(conn: sqlite3.Connection) -> None:
    """Roll back if a transaction is still open: on a full disk or an I/O error SQLite may have rolled it back
    itself, and a second ROLLBACK's "no transaction is active" must not hide the real error."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def check_writable(path: Path) -> bool:
    """True when `path` is already ctxtui's own database of a known version; False when there is nothing yet.

    Raises MemoryWriteError, in words, for everything ctxtui must not write into.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise MemoryWriteError(str(path), "is a symbolic link to a file that does not exist: not written") from None
        return False
    except OSError:
        info = None
    if info is not None and info.st_size == 0 and os.path.isfile(path):
        if os.path.splitext(path)[1].lower() in (".db", ".sqlite", ".sqlite3"):
            return False  # an empty database file (SQLite's own start, or a full disk's leftover)
        raise MemoryWriteError(
            str(path), "is an empty file, not named as a database (.db, .sqlite, .sqlite3): not written"
        )

    def read_schema() -> tuple[int, set[str], set[str]]:
        conn = open_readonly(path, immutable=quiet(path, header))
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            columns = {row[1] for row in conn.execute("PRAGMA table_info(memories)")}
            if conn.execute("PRAGMA quick_check(1)").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("quick_check found damage")
        finally:
            conn.close()
        return version, tables, columns

    try:
        header = check_header(path)
        version, tables, columns = with_retry(read_schema, path, sleep=time.sleep)
    except MemorySourceError as exc:
        raise MemoryWriteError(str(path), f"{exc.message}: not written", exc.kind) from None
    if "memories" in tables and "origin" in columns:
        if version > SCHEMA_VERSION:
            raise MemoryWriteError(
                str(path),
                f"was made by a newer ctxtui (schema version {version}; this one knows {SCHEMA_VERSION}): not written",
            )
        if version < 1:
            raise MemoryWriteError(str(path), "has ctxtui's tables but no schema version: not written")
        return True
    if "memories" in tables:
        raise MemoryWriteError(
            str(path),
            "is another tool's memory store, not ctxtui's: not written "
            "(copy its memories with `ctxtui memory import FILE` instead)",
        )
    raise MemoryWriteError(str(path), "is an SQLite database but not a ctxtui memory database: not written")


def memory_id(kind: str, title: str, created_at: str) -> str:
    """The default id of a native memory: stable for the same kind, title and time."""
    digest = hashlib.sha1(f"{kind}\0{title}\0{created_at}".encode()).hexdigest()
    return f"m-{digest[:12]}"


def add_memory(
    path: str | Path,
    *,
    title: str,
    created_at: str,
    kind: str = "note",
    body: str = "",
    id: str | None = None,
    summary: str | None = None,
    tags: Iterable[str] = (),
    project: str | None = None,
    importance: float = 0.5,
    confidence: float | None = None,
    status: str = "active",
    superseded_by: str | None = None,
    updated_at: str | None = None,
    last_accessed: str | None = None,
    events: Iterable[tuple[Any, ...]] = (),
    extra: Mapping[str, Any] | None = None,
) -> str:
    """Add (or replace) one native memory; returns its id.

    `events` are (at, event) or (at, event, session_id) with event one of
    retrieved, included, referenced. Creates the database if needed.
    """
    memory = dict(
        title=title,
        created_at=created_at,
        kind=kind,
        body=body,
        id=id,
        summary=summary,
        tags=tuple(tags),
        project=project,
        importance=importance,
        confidence=confidence,
        status=status,
        superseded_by=superseded_by,
        updated_at=updated_at,
        last_accessed=last_accessed,
        events=tuple(events),
        extra=extra,
    )
    return add_memories(path, [memory])[0]


def add_memories(path: str | Path, memories: Iterable[Mapping[str, Any]]) -> list[str]:
    """`add_memory` for many, in one transaction (keys as its keyword arguments)."""
    rows: list[Row] = []
    events: list[Row] = []
    relations: list[Row] = []
    for memory in memories:
        row = _validated(memory)
        rows.append(row)
        for event in memory.get("events") or ():
            at, name, session = (tuple(event) + (None,))[:3]
            if name not in EVENTS or parse_when(at) is None:
                raise ValueError(f"memory {row[0]}: bad usage event {event!r}")
            events.append((row[0], at, name, session))
        if row[12]:
            relations.append((row[12], row[0], "supersedes"))
    init_db(path)
    write_rows(path, rows, events, [], relations)
    return [row[0] for row in rows]


def _validated(m: Mapping[str, Any]) -> Row:
    title, kind, created_at = m.get("title"), m.get("kind") or "note", m.get("created_at")
    if not isinstance(title, str) or not title.strip():
        raise ValueError("a memory needs a non-empty title")
    if not isinstance(kind, str) or not kind.strip():
        raise ValueError("kind must be a non-empty string")
    if not isinstance(created_at, str) or parse_when(created_at) is None:
        raise ValueError(f"created_at must be an ISO 8601 timestamp, got {created_at!r}")
    updated_at = m.get("updated_at") or created_at
    if parse_when(updated_at) is None:
        raise ValueError(f"updated_at must be an ISO 8601 timestamp, got {updated_at!r}")
    importance = m.get("importance", 0.5)
    if not isinstance(importance, (int, float)) or not math.isfinite(importance) or not 0 <= importance <= 1:
        raise ValueError(f"importance must be within 0..1, got {importance!r}")
    confidence = m.get("confidence")
    if confidence is not None and (not isinstance(confidence, (int, float)) or not 0 <= confidence <= 1):
        raise ValueError(f"confidence must be within 0..1, got {confidence!r}")
    status = m.get("status") or "active"
    if status not in STATUSES:
        raise ValueError(f"status must be one of {', '.join(STATUSES)}, got {status!r}")
    tags = tuple(m.get("tags") or ())
    if not all(isinstance(t, str) for t in tags):
        raise ValueError("tags must be strings")
    mid = m.get("id") or memory_id(kind, title, created_at)
    extra = m.get("extra")
    return (
        mid,
        "native",
        None,
        kind,
        title,
        m.get("body") or "",
        m.get("summary"),
        json.dumps(list(tags)),
        m.get("project"),
        float(importance),
        confidence,
        status,
        m.get("superseded_by"),
        created_at,
        updated_at,
        m.get("last_accessed"),
        json.dumps(dict(extra)) if extra else None,
    )


def write_rows(path: str | Path, rows: list[Row], events: list[Row], stats: list[Row], relations: list[Row]) -> None:
    """Everything in one immediate transaction: all of it lands, or none."""
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=5.0)
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany(_UPSERT, rows)
                conn.executemany(
                    "INSERT OR IGNORE INTO usage_events (memory_id, at, event, session_id) VALUES (?, ?, ?, ?)", events
                )
                conn.executemany(
                    "INSERT INTO usage_stats (memory_id, times_retrieved, times_referenced) VALUES (?, ?, ?) "
                    "ON CONFLICT(memory_id) DO UPDATE SET times_retrieved = excluded.times_retrieved, "
                    "times_referenced = excluded.times_referenced",
                    stats,
                )
                conn.executemany(
                    "INSERT OR IGNORE INTO relations (source_id, target_id, relation) VALUES (?, ?, ?)", relations
                )
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise MemoryWriteError(str(path), f"cannot be written: {exc} (nothing was written: all or nothing)") from exc


__all__ = [
    "DDL",
    "SCHEMA_VERSION",
    "MemoryWriteError",
    "add_memories",
    "add_memory",
    "init_db",
    "memory_id",
]
