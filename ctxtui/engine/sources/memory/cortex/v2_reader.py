"""Cortex v2 (the Rust rewrite, `drift v2/crates/cortex`) as a memory store: its rows as MemoryRecords.

v2 keeps another schema than the TypeScript v1 (cortex-storage migrations
v001-v015; cortex.md §13): `memories.memory_type` (one of 23 snake_case
types, no CHECK), `content` as serde's adjacently tagged JSON
`{"type": "tribal", "data": {...}}` with snake_case fields, a real `summary`
column, RFC 3339 times (`transaction_time` is when it was recorded),
`access_count` kept up to date, `tags` a JSON array, and `schema_version`
instead of v1's `schema_migrations`. Vectors are a plain BLOB table, so
nothing needs an extension to be read.

Mapping (a choice: v2 has no titles): kind = memory_type; title = the
summary column, else the type's name field; body = the type's main text
fields; importance low/normal/high/critical → 0.2/0.5/0.8/1.0; archived = 1
→ archived, superseded_by set → superseded; a `valid_until` already past
(when "now" is known) → archived; date = transaction_time; usage =
access_count retrievals. Provenance is `cortex:<id>`, as for v1.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import date, timedelta
from typing import Any

from ctxtui.engine.sources.memory.shared import values as v
from ctxtui.engine.sources.memory.shared.detect import StoreShape, project_filter, select
from ctxtui.engine.sources.memory.shared.records import ORIGIN_CORTEX, MemoryRecord
from ctxtui.engine.sources.memory.shared.rows import Report, make_record
from ctxtui.engine.text.json_depth import NestedTooDeeply

V2_IMPORTANCE = {"low": 0.2, "normal": 0.5, "high": 0.8, "critical": 1.0}

# The field that names a memory of each type, when its summary is empty.
TITLE_FIELDS = {
    "procedural": "title",
    "reference": "title",
    "goal": "title",
    "incident": "title",
    "meeting": "title",
    "core": "project_name",
    "pattern_rationale": "pattern_name",
    "constraint_override": "constraint_name",
    "code_smell": "smell_name",
    "agent_spawn": "agent_name",
    "entity": "entity_name",
    "skill": "skill_name",
    "workflow": "name",
    "environment": "name",
    "decision": "decision",
    "decision_context": "decision",
    "insight": "observation",
    "preference": "preference",
    "tribal": "knowledge",
    "semantic": "knowledge",
    "episodic": "interaction",
    "feedback": "feedback",
    "conversation": "summary",
}

# The fields whose text makes up the body, per type (lists of steps by their text field).
BODY_FIELDS: dict[str, tuple[str, ...]] = {
    "tribal": ("knowledge",),
    "semantic": ("knowledge",),
    "episodic": ("interaction", "context", "outcome"),
    "decision": ("rationale",),
    "decision_context": ("context",),
    "pattern_rationale": ("rationale",),
    "constraint_override": ("override_reason",),
    "code_smell": ("description",),
    "procedural": ("steps",),
    "workflow": ("steps",),
    "conversation": ("summary",),
    "incident": ("root_cause", "impact", "resolution"),
    "meeting": ("notes",),
    "feedback": ("feedback",),
    "reference": ("citation",),
    "goal": ("description",),
    "entity": ("description",),
    "agent_spawn": ("purpose",),
    "skill": ("domain", "proficiency"),
    "environment": ("config",),
    "preference": ("value",),
    "core": ("description",),
    "insight": ("evidence",),
}
STEP_TEXT = {"procedural": "instruction", "workflow": "action"}

V2_FIELDS = (
    "id",
    "memory_type",
    "content",
    "summary",
    "transaction_time",
    "valid_until",
    "confidence",
    "importance",
    "last_accessed",
    "access_count",
    "tags",
    "archived",
    "superseded_by",
    "updated_at",
)


def _text_of(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return "\n".join(value)
    return json.dumps(value, ensure_ascii=False)


def content_parts(kind: str, content: Any) -> tuple[str | None, str, str | None]:
    """(name, body, complaint) from the adjacently tagged content JSON."""
    if content is None:
        return None, "", None
    raw = v.text(content) or ""
    try:
        data = v.loads(raw)
    except NestedTooDeeply as exc:
        return None, raw, f"content is JSON {exc}: shown as text"
    except ValueError:
        return None, raw, "content is not valid JSON: shown as text"
    if not isinstance(data, dict) or not isinstance(data.get("data"), dict):
        return None, _text_of(data), 'content is not {"type": ..., "data": {...}}: shown as text'
    fields = data["data"]
    name = fields.get(TITLE_FIELDS.get(kind, ""))
    name = name if isinstance(name, str) and name.strip() else None
    parts = []
    for field in BODY_FIELDS.get(kind, ()):
        value = fields.get(field)
        if kind in STEP_TEXT and field == "steps" and isinstance(value, list):
            parts += [str(step.get(STEP_TEXT[kind], "")) for step in value if isinstance(step, dict)]
        elif value not in (None, "", [], {}):
            parts.append(_text_of(value))
    if not parts:  # an unknown type: every field, as text
        parts = [f"{key}: {_text_of(value)}" for key, value in fields.items() if value not in (None, "", [], {})]
    return name, "\n\n".join(part for part in parts if part), None


def _expired(valid_until: Any, report: Report) -> bool:
    """valid_until before "now" (known only when the caller gave it: latest_date is now + 1 day)."""
    if not isinstance(valid_until, str) or report.latest_date >= "2200-12-31":
        return False
    day = v.date_prefix(valid_until)
    if day is None:
        return False
    today = (date.fromisoformat(report.latest_date) - timedelta(days=1)).isoformat()
    return day < today


def read_cortex_v2(
    conn: sqlite3.Connection, shape: StoreShape, project: str | None, report: Report
) -> list[MemoryRecord]:
    """Cortex v2's rows (never written to; FTS5 and embedding tables are not needed)."""
    project_filter(shape, "project", project, report)
    rows = conn.execute(select(shape, V2_FIELDS)).fetchall()
    records = []
    for (
        rowid,
        mid,
        kind,
        content,
        summary,
        recorded,
        valid_until,
        confidence,
        importance,
        accessed,
        access_count,
        tags,
        archived,
        superseded_by,
        updated,
    ) in rows:
        kind_text = v.text(kind) or ""
        name, body, complaint = content_parts(kind_text, content)
        if complaint:
            report.row(rowid, mid, complaint)
        summary_text = v.text(summary) or None
        title = summary_text or name
        if isinstance(importance, str) and importance.strip().lower() in V2_IMPORTANCE:
            importance = V2_IMPORTANCE[importance.strip().lower()]
        status = "archived" if archived not in (0, None, "0") else "active"
        if status == "active" and _expired(valid_until, report):
            report.row(rowid, mid, f"valid_until {v.show(valid_until)} has passed: treated as archived")
            status = "archived"
        retrieved, note = v.count(access_count, "access_count")
        if note:
            report.row(rowid, mid, note)
        record = make_record(
            report,
            ORIGIN_CORTEX,
            rowid,
            mid,
            kind,
            title,
            body,
            summary_text,
            tags,
            None,
            importance,
            confidence,
            status,
            superseded_by,
            recorded,
            updated if updated is not None else recorded,
            accessed,
            retrieved,
            0,
            (),
            title_is_derived=summary_text is None,
        )
        if record is not None:
            records.append(record)
    return records
