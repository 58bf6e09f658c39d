"""Reading Cortex v1's rows (drift's TypeScript store) as memories, content JSON included.

Runs inside the caller's read transaction; see `adapters` for the mapping of every store.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ctxtui.engine.sources.memory.shared import values as v
from ctxtui.engine.sources.memory.shared.detect import StoreShape, columns_of, project_filter, select
from ctxtui.engine.sources.memory.shared.records import ORIGIN_CORTEX, MemoryRecord
from ctxtui.engine.sources.memory.shared.rows import NO_COUNTS, Report, grouped_events, make_record
from ctxtui.engine.text.json_depth import NestedTooDeeply

CORTEX_TITLE_KEYS = ("title", "topic", "name", "patternName", "decisionSummary")
CORTEX_IMPORTANCE = {"low": 0.2, "normal": 0.5, "medium": 0.5, "high": 0.8, "critical": 1.0}

CORTEX_FIELDS = (
    "id",
    "type",
    "content",
    "summary",
    "importance",
    "confidence",
    "archived",
    "superseded_by",
    "access_count",
    "created_at",
    "recorded_at",
    "updated_at",
    "last_accessed",
    "tags",
)


def read_cortex(conn: sqlite3.Connection, shape: StoreShape, project: str | None, report: Report) -> list[MemoryRecord]:
    """Cortex's rows: JSON content, importance words, usage history as events."""
    project_filter(shape, "project", project, report)
    rows = conn.execute(select(shape, CORTEX_FIELDS)).fetchall()
    history: dict[Any, tuple[tuple[str, str], ...]] = {}
    counts: dict[Any, tuple[int, int]] = {}
    if "memory_usage_history" in shape.tables and {"memory_id", "used_at", "outcome"} <= columns_of(
        conn, "memory_usage_history", report
    ):
        used = "outcome IN ('accepted', 'modified')"
        history = grouped_events(
            conn.execute(
                "SELECT memory_id, CAST(used_at AS TEXT), 'retrieved' FROM memory_usage_history WHERE used_at IS NOT NULL "
                f"UNION ALL SELECT memory_id, CAST(used_at AS TEXT), 'referenced' FROM memory_usage_history "
                f"WHERE used_at IS NOT NULL AND {used} ORDER BY 1, 2, 3 DESC"
            ).fetchall()
        )
        counts = {
            mid: (got, ok or 0)
            for mid, got, ok in conn.execute(
                f"SELECT memory_id, count(*), sum({used}) FROM memory_usage_history "
                "WHERE used_at IS NOT NULL GROUP BY memory_id"
            )
        }
    records: list[MemoryRecord] = []
    for (
        rowid,
        mid,
        kind,
        content,
        summary,
        importance,
        confidence,
        archived,
        superseded_by,
        access_count,
        created,
        recorded,
        updated,
        accessed,
        tags,
    ) in rows:
        title, body, complaint = _cortex_content(content)
        if complaint:
            report.row(rowid, mid, complaint)
        if title is None:  # e.g. episodic memories carry no title key
            title = v.first_line(v.text(summary)) or v.first_line(body) or None
        mapped = CORTEX_IMPORTANCE.get(importance) if type(importance) is str else None
        if mapped is not None:
            importance = mapped
        elif isinstance(importance, str):
            word = importance.strip().lower()
            if word in CORTEX_IMPORTANCE:
                importance = CORTEX_IMPORTANCE[word]
            else:
                try:
                    importance = float(word)
                except ValueError:
                    report.row(rowid, mid, f"unknown importance {v.show(importance)}: normal (0.5) used")
                    importance = 0.5
        status = "superseded" if superseded_by else "archived" if archived and _truthy(archived) else "active"
        if type(access_count) is int and access_count >= 0:
            retrieved = access_count
        else:
            retrieved, complaint = v.count(access_count, "access_count")
            if complaint:
                report.row(rowid, mid, complaint)
        got, referenced = counts.get(mid, NO_COUNTS)
        if got > retrieved:
            retrieved = got
        record = make_record(
            report,
            ORIGIN_CORTEX,
            rowid,
            mid,
            kind,
            title,
            body,
            summary,
            tags,
            None,
            importance,
            confidence,
            status,
            superseded_by,
            created if created is not None else recorded,
            updated,
            accessed,
            retrieved,
            referenced,
            history.get(mid, ()),
            title_is_derived=True,
        )
        if record is not None:
            records.append(record)
    return records


def _truthy(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes")
    return bool(value)


def _cortex_content(content: object) -> tuple[str | None, str, str | None]:
    """(title, body, complaint) from Cortex's JSON content blob."""
    if content is None:
        return None, "", None
    raw = v.text_of(content)
    try:
        data = v.loads(raw)
    except NestedTooDeeply as exc:
        return None, raw, f"content is JSON {exc}: shown as text"
    except ValueError:
        return None, raw, "content is not valid JSON: shown as text"
    if isinstance(data, str):
        return None, data, None
    if not isinstance(data, dict):
        return None, raw, None
    title_key = title = None
    for key in CORTEX_TITLE_KEYS:
        value = data.get(key)
        if type(value) is str and value and not value.isspace():
            title_key, title = key, value
            break
    parts = []
    for key, value in data.items():
        if key == title_key or key == "type" or value is None or value == "":
            continue
        if isinstance(value, str):
            parts.append(value if " " in value else f"{key}: {value}")
        elif isinstance(value, (int, float, bool)):
            parts.append(f"{key}: {json.dumps(value)}")
        elif isinstance(value, list) and value and all(isinstance(x, (str, int, float)) for x in value):
            parts.append(f"{key}: " + ", ".join(str(x) for x in value))
    return title, "\n\n".join(parts), None
