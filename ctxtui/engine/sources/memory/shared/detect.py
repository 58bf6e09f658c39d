"""Recognising a memory store from its tables and columns, never its file name.

ctxtui's own schema has `PRAGMA user_version` >= 1 and a `memories.origin`
column; Shabka's `memories` has kind, title, content and importance; Cortex's
(the TypeScript v1) has type and a JSON `content`, plus archived or
importance; Cortex v2 (the Rust rewrite) has memory_type, content and
content_hash, with transaction_time or a `schema_version` table. Only `PRAGMA
table_info` of plain tables is asked, so a vector virtual table whose
extension is not loaded never gets in the way.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ctxtui.engine.sources.memory.shared import values as v
from ctxtui.engine.sources.memory.shared.errors import UNKNOWN_SCHEMA, MemorySourceError
from ctxtui.engine.sources.memory.shared.rows import Report

SCHEMA_CTXTUI = "ctxtui"
SCHEMA_SHABKA = "shabka"
SCHEMA_CORTEX = "cortex"
SCHEMA_CORTEX_V2 = "cortex-v2"


@dataclass(frozen=True, slots=True)
class StoreShape:
    """What `detect_schema` found: which store, and which columns it has."""

    schema: str
    columns: frozenset[str]  # of `memories`, lower-cased
    tables: frozenset[str]  # every table name, virtual ones included, lower-cased
    user_version: int
    has_rowid: bool


def detect_schema(conn: sqlite3.Connection, path: str | Path) -> StoreShape:
    """Which store this is, from its tables and columns; MemorySourceError if none."""
    rows = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
    tables = {name.lower(): (sql or "") for _, name, sql in rows if isinstance(name, str)}
    user_version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    if "memories" not in tables:
        listed = ", ".join(sorted(tables)[:8]) or "none"
        raise MemorySourceError(str(path), f"unknown schema: no `memories` table (tables: {listed})", UNKNOWN_SCHEMA)
    try:
        columns = frozenset(row[1].lower() for row in conn.execute("PRAGMA table_info(memories)"))
    except sqlite3.OperationalError as exc:
        if "no such module" in str(exc):
            raise MemorySourceError(
                str(path), f"unknown schema: `memories` is a virtual table ({exc})", UNKNOWN_SCHEMA
            ) from exc
        raise
    has_rowid = "without rowid" not in tables["memories"].lower()
    if "origin" in columns and user_version >= 1 and {"id", "kind", "title"} <= columns:
        schema = SCHEMA_CTXTUI
    elif {"id", "kind", "title", "content", "importance"} <= columns:
        schema = SCHEMA_SHABKA
    elif {"id", "type", "content"} <= columns and ({"archived", "importance"} & columns):
        schema = SCHEMA_CORTEX
    elif {"id", "memory_type", "content", "content_hash"} <= columns and (
        "transaction_time" in columns or "schema_version" in tables
    ):
        schema = SCHEMA_CORTEX_V2
    else:
        shown = ", ".join(sorted(columns)[:12])
        raise MemorySourceError(
            str(path),
            f"unknown schema: `memories` has columns ({shown}), which match neither ctxtui, Shabka nor Cortex (v1 or v2)",
            UNKNOWN_SCHEMA,
        )
    return StoreShape(schema, columns, frozenset(tables), user_version, has_rowid)


def columns_of(conn: sqlite3.Connection, table: str, report: Report) -> frozenset[str]:
    """Columns of an auxiliary table; empty when absent or unreadable."""
    try:
        return frozenset(row[1].lower() for row in conn.execute(f'PRAGMA table_info("{table}")'))
    except sqlite3.OperationalError as exc:
        if "no such module" in str(exc):
            report.note(f"table {table} cannot be read ({exc}): ignored")
            return frozenset()
        raise


def select(shape: StoreShape, fields: tuple[str, ...], where: str = "") -> str:
    """SELECT rowid and `fields` from memories; a column the store lacks reads as NULL."""
    exprs = ", ".join(f'"{f}"' if f in shape.columns else "NULL" for f in fields)
    rowid = "rowid" if shape.has_rowid else "NULL"
    return f"SELECT {rowid}, {exprs} FROM memories{where} ORDER BY {rowid}"


def project_filter(shape: StoreShape, column: str, project: str | None, report: Report) -> tuple[str, tuple[str, ...]]:
    """A WHERE clause and its parameters; a store without the column says so and is not filtered."""
    if project is None:
        return "", ()
    if column not in shape.columns:
        report.note(
            f"this {shape.schema} store has no project column: the project filter {v.show(project)} was ignored"
        )
        return "", ()
    return f' WHERE "{column}" = ?', (project,)
