"""Reading Shabka's rows as memories; supersession comes from its `relations` table.

Runs inside the caller's read transaction; see `adapters` for the mapping of every store.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ctxtui.engine.sources.memory.shared.detect import StoreShape, columns_of, project_filter, select
from ctxtui.engine.sources.memory.shared.records import ORIGIN_SHABKA, MemoryRecord
from ctxtui.engine.sources.memory.shared.rows import Report, make_record

SHABKA_FIELDS = (
    "id",
    "kind",
    "title",
    "content",
    "summary",
    "tags",
    "project_id",
    "importance",
    "status",
    "created_at",
    "updated_at",
    "accessed_at",
)


def read_shabka(conn: sqlite3.Connection, shape: StoreShape, project: str | None, report: Report) -> list[MemoryRecord]:
    """Shabka's rows; supersession comes from its `relations` table."""
    where, params = project_filter(shape, "project_id", project, report)
    rows = conn.execute(select(shape, SHABKA_FIELDS, where), params).fetchall()
    superseded_by: dict[Any, Any] = {}
    if "relations" in shape.tables and {"source_id", "target_id", "relation_type"} <= columns_of(
        conn, "relations", report
    ):
        for source, target in conn.execute(
            "SELECT source_id, target_id FROM relations WHERE lower(relation_type) = 'supersedes' ORDER BY rowid"
        ):
            superseded_by.setdefault(target, source)
    records: list[MemoryRecord] = []
    for rowid, mid, kind, title, content, summary, tags, proj, importance, status, created, updated, accessed in rows:
        record = make_record(
            report,
            ORIGIN_SHABKA,
            rowid,
            mid,
            kind,
            title,
            content,
            summary,
            tags,
            proj,
            importance,
            None,
            status,
            superseded_by.get(mid),
            created,
            updated,
            accessed,
            0,
            0,
            (),
        )
        if record is not None:
            records.append(record)
    return records
