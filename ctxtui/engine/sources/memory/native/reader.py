"""Reading ctxtui's own memory schema: its columns and their meaning.

Runs inside the caller's read transaction and returns records built by
`shared.rows.make_record`; see `adapters` for the mapping of every store.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ctxtui.engine.sources.memory.shared import values as v
from ctxtui.engine.sources.memory.shared.detect import StoreShape, columns_of, project_filter, select
from ctxtui.engine.sources.memory.shared.records import ORIGIN_NATIVE, MemoryRecord
from ctxtui.engine.sources.memory.shared.rows import NO_COUNTS, Report, grouped_events, make_record

NATIVE_VERSION = 1  # the newest ctxtui schema version this code knows

NATIVE_FIELDS = (
    "id",
    "origin",
    "origin_id",
    "kind",
    "title",
    "body",
    "summary",
    "tags",
    "project",
    "importance",
    "confidence",
    "status",
    "superseded_by",
    "created_at",
    "updated_at",
    "last_accessed",
)


def read_native(conn: sqlite3.Connection, shape: StoreShape, project: str | None, report: Report) -> list[MemoryRecord]:
    """ctxtui's own rows, with usage events grouped per memory and counted in SQL."""
    if shape.user_version > NATIVE_VERSION:
        report.note(
            f"schema version {shape.user_version} is newer than this ctxtui reads "
            f"({NATIVE_VERSION}): known columns only"
        )
    where, params = project_filter(shape, "project", project, report)
    rows = conn.execute(select(shape, NATIVE_FIELDS, where), params).fetchall()
    events: dict[Any, tuple[tuple[str, str], ...]] = {}
    counts: dict[Any, tuple[int, int]] = {}
    if "usage_events" in shape.tables and {"memory_id", "at", "event"} <= columns_of(conn, "usage_events", report):
        events = grouped_events(
            conn.execute(
                "SELECT memory_id, CAST(at AS TEXT), CAST(event AS TEXT) FROM usage_events "
                "WHERE at IS NOT NULL AND event IS NOT NULL ORDER BY memory_id, at"
            ).fetchall()
        )
        counts = {
            mid: (got or 0, used or 0)
            for mid, got, used in conn.execute(
                "SELECT memory_id, sum(event = 'retrieved'), sum(event = 'referenced') FROM usage_events "
                "WHERE at IS NOT NULL GROUP BY memory_id"
            )
        }
    stats: dict[Any, tuple[Any, Any]] = {}
    if "usage_stats" in shape.tables and {"memory_id", "times_retrieved", "times_referenced"} <= columns_of(
        conn, "usage_stats", report
    ):
        for mid, got, used in conn.execute("SELECT memory_id, times_retrieved, times_referenced FROM usage_stats"):
            stats[mid] = (got, used)
    # Equal cells make equal records: hashing the cells (in C) stands for hashing the records (a Python
    # __hash__ each, 2.5x the time at 50,000 memories) when a reload asks whether anything changed.
    report.inputs_hash = hash((tuple(rows), tuple(events.items()), tuple(counts.items()), tuple(stats.items())))
    records: list[MemoryRecord] = []
    append = records.append
    for (
        rowid,
        mid,
        origin,
        origin_id,
        kind,
        title,
        body,
        summary,
        tags,
        proj,
        importance,
        confidence,
        status,
        superseded_by,
        created,
        updated,
        accessed,
    ) in rows:
        evs = events.get(mid, ())
        retrieved, referenced = counts.get(mid, NO_COUNTS)
        stat = stats.get(mid)
        if stat is not None:
            got, complaint = v.count(stat[0], "times_retrieved")
            if complaint:
                report.row(rowid, mid, complaint)
            used, complaint = v.count(stat[1], "times_referenced")
            if complaint:
                report.row(rowid, mid, complaint)
            retrieved, referenced = max(retrieved, got), max(referenced, used)
        imported = f"{origin}:{origin_id}" if origin_id is not None and origin not in (None, "native") else None
        record = make_record(
            report,
            ORIGIN_NATIVE,
            rowid,
            mid,
            kind,
            title,
            body,
            summary,
            tags,
            proj,
            importance,
            confidence,
            status,
            superseded_by,
            created,
            updated,
            accessed,
            retrieved,
            referenced,
            evs,
            imported,
        )
        if record is not None:
            append(record)
    return records
