"""The SQL that reads nous's four memory tables, and the builders that make each row a `MemoryRecord`.

Apart from `nous_store` (which owns the connection and runs these) because
each table maps to a record its own way (see the mapping in `nous_store`'s
docstring) and every statement is built for the columns the table really
has (`TableShape`): an older nous lacks some, and a missing column reads as NULL.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from ctxtui.engine.sources.memory.nous.pg_names import EQ
from ctxtui.engine.sources.memory.shared import values as v
from ctxtui.engine.sources.memory.shared.records import ORIGIN_NOUS, MemoryRecord
from ctxtui.engine.sources.memory.shared.rows import Report, make_record

# A memory table's SQL and the builder of a record from one of its rows (None: the row is skipped).
RowBuilder: TypeAlias = Callable[[Report, tuple[Any, ...]], MemoryRecord | None]
MemoryReader: TypeAlias = Callable[["TableShape"], tuple[str, RowBuilder]]

# Every name qualified, every operator spelled OPERATOR(pg_catalog.…): see pg_names.
TEXT_TIME = "pg_catalog.to_char({} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
TEXT = "::pg_catalog.text"
SUPERSEDED_BY = f"superseded_by{TEXT}"
TAGS = f"pg_catalog.array_to_json(tags){TEXT}"
CATEGORY = f"pg_catalog.json_build_array(category){TEXT}"


@dataclass(frozen=True, slots=True)
class TableShape:
    """One table as the catalog shows it to the connected role."""

    name: str  # schema.table
    columns: frozenset[str]

    def col(self, name: str, expr: str | None = None) -> str:
        """`expr` (default: the quoted column) when the column exists, else NULL."""
        return (expr or f'"{name}"') if name in self.columns else "NULL"


# Columns each rebuild reads, by type (see notes/nous.md §2.4 step 2).
ROW_COLUMNS = {
    "decision": ("description", "outcome", "confidence", "context", "pattern", "created_at"),
    "fact": (
        "content",
        "subject",
        "confidence",
        "category",
        "active",
        "superseded_by",
        "overrides_prior",
        "created_at",
    ),
    "procedure": (
        "name",
        "domain",
        "description",
        "implementation_notes",
        "core_patterns",
        "goals",
        "tags",
        "activation_count",
        "success_count",
        "failure_count",
        "active",
        "kind",
        "created_at",
    ),
    "episode": ("title", "summary", "outcome", "started_at", "structured_summary", "active", "tags", "created_at"),
}
_TIME_COLUMNS = frozenset({"created_at", "started_at"})


def row_expr(shape: TableShape, name: str) -> str:
    if name not in shape.columns:
        return "NULL"
    if name in _TIME_COLUMNS:
        return f"(\"{name}\" AT TIME ZONE 'UTC')"  # naive UTC, as asyncpg hands nous its datetimes
    if name == "superseded_by":
        return f'"{name}"{TEXT}'
    if name == "confidence":
        # The value's exact bits, whatever the column's type: nous reads it through asyncpg, which hands a
        # REAL column over as its exact binary32 value (0.045 is 0.04500000178813934, printed `0.05` by
        # `{:.2f}`), where PostgreSQL's text output, `0.045`, parses to a double that prints `0.04`.
        # float4 → float8 widens exactly; float8send is the IEEE 754 double, big-endian.
        return f'pg_catalog.float8send("{name}"::pg_catalog.float8)'
    return f'"{name}"'


def plain_value(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(value)
    return value


def row_value(name: str, value: Any) -> Any:
    """A cell of a rebuild row as nous's formatters see it (see `row_expr`)."""
    if name == "confidence" and isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        return struct.unpack(">d", data)[0] if len(data) == 8 else None
    return plain_value(value)


def canonical_uuid(text: str) -> str:
    digits = text.replace("-", "").lower()
    if len(digits) != 32:
        return text
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _record(
    report: Report,
    kind: str,
    table: str,
    mid: str,
    title: str,
    body: str,
    summary: str | None,
    tags: str | None,
    confidence: Any,
    status: str,
    superseded_by: str | None,
    created: str | None,
    updated: str | None,
    accessed: str | None,
) -> MemoryRecord | None:
    return make_record(
        report,
        ORIGIN_NOUS,
        None,
        f"{table}:{mid}",
        kind,
        title,
        body,
        summary,
        tags,
        None,
        0.5,
        confidence,
        status,
        superseded_by,
        created,
        updated or created or "",
        accessed,
        0,
        0,
        (),
        title_is_derived=True,
    )


