"""Everything `drift memory why` reads from a Cortex v1 database, read-only.

The real CLI opens `.drift/memory/cortex.db` read-write: it switches the file
to WAL and runs Cortex's migrations before it reads (cortex.md §3). ctxtui
never writes, never leaves a `-wal` or `-shm` behind: it reads through
`snapshot.read_snapshot` (immutably, read-only or from a private copy, by
what is on disk), and instead
of migrating it works out what the migrations would have done to the read:
nothing on a Cortex database, "no such column: …" on a foreign `memories`
table (what the CLI then prints), an empty store for a zero-byte file.

The vector-less path reads exactly two queries (storage.ts:257-333), both
filtered by `archived = 0` only:

- candidates: `ORDER BY last_accessed DESC LIMIT 20` — SQLite's plan on a
  Cortex database (no `sqlite_stat1`: Cortex never runs ANALYZE) sorts in a
  stable temp b-tree, so ties and the never-read NULLs come in rowid order;
  ctxtui spells that out as `ORDER BY last_accessed DESC, rowid`;
- the substring fallback's pool: `ORDER BY created_at DESC LIMIT 100`.

Plus a light listing of every row (no JSON parsed), so the packer can say
why each memory that was not gathered stayed out.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import Problem
from ctxtui.engine.sources.memory.shared.connect import (
    DEFAULT_DELAYS,
    SQLITE_MAGIC,
    FileSignature,
    signature,
)
from ctxtui.engine.sources.memory.shared.errors import MISSING, UNREADABLE, MemorySourceError
from ctxtui.engine.sources.memory.shared.private_copy import describe
from ctxtui.engine.sources.memory.shared.snapshot import read_snapshot

CANDIDATE_LIMIT = 20  # similaritySearch(embedding, 20) (engine.ts:194)
FALLBACK_POOL = 100  # storage.search({limit: 100}) (engine.ts:203)

# Cortex's v1 migrations, the part that can fail on a foreign database: each
# CREATE INDEX IF NOT EXISTS (schema.ts:144-155, migrations.ts:54-274) runs
# unless an index of that name exists, and fails on a missing column.
# (migration, index, table, columns)
V1_INDEXES = (
    (1, "idx_memories_type", "memories", ("type",)),
    (1, "idx_memories_confidence", "memories", ("confidence",)),
    (1, "idx_memories_valid", "memories", ("valid_from", "valid_until")),
    (1, "idx_memories_archived", "memories", ("archived",)),
    (1, "idx_memories_importance", "memories", ("importance",)),
    (1, "idx_memories_created_at", "memories", ("created_at",)),
    (1, "idx_memories_last_accessed", "memories", ("last_accessed",)),
    (1, "idx_memory_patterns_pattern", "memory_patterns", ("pattern_id",)),
    (1, "idx_memory_constraints_constraint", "memory_constraints", ("constraint_id",)),
    (1, "idx_memory_files_file", "memory_files", ("file_path",)),
    (1, "idx_memory_functions_function", "memory_functions", ("function_id",)),
    (1, "idx_memory_relationships_target", "memory_relationships", ("target_id",)),
    (2, "idx_causal_source", "causal_edges", ("source_id",)),
    (2, "idx_causal_target", "causal_edges", ("target_id",)),
    (2, "idx_causal_relation", "causal_edges", ("relation",)),
    (2, "idx_causal_strength", "causal_edges", ("strength",)),
    (2, "idx_causal_inferred", "causal_edges", ("inferred",)),
    (2, "idx_causal_validated", "causal_edges", ("validated_at",)),
    (3, "idx_session_started", "session_contexts", ("started_at",)),
    (3, "idx_session_ended", "session_contexts", ("ended_at",)),
    (3, "idx_session_activity", "session_contexts", ("last_activity",)),
    (4, "idx_validation_memory", "memory_validation_history", ("memory_id",)),
    (4, "idx_validation_action", "memory_validation_history", ("action",)),
    (4, "idx_validation_time", "memory_validation_history", ("validated_at",)),
    (5, "idx_usage_memory", "memory_usage_history", ("memory_id",)),
    (5, "idx_usage_outcome", "memory_usage_history", ("outcome",)),
    (5, "idx_usage_time", "memory_usage_history", ("used_at",)),
    (6, "idx_contradiction_a", "memory_contradictions", ("memory_a_id",)),
    (6, "idx_contradiction_b", "memory_contradictions", ("memory_b_id",)),
    (6, "idx_contradiction_status", "memory_contradictions", ("resolution_status",)),
    (6, "idx_contradiction_type", "memory_contradictions", ("contradiction_type",)),
    (7, "idx_trigger_type", "consolidation_triggers", ("trigger_type",)),
    (7, "idx_trigger_time", "consolidation_triggers", ("triggered_at",)),
    (7, "idx_trigger_urgency", "consolidation_triggers", ("urgency",)),
    (7, "idx_token_snapshot_time", "token_usage_snapshots", ("recorded_at",)),
    (8, "idx_cluster_name", "memory_clusters", ("name",)),
    (8, "idx_cluster_priority", "memory_clusters", ("consolidation_priority",)),
    (8, "idx_cluster_coherence", "memory_clusters", ("coherence_score",)),
    (8, "idx_cluster_member_cluster", "memory_cluster_members", ("cluster_id",)),
    (8, "idx_cluster_member_memory", "memory_cluster_members", ("memory_id",)),
)

INIT_FAILED = "Error: Failed to initialize Cortex: "  # getCortex's wrapper (cli memory.ts:99-101), as String(error)


class CortexRow(NamedTuple):
    """One row as `search()` reads it: `SELECT id, content` (plus the rowid, for ctxtui)."""

    rowid: int | None
    id: Any  # as SQLite gives it: str, or None for a NULL id
    content: Any  # str, bytes, None...


class CortexListing(NamedTuple):
    """Columns of any row, for explaining why it was not a candidate (its JSON is not parsed)."""

    rowid: int | None
    id: Any
    type: Any
    summary: Any
    archived: Any
    last_accessed: Any
    created_at: Any
    superseded_by: Any


@dataclass(frozen=True, slots=True)
class CortexStore:
    """What the vector-less path of `drift memory why` sees in one database."""

    path: str
    recent: tuple[CortexRow, ...]  # the candidate query's rows, in its order
    newest: tuple[CortexRow, ...]  # the fallback pool, newest created_at first
    listing: tuple[CortexListing, ...]  # every row, in rowid order
    init_error: str | None = None  # what the CLI prints instead (String(error)) when its open fails
    query_error: str | None = None  # what both queries throw (e.g. "SqliteError: no such column: content")
    analyzed: bool = False  # sqlite_stat1 has statistics for memories: SQLite may order ties otherwise
    problems: tuple[Problem, ...] = ()
    signature: FileSignature | None = None


def read_cortex_store(
    path: str | Path, *, sleep: Callable[[float], None] = time.sleep, delays: tuple[float, ...] = DEFAULT_DELAYS
) -> CortexStore:
    """Read what `why` reads, never writing. MemorySourceError when the file is missing or unreadable.

    A zero-byte file is an empty store (SQLite creates the schema in it), a
    file that is not SQLite is the CLI's "file is not a database" failure.
    """
    name = str(path)
    p = Path(path)
    if not p.exists():
        raise MemorySourceError(name, "no such file", MISSING)
    if p.is_dir():
        raise MemorySourceError(name, "is a directory, not a database file", UNREADABLE)
    try:
        # Non-blocking, and the type checked on the descriptor: a FIFO would block the open or the
        # read, a device (/dev/zero) is no database (drift would print its "file is not a database").
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise MemorySourceError(name, f"is {describe(mode)}, not a database file", UNREADABLE)
            header = os.pread(fd, 100, 0)
        finally:
            os.close(fd)
    except OSError as exc:
        raise MemorySourceError(name, f"cannot read: {exc.strerror or exc}", UNREADABLE) from exc
    if not header:
        return CortexStore(name, (), (), (), signature=signature(path))
    if not header.startswith(SQLITE_MAGIC):
        return CortexStore(
            name, (), (), (), init_error=INIT_FAILED + "SqliteError: file is not a database", signature=signature(path)
        )
    return read_snapshot(path, lambda conn: _read(conn, path), sleep=sleep, delays=delays)


def _read(conn: sqlite3.Connection, path: str | Path) -> CortexStore:
    try:
        return _read_in_transaction(conn, path)
    except sqlite3.OperationalError as exc:
        if "decode" not in str(exc).lower():
            raise
    # Text that is not UTF-8: V8 would decode it with U+FFFD replacements.
    conn.text_factory = lambda raw: raw.decode("utf-8", "replace")
    return _read_in_transaction(conn, path)


def _tables(conn: sqlite3.Connection) -> dict[str, str]:
    return {
        str(name).lower(): str(kind)
        for kind, name in conn.execute("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view')")
    }


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    try:
        return [str(row[1]).lower() for row in conn.execute(f'PRAGMA table_info("{table}")')]
    except sqlite3.OperationalError:
        return []


def migration_error(conn: sqlite3.Connection, tables: dict[str, str]) -> str | None:
    """What Cortex's migrations would throw on this database, or None (runMigrations, migrations.ts:291-326)."""
    version = 0
    if "schema_migrations" in tables:
        try:
            row = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
            version = row[0] if row and isinstance(row[0], int) else 0
        except sqlite3.OperationalError:
            version = 0
    indexes = {str(row[0]).lower() for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    for migration, index, table, columns in V1_INDEXES:
        if migration <= version or index in indexes or table not in tables:
            continue  # applied, already there, or the migration creates the table first
        present = set(_columns(conn, table))
        for column in columns:
            if column not in present:
                return f"{INIT_FAILED}SqliteError: no such column: {column}"
    return None


def _read_in_transaction(conn: sqlite3.Connection, path: str | Path) -> CortexStore:
    conn.execute("BEGIN")
    try:
        tables = _tables(conn)
        if "memories" not in tables:  # the migrations would create it: an empty store
            return CortexStore(str(path), (), (), (), signature=signature(path))
        error = migration_error(conn, tables)
        if error is not None:
            return CortexStore(str(path), (), (), (), init_error=error, signature=signature(path))
        columns = set(_columns(conn, "memories"))
        has_rowid = _has_rowid(conn)
        rowid = "rowid" if has_rowid else "NULL"
        analyzed = False
        if "sqlite_stat1" in tables:
            analyzed = conn.execute("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'memories'").fetchone()[0] > 0
        query_error = None
        try:
            recent = tuple(
                map(
                    CortexRow._make,
                    conn.execute(
                        f"SELECT {rowid}, id, content FROM memories WHERE archived = 0 "
                        f"ORDER BY last_accessed DESC{_ties(conn, 'last_accessed', has_rowid, analyzed)} LIMIT ?",
                        (CANDIDATE_LIMIT,),
                    ),
                )
            )
            newest = tuple(
                map(
                    CortexRow._make,
                    conn.execute(
                        f"SELECT {rowid}, id, content FROM memories WHERE archived = 0 "
                        f"ORDER BY created_at DESC{_ties(conn, 'created_at', has_rowid, analyzed)} LIMIT ?",
                        (FALLBACK_POOL,),
                    ),
                )
            )
        except sqlite3.OperationalError as exc:
            if "decode" in str(exc).lower():
                raise
            recent = newest = ()
            query_error = f"SqliteError: {exc}"
        fields = ("id", "type", "summary", "archived", "last_accessed", "created_at", "superseded_by")
        exprs = ", ".join(f'"{f}"' if f in columns else "NULL" for f in fields)
        with gc_paused():
            listing = tuple(
                map(
                    CortexListing._make,
                    conn.execute(f"SELECT {rowid}, {exprs} FROM memories" + (" ORDER BY rowid" if has_rowid else "")),
                )
            )
        problems: list[Problem] = []
        if analyzed:
            problems.append(
                Problem(
                    str(path),
                    "the database has been ANALYZEd: tied last_accessed values follow "
                    f"this SQLite's ({sqlite3.sqlite_version}) query plan, which may "
                    "differ from the one Cortex's SQLite (3.49.2) picks",
                )
            )
    finally:
        conn.execute("COMMIT")
    return CortexStore(
        str(path), recent, newest, listing, None, query_error, analyzed, tuple(problems), signature(path)
    )


def _ties(conn: sqlite3.Connection, column: str, has_rowid: bool, analyzed: bool) -> str:
    """The tie order of Cortex's `ORDER BY <column> desc`, made explicit.

    Without statistics SQLite sorts the `archived = 0` rows in a temp b-tree,
    which keeps rowid order among ties. With `sqlite_stat1` it may instead
    walk the column's index backwards, which yields ties in descending rowid
    order; the local planner is asked which it would do.
    """
    if not has_rowid:
        return ""
    if analyzed:
        plan = " ".join(
            str(row[-1])
            for row in conn.execute(
                f"EXPLAIN QUERY PLAN SELECT id, content FROM memories WHERE archived = 0 ORDER BY {column} desc LIMIT 1"
            )
        )
        if f"USING INDEX idx_memories_{column}" in plan:
            return ", rowid DESC"
    return ", rowid ASC"


def _has_rowid(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND lower(name) = 'memories'").fetchone()
    return not (row and row[0] and "without rowid" in str(row[0]).lower())
