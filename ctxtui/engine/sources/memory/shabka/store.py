"""Everything `shabka context-pack` reads from a Shabka store, read without writing a byte.

Shabka opens its database read-write and rebuilds `vec_memories` from the
`embeddings` table on every start (`core/storage/sqlite.rs:237-296`), so the
vector table on disk is a throwaway cache; this reader never touches it and
takes the source of truth instead:

- `memories`: every column `row_to_memory` reads, raw (a column the store
  lacks reads as `MISSING`, text that is not UTF-8 as `BadText`), in rowid
  order;
- `embeddings`: the dimension Shabka picks (the most common one, by the same
  SQL; 128 when there are none) and, in rowid order — the order vec0 slots
  them — the memory id and raw vector of every row of that dimension, plus
  the other rows' dimensions;
- `relations`: outgoing relations per `source_id`, all of them and the
  `contradicts` ones (`sqlite.rs:1145-1230`), or None where Shabka's query
  would fail (it then counts nothing).

The file is read through `snapshot.read_snapshot`, as `adapters.load_memories`
reads it (no `-wal`/`-shm` ever appear beside it); one read transaction covers it all.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ctxtui.engine.sources.memory.shared.connect import (
    DEFAULT_DELAYS,
    FileSignature,
    signature,
)
from ctxtui.engine.sources.memory.shared.detect import SCHEMA_SHABKA, detect_schema
from ctxtui.engine.sources.memory.shared.errors import UNKNOWN_SCHEMA, MemorySourceError
from ctxtui.engine.sources.memory.shared.snapshot import read_snapshot

DEFAULT_DIMS = 128  # `unwrap_or(128)` when no embedding row (or no usable dimension) exists

# The `memories` columns `row_to_memory` reads (`core/storage/sqlite.rs:527-623`), in the order a row carries them.
COLUMNS = (
    "id",
    "kind",
    "title",
    "content",
    "summary",
    "tags",
    "source",
    "scope",
    "importance",
    "status",
    "privacy",
    "verification",
    "project_id",
    "session_id",
    "created_by",
    "created_at",
    "updated_at",
    "accessed_at",
)


class Missing:
    """A column the store's `memories` table does not have (Shabka fails to read any row then)."""

    def __repr__(self) -> str:
        return "<missing column>"


MISSING = Missing()


class BadText(bytes):
    """A TEXT cell whose bytes are not UTF-8 (rusqlite refuses it as a `String`)."""


@dataclass(frozen=True, slots=True)
class Embeddings:
    """The `embeddings` rows vec0 would hold, in its slot order, and the rest."""

    dims: Any  # the value Shabka's `SELECT dimensions ... LIMIT 1` picks (128 when none, or not an integer)
    memory_ids: list[Any] = field(default_factory=list)  # of the rows with that dimension, rowid order
    vectors: list[Any] = field(default_factory=list)  # their raw `vector` values (bytes when sound)
    other_dims: dict[Any, Any] = field(default_factory=dict)  # memory_id → dimensions, the other rows
    total: int = 0  # every row


@dataclass(frozen=True, slots=True)
class ShabkaStore:
    """One consistent read of a Shabka database."""

    path: str
    rows: list[tuple[Any, ...]]  # (rowid, *memory.COLUMNS), raw
    embeddings: Embeddings
    relations: dict[str, int] | None  # outgoing relations per source_id; None: Shabka's query fails
    contradictions: dict[str, int] | None  # outgoing `contradicts` per source_id; None: the query fails
    signature: FileSignature | None = None
    notes: tuple[str, ...] = ()  # what the read noticed, in words


def read_shabka_store(
    path: str | Path,
    *,
    sleep: Callable[[float], None] = time.sleep,
    delays: tuple[float, ...] = DEFAULT_DELAYS,
) -> ShabkaStore:
    """Read the store at `path`; MemorySourceError when it cannot be read or is not Shabka's."""
    return read_snapshot(path, lambda conn: _read_in_transaction(conn, path), sleep=sleep, delays=delays)


def _read_in_transaction(conn: sqlite3.Connection, path: str | Path) -> ShabkaStore:
    conn.execute("BEGIN")
    try:
        return _read(conn, path)
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")


