"""Reading memories from any supported SQLite store (or nous's PostgreSQL), read-only, by schema.

The schema is recognised from `sqlite_master` and `PRAGMA table_info`, never
from the file name: ctxtui's own (`user_version` >= 1 and `memories.origin`),
Shabka (`memories` with kind, title, content, importance) or Cortex
(`memories` with type and a JSON `content`, plus archived or importance).
Only plain tables are queried, so a vector virtual table (`vec0`, `vss0`)
whose extension is not loaded costs nothing. Everything is read in one read
transaction, so a writer committing meanwhile cannot tear the snapshot.

Mappings, per store (see `records.MemoryRecord` for the fields):

- ctxtui: columns map one to one; `usage_events` gives events and counts
  (the larger of the event count and `usage_stats` wins).
- Shabka: content → body, project_id → project, accessed_at → last_accessed;
  status passes through (active/pending/archived/superseded); a `relations`
  row (source, target, "supersedes") sets target.superseded_by = source.
  Shabka keeps no usage counts, so its usage boost is neutral.
- Cortex: type → kind; the title is the first of content.title, topic, name,
  patternName, decisionSummary (else the summary, else the body's first
  line); the body is the rest of the content JSON as text; importance words
  low/normal/high/critical → 0.2/0.5/0.8/1.0; archived=1 → archived,
  superseded_by set → superseded (wins); access_count → times_retrieved;
  each `memory_usage_history` row is a "retrieved" event, and also a
  "referenced" one when its outcome is accepted or modified.
- Cortex v2 (the Rust rewrite): see `readers_cortex_v2`.

Any memory with a superseded_by and an active/pending status is superseded.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import Problem
from ctxtui.engine.sources.memory.cortex.v1_reader import read_cortex
from ctxtui.engine.sources.memory.cortex.v2_reader import read_cortex_v2
from ctxtui.engine.sources.memory.native.reader import read_native
from ctxtui.engine.sources.memory.shabka.reader import read_shabka
from ctxtui.engine.sources.memory.shared.connect import DEFAULT_DELAYS, signature
from ctxtui.engine.sources.memory.shared.detect import (
    SCHEMA_CORTEX,
    SCHEMA_CORTEX_V2,
    SCHEMA_CTXTUI,
    SCHEMA_SHABKA,
    StoreShape,
    detect_schema,
)
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
from ctxtui.engine.sources.memory.shared.load import MemoryLoad, latest_date
from ctxtui.engine.sources.memory.shared.rows import Report
from ctxtui.engine.sources.memory.shared.snapshot import read_snapshot
from ctxtui.engine.sources.memory.shared.urls import is_db_url

__all__ = [
    "SCHEMA_CORTEX",
    "SCHEMA_CORTEX_V2",
    "SCHEMA_CTXTUI",
    "SCHEMA_SHABKA",
    "MemoryLoad",
    "MemorySourceError",
    "StoreShape",
    "detect_schema",
    "load_memories",
    "read_load",
]

READERS = {
    SCHEMA_CTXTUI: read_native,
    SCHEMA_SHABKA: read_shabka,
    SCHEMA_CORTEX: read_cortex,
    SCHEMA_CORTEX_V2: read_cortex_v2,
}


def load_memories(
    path: str | Path,
    project: str | None = None,
    *,
    now: datetime | None = None,
    sleep: Callable[[float], None] = time.sleep,
    delays: tuple[float, ...] = DEFAULT_DELAYS,
    agent: str | None = None,
) -> MemoryLoad:
    """Read every memory of the database at `path`, never writing to it.

    `path` may also be a `postgresql://` / `postgres://` URL: a nous store,
    read for one `agent` (default: nous's own default agent, or the only
    one); see `nous_store`.

    `project` keeps only that project's memories where the store has a
    project column (else a Problem says it was ignored). `now`, when given,
    also flags created dates more than a day in the future. Raises
    MemorySourceError when the file as a whole cannot be read; a locked
    database is retried along `delays` (seconds, via `sleep`) first.
    """
    if is_db_url(path):  # nous's PostgreSQL store: psycopg is imported only on this branch
        from ctxtui.engine.sources.memory.nous.source import load_nous_memories

        return load_nous_memories(str(path), agent, now=now, project=project)
    return read_snapshot(path, lambda conn: read_load(conn, path, project, now), sleep=sleep, delays=delays)


def read_load(conn: sqlite3.Connection, path: str | Path, project: str | None, now: datetime | None) -> MemoryLoad:
    """One consistent read through an open read-only connection.

    Raises sqlite3.Error (for the caller's retry and classification) or
    MemorySourceError (unknown schema).
    """
    try:
        return _read_in_transaction(conn, path, project, now, [])
    except sqlite3.OperationalError as exc:
        if "decode" not in str(exc).lower():
            raise
    # Some TEXT is not UTF-8: read again, replacing what cannot be decoded
    # (slower, so only for this read).
    conn.text_factory = lambda raw: raw.decode("utf-8", "replace")
    note = Problem(str(path), "some text is not valid UTF-8: undecodable bytes were replaced")
    try:
        return _read_in_transaction(conn, path, project, now, [note])
    finally:
        conn.text_factory = str


def _read_in_transaction(
    conn: sqlite3.Connection, path: str | Path, project: str | None, now: datetime | None, problems: list[Problem]
) -> MemoryLoad:
    conn.execute("BEGIN")
    try:
        shape = detect_schema(conn, path)
        # Read after the first query has fixed our snapshot: any commit not in
        # it changes the value a later changed() sees.
        data_version = conn.execute("PRAGMA data_version").fetchone()[0]
        report = Report(str(path), problems, latest_date(now))
        with gc_paused():
            records = READERS[shape.schema](conn, shape, project, report)
    except BaseException:
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the original failure is the one worth reporting
        raise
    conn.execute("COMMIT")
    inputs = report.inputs_hash
    return MemoryLoad(
        str(path),
        shape.schema,
        records,
        report.problems,
        data_version,
        signature(path),
        shape.user_version,
        None if inputs is None else hash((inputs, shape.schema, project, report.latest_date)),
    )