def _decisions(shape: TableShape) -> tuple[str, RowBuilder]:
    t = TEXT_TIME
    sql = (
        f"SELECT id{TEXT}, description, {shape.col('context')}, {shape.col('pattern')}, "
        f"{shape.col('outcome_result')}, {shape.col('outcome')}, "
        f"{shape.col('superseded_by', SUPERSEDED_BY)}, "
        f"{shape.col('confidence')}, {shape.col('category', CATEGORY)}, "
        f"{shape.col('created_at', t.format('created_at'))}, {shape.col('updated_at', t.format('updated_at'))} "
        f"FROM brain.decisions WHERE agent_id {EQ} %s ORDER BY created_at, id"
    )

    def build(report: Report, row: tuple[Any, ...]) -> MemoryRecord | None:
        mid, description, context, pattern, result, outcome, superseded_by, confidence, tags, created, updated = row
        line = _one_line(description)
        title = _clip(line, 120)
        parts = [description] if (title != line or "\n" in (description or "")) else []
        parts += [
            p
            for p in (context, f"Pattern: {pattern}" if pattern else None, f"Outcome: {result}" if result else None)
            if p
        ]
        if outcome == "superseded" or superseded_by:
            status = "superseded"
        elif outcome == "noise":
            status = "archived"
        else:
            status = "active"
        return _record(
            report,
            "decision",
            "decisions",
            mid,
            title,
            "\n\n".join(parts),
            description,
            tags,
            confidence,
            status,
            superseded_by,
            created,
            updated,
            None,
        )

    return sql, build


def _facts(shape: TableShape) -> tuple[str, RowBuilder]:
    t = TEXT_TIME
    created = "coalesce(created_at, learned_at)" if "created_at" in shape.columns else "learned_at"
    sql = (
        f"SELECT id{TEXT}, content, {shape.col('subject')}, {shape.col('confidence')}, {shape.col('active')}, "
        f"{shape.col('superseded_by', SUPERSEDED_BY)}, {shape.col('tags', TAGS)}, "
        f"{t.format(created) if 'learned_at' in shape.columns or 'created_at' in shape.columns else 'NULL'}, "
        f"{shape.col('updated_at', t.format('updated_at'))}, "
        f"{shape.col('last_recalled_at', t.format('last_recalled_at'))} "
        f"FROM heart.facts WHERE agent_id {EQ} %s ORDER BY 8, id"
    )

    def build(report: Report, row: tuple[Any, ...]) -> MemoryRecord | None:
        mid, content, subject, confidence, active, superseded_by, tags, created, updated, recalled = row
        title = _one_line(subject) or v.first_line(content)
        status = "superseded" if superseded_by else ("archived" if active is False else "active")
        return _record(
            report,
            "fact",
            "facts",
            mid,
            title,
            content or "",
            None,
            tags,
            confidence,
            status,
            superseded_by,
            created,
            updated,
            recalled,
        )

    return sql, build


def _procedures(shape: TableShape) -> tuple[str, RowBuilder]:
    t = TEXT_TIME
    sql = (
        f"SELECT id{TEXT}, name, {shape.col('description')}, {shape.col('implementation_notes')}, "
        f"{shape.col('active')}, {shape.col('superseded_by', SUPERSEDED_BY)}, "
        f"{shape.col('archived_at', 'archived_at IS NOT NULL')}, {shape.col('tags', TAGS)}, "
        f"{shape.col('created_at', t.format('created_at'))}, {shape.col('updated_at', t.format('updated_at'))}, "
        f"{shape.col('last_activated', t.format('last_activated'))} "
        f"FROM heart.procedures WHERE agent_id {EQ} %s ORDER BY created_at, id"
    )

    def build(report: Report, row: tuple[Any, ...]) -> MemoryRecord | None:
        mid, name, description, notes, active, superseded_by, archived, tags, created, updated, activated = row
        steps = "\n".join(str(n) for n in (notes or ()) if not str(n).startswith(("source:", "version:")))
        body = "\n\n".join(p for p in (description, steps) if p)
        if superseded_by:
            status = "superseded"
        elif archived or active is False:
            status = "archived"
        else:
            status = "active"
        return _record(
            report,
            "procedure",
            "procedures",
            mid,
            _one_line(name),
            body,
            description,
            tags,
            None,
            status,
            superseded_by,
            created,
            updated,
            activated,
        )

    return sql, build


def _episodes(shape: TableShape) -> tuple[str, RowBuilder]:
    t = TEXT_TIME
    created = "coalesce(started_at, created_at)" if "created_at" in shape.columns else "started_at"
    sql = (
        f"SELECT id{TEXT}, {shape.col('title')}, summary, {shape.col('active')}, "
        f"{shape.col('tags', TAGS)}, "
        f"{t.format(created) if 'started_at' in shape.columns else 'NULL'} "
        f"FROM heart.episodes WHERE agent_id {EQ} %s ORDER BY 6, id"
    )

    def build(report: Report, row: tuple[Any, ...]) -> MemoryRecord | None:
        mid, title, summary, active, tags, created = row
        # nous's own fallback for an untitled episode (context.py:1492): the summary's first 60 characters.
        heading = _one_line(title) or _one_line((summary or "")[:60]) or "Untitled"
        status = "archived" if active is False else "active"
        return _record(
            report,
            "episode",
            "episodes",
            mid,
            heading,
            summary or "",
            None,
            tags,
            None,
            status,
            None,
            created,
            None,
            None,
        )

    return sql, build


MEMORY_READERS: dict[str, MemoryReader] = {
    "brain.decisions": _decisions,
    "heart.facts": _facts,
    "heart.procedures": _procedures,
    "heart.episodes": _episodes,
}