def _read(conn: sqlite3.Connection, path: str | Path) -> ShabkaStore:
    shape = detect_schema(conn, path)
    if shape.schema != SCHEMA_SHABKA:
        raise MemorySourceError(str(path), f"is a {shape.schema} store, not Shabka's", UNKNOWN_SCHEMA)
    notes: list[str] = []
    rows = _memories(conn, shape.columns, shape.has_rowid, notes)
    embeddings = _embeddings(conn, shape.tables, notes)
    if "relations" in shape.tables:
        relations = _counts(conn, "SELECT source_id, COUNT(*) FROM relations GROUP BY source_id")
        contradictions = _counts(
            conn, "SELECT source_id, COUNT(*) FROM relations WHERE relation_type = 'contradicts' GROUP BY source_id"
        )
    else:  # Shabka creates the table on open: nothing to count
        relations, contradictions = {}, {}
    return ShabkaStore(str(path), rows, embeddings, relations, contradictions, signature(path), tuple(notes))


def _memories(
    conn: sqlite3.Connection, columns: frozenset[str], has_rowid: bool, notes: list[str]
) -> list[tuple[Any, ...]]:
    present = [c for c in COLUMNS if c in columns]
    missing = [c for c in COLUMNS if c not in columns]
    if missing:
        notes.append(f"memories has no column {', '.join(missing)}: Shabka cannot read any of its rows")
    rowid = "rowid" if has_rowid else "NULL"
    sql = f"SELECT {rowid}, {', '.join(chr(34) + c + chr(34) for c in present)} FROM memories ORDER BY {rowid}"
    try:
        raw = conn.execute(sql).fetchall()
    except sqlite3.OperationalError as exc:
        if "decode" not in str(exc).lower():
            raise
        notes.append("some text is not valid UTF-8: Shabka cannot read those rows")
        conn.text_factory = _lenient_text
        try:
            raw = conn.execute(sql).fetchall()
        finally:
            conn.text_factory = str
    if not missing:
        return raw
    slots = [COLUMNS.index(c) + 1 for c in present]
    rows = []
    for values in raw:
        row: list[Any] = [values[0], *([MISSING] * len(COLUMNS))]
        for slot, value in zip(slots, values[1:], strict=True):
            row[slot] = value
        rows.append(tuple(row))
    return rows


def _lenient_text(data: bytes) -> Any:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return BadText(data)


def _embeddings(conn: sqlite3.Connection, tables: frozenset[str], notes: list[str]) -> Embeddings:
    if "embeddings" not in tables:
        return Embeddings(DEFAULT_DIMS)
    try:
        picked = conn.execute(
            "SELECT dimensions FROM embeddings GROUP BY dimensions ORDER BY COUNT(*) DESC LIMIT 1"
        ).fetchone()
    except sqlite3.OperationalError:
        return Embeddings(DEFAULT_DIMS)
    dims = picked[0] if picked is not None and type(picked[0]) is int else DEFAULT_DIMS
    ids: list[Any] = []
    vectors: list[Any] = []
    others: dict[Any, Any] = {}
    total = 0
    try:
        cursor = conn.execute(
            "SELECT memory_id, vector, dimensions = ?1, dimensions FROM embeddings ORDER BY rowid", (dims,)
        )
    except sqlite3.OperationalError:  # a WITHOUT ROWID table: scanned in key order
        cursor = conn.execute("SELECT memory_id, vector, dimensions = ?1, dimensions FROM embeddings", (dims,))
    for memory_id, vector, selected, dimensions in cursor:
        total += 1
        if selected:
            ids.append(memory_id)
            vectors.append(vector)
        else:
            others[memory_id] = dimensions
    if others:
        notes.append(f"{len(others)} of {total} embeddings are not {dims}-dimensional: Shabka skips them")
    return Embeddings(dims, ids, vectors, others, total)


def _counts(conn: sqlite3.Connection, sql: str) -> dict[str, int] | None:
    try:
        return {source: count for source, count in conn.execute(sql) if isinstance(source, str)}
    except sqlite3.Error:
        return None
