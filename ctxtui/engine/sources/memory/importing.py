"""Importing another store's memories into ctxtui's own database.

Above the stores: it reads any store through `adapters` (read-only, mapped as
ctxtui shows it) and writes through `native.schema`, the only writer.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from ctxtui.engine.model import Problem
from ctxtui.engine.sources.memory.adapters import SCHEMA_CTXTUI, load_memories
from ctxtui.engine.sources.memory.native.schema import Row, init_db, write_rows
from ctxtui.engine.sources.memory.shared.errors import MemoryWriteError


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What `import_db` did: the source's schema, how many memories, and its problems."""

    schema: str
    imported: int
    problems: list[Problem]


def import_db(target: str | Path, source: str | Path, project: str | None = None) -> ImportReport:
    """Copy a Shabka or Cortex database's memories into ctxtui's own at `target`.

    The source is read through the adapters (read-only), so it is mapped the
    same way ctxtui would show it; each memory keeps its origin and origin id,
    and importing again updates rather than duplicates. The source's row
    problems come back in the report; the target is created if missing.
    """
    if os.path.exists(target) and os.path.exists(source) and os.path.samefile(target, source):
        raise MemoryWriteError(str(target), "cannot import a database into itself")
    load = load_memories(source, project)
    if load.schema == SCHEMA_CTXTUI:
        raise MemoryWriteError(str(source), "is already a ctxtui memory database: nothing to import")
    rows: list[Row] = []
    events: list[Row] = []
    stats: list[Row] = []
    relations: list[Row] = []
    for record in load.records:
        mid = _imported_id(record.origin, record.id)
        superseded_by = _imported_id(record.origin, record.superseded_by) if record.superseded_by else None
        rows.append(
            (
                mid,
                record.origin,
                record.id,
                record.kind,
                record.title,
                record.body,
                record.summary,
                json.dumps(list(record.tags)),
                record.project,
                record.importance,
                record.confidence,
                record.status,
                superseded_by,
                record.created_at,
                record.updated_at or record.created_at,
                record.last_accessed,
                json.dumps({"schema": load.schema}),
            )
        )
        events.extend((mid, at, event, None) for at, event in record.usage_events)
        if record.times_retrieved or record.times_referenced:
            stats.append((mid, record.times_retrieved, record.times_referenced))
        if superseded_by:
            relations.append((superseded_by, mid, "supersedes"))
    init_db(target)
    write_rows(target, rows, events, stats, relations)
    return ImportReport(load.schema, len(rows), list(load.problems))


def _imported_id(origin: str, origin_id: str) -> str:
    return f"{origin}-{origin_id}"
