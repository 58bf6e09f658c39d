"""Per-store readers: the SQL each schema needs, and its columns' meaning.

Each reader runs inside the caller's read transaction and returns records
built by `rows.make_record`; see `adapters` for the mapping of every store.
"""

from __future__ import annotations

import json
import sqlite3
from itertools import groupby
from operator import itemgetter
from typing import Any

from ctxtui.engine.sources.memory import values as v
from ctxtui.engine.sources.memory.detect import StoreShape, columns_of, project_filter, select
from ctxtui.engine.sources.memory.records import ORIGIN_CORTEX, ORIGIN_NATIVE, ORIGIN_SHABKA, MemoryRecord
from ctxtui.engine.sources.memory.rows import Report, make_record
from ctxtui.engine.text.json_depth import NestedTooDeeply

NATIVE_VERSION = 1  # the newest ctxtui schema version this code knows
CORTEX_TITLE_KEYS = ("title", "topic", "name", "patternName", "decisionSummary")
CORTEX_IMPORTANCE = {"low": 0.2, "normal": 0.5, "medium": 0.5, "high": 0.8, "critical": 1.0}

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
        events = _grouped_events(
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
        retrieved, referenced = counts.get(mid, _NONE)
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


_NONE = (0, 0)
_PAIR = itemgetter(1, 2)
_FIRST = itemgetter(0)


def _grouped_events(rows: list[tuple[Any, ...]]) -> dict[Any, tuple[tuple[str, str], ...]]:
    """memory id → ((at, event), ...) from rows sorted by memory id, built in C loops."""
    return {mid: tuple(map(_PAIR, group)) for mid, group in groupby(rows, _FIRST)}


# ---------------------------------------------------------------- Shabka


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


# ---------------------------------------------------------------- Cortex


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
        history = _grouped_events(
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
        got, referenced = counts.get(mid, _NONE)
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
