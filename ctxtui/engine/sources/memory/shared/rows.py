"""One database row → one MemoryRecord, every bent value reported as a Problem.

The adapters hand each row's raw cells to `make_record`; well-formed rows
take a fast path that only checks types, anything odd goes through the
careful path in which every substitution (clamped importance, undated
timestamp, derived title, skipped row) leaves a problem naming file and row.
"""

from __future__ import annotations

from itertools import groupby
from operator import itemgetter
from typing import Any

from ctxtui.engine.model import Problem
from ctxtui.engine.sources.memory.shared import values as v
from ctxtui.engine.sources.memory.shared.records import STATUSES, MemoryRecord


class Report:
    """Collects problems, each naming the file and the row."""

    __slots__ = ("dates", "inputs_hash", "latest_date", "path", "problems", "seen", "tag_cache")

    def __init__(self, path: str, problems: list[Problem], latest_date: str) -> None:
        self.path = path
        self.problems = problems
        self.latest_date = latest_date
        # A reader that can sets it: a hash of every cell its records were made from (see `MemoryLoad.fingerprint`).
        self.inputs_hash: int | None = None
        self.seen: set[str] = set()
        self.tag_cache: dict[Any, tuple[str, ...]] = {}  # raw tags JSON → tuple: tag sets repeat a lot
        self.dates: dict[str, str] = {}  # "YYYY-MM-DD" prefixes already proven valid and in range

    def note(self, message: str) -> None:
        self.problems.append(Problem(self.path, message))

    def row(self, rowid: int | None, mid: object, message: str) -> None:
        where = f"row {rowid}" if rowid is not None else "row"
        if mid is not None:
            where += f" (id {v.show(mid)})"
        self.problems.append(Problem(self.path, f"{where}: {message}"))


def make_record(
    report: Report,
    origin: str,
    rowid: int | None,
    mid: Any,
    kind: Any,
    title: Any,
    body: Any,
    summary: Any,
    tags_raw: Any,
    project: Any,
    importance_raw: Any,
    confidence_raw: Any,
    status_raw: Any,
    superseded_by: Any,
    created_raw: Any,
    updated_raw: Any,
    last_accessed: Any,
    retrieved: int,
    referenced: int,
    events: tuple[tuple[str, str], ...],
    imported_from: str | None = None,
    title_is_derived: bool = False,
) -> MemoryRecord | None:
    """Clean one row's values into a record, reporting every bend; None skips it.

    Well-formed rows (nearly all of them) take the first branch, which only
    checks types; anything odd goes through `_record_careful`.
    """
    if (
        type(mid) is str
        and mid
        and type(title) is str
        and title
        and not title.isspace()
        and type(kind) is str
        and kind
        and not kind.isspace()
        and status_raw in _STATUSES
        and type(importance_raw) is float
        and 0.0 <= importance_raw <= 1.0
        and (body is None or type(body) is str)
        and (summary is None or type(summary) is str)
        and (project is None or type(project) is str)
        and (superseded_by is None or type(superseded_by) is str)
        and (confidence_raw is None or (type(confidence_raw) is float and 0.0 <= confidence_raw <= 1.0))
        and type(created_raw) is str
        and type(updated_raw) is str
        and (last_accessed is None or type(last_accessed) is str)
        and mid not in report.seen
        and (title.isascii() or v.is_clean(title))
        and v.is_clean(body)
        and v.is_clean(summary)
        and v.is_clean(kind)
        and v.is_clean(project)
    ):
        tags = report.tag_cache.get(tags_raw)
        if tags is None:
            tags, complaint = v.tags(tags_raw)
            if complaint is None:
                report.tag_cache[tags_raw] = tags
        else:
            complaint = None
        date = report.dates.get(created_raw[:10]) if created_raw[10:11] in _DATE_ENDS else None
        if date is None:
            date = v.date_prefix(created_raw)
            if date is not None:
                if v.MIN_DATE <= date <= report.latest_date:
                    report.dates[date] = date
                else:
                    date = None
        if complaint is None and date is not None:
            status = status_raw
            if superseded_by == "":
                superseded_by = None
            elif superseded_by is not None and (status == "active" or status == "pending"):
                status = "superseded"
            report.seen.add(mid)
            return MemoryRecord(
                origin,
                mid,
                kind,
                title,
                body or "",
                summary or None,
                tags,
                project or None,
                importance_raw,
                status,
                superseded_by,
                created_raw,
                date,
                updated_raw,
                last_accessed or None,
                retrieved,
                referenced,
                events,
                rowid,
                confidence_raw,
                imported_from,
            )
    return _record_careful(
        report,
        origin,
        rowid,
        mid,
        kind,
        title,
        body,
        summary,
        tags_raw,
        project,
        importance_raw,
        confidence_raw,
        status_raw,
        superseded_by,
        created_raw,
        updated_raw,
        last_accessed,
        retrieved,
        referenced,
        events,
        imported_from,
        title_is_derived,
    )


_STATUSES = frozenset(STATUSES)
_DATE_ENDS = frozenset(("", "T", "t", " "))


def _record_careful(
    report: Report,
    origin: str,
    rowid: int | None,
    mid: Any,
    kind: Any,
    title: Any,
    body: Any,
    summary: Any,
    tags_raw: Any,
    project: Any,
    importance_raw: Any,
    confidence_raw: Any,
    status_raw: Any,
    superseded_by: Any,
    created_raw: Any,
    updated_raw: Any,
    last_accessed: Any,
    retrieved: int,
    referenced: int,
    events: tuple[tuple[str, str], ...],
    imported_from: str | None,
    title_is_derived: bool,
) -> MemoryRecord | None:
    if mid is None or mid == "":
        report.row(rowid, None, "no id: skipped")
        return None
    if type(mid) is not str:
        mid = v.text(mid)
    if mid in report.seen:
        report.row(rowid, mid, "duplicate id: skipped")
        return None
    body = v.text(body) or ""
    title = v.text(title)
    summary, kind, project = v.text(summary), v.text(kind), v.text(project)
    if not all(map(v.is_clean, (mid, title, body, summary, kind, project))):
        fields = zip(
            ("id", "title", "body", "summary", "kind", "project"),
            (mid, title, body, summary, kind, project),
            strict=True,
        )
        bent = [name for name, text in fields if not v.is_clean(text)]
        report.row(rowid, v.without_surrogates(mid), f"{', '.join(bent)} {v.SURROGATE_NOTE}")
        mid, body = v.without_surrogates(mid), v.without_surrogates(body)
        title, summary, kind, project = (_fixed(text) for text in (title, summary, kind, project))
    if not title or not title.strip():
        title = v.first_line(v.text(summary)) or v.first_line(body)
        if not title:
            report.row(rowid, mid, "no title and no body: skipped")
            return None
        if not title_is_derived:
            report.row(rowid, mid, "title is missing: first line of the summary or body used")
    if not kind or not kind.strip():
        report.row(rowid, mid, "kind is missing: treated as a plain memory")
        kind = "memory"
    status = status_raw if status_raw in _STATUSES else _status(report, rowid, mid, status_raw)
    superseded_by = v.text(superseded_by) or None
    if superseded_by is not None and status in ("active", "pending"):
        status = "superseded"
    importance, complaint = v.importance(importance_raw)
    if complaint:
        report.row(rowid, mid, complaint)
    confidence, complaint = v.confidence(confidence_raw)
    if complaint:
        report.row(rowid, mid, complaint)
    tags, complaint = v.tags(tags_raw)
    if complaint:
        report.row(rowid, mid, complaint)
    date, complaint = v.created_date(created_raw)
    if complaint:
        report.row(rowid, mid, complaint)
    elif date is not None and date > report.latest_date:
        report.row(rowid, mid, f"created_at {v.show(created_raw)} is in the future: scored as undated")
        date = None
    summary = v.text(summary) or None
    project = v.text(project) or None
    report.seen.add(mid)
    return MemoryRecord(
        origin,
        mid,
        kind,
        title,
        body,
        summary,
        tags,
        project,
        importance,
        status,
        superseded_by,
        v.timestamp(created_raw),
        date,
        v.timestamp(updated_raw),
        v.text(last_accessed) or None,
        retrieved,
        referenced,
        events,
        rowid,
        confidence,
        imported_from,
    )


def _fixed(text: str | None) -> str | None:
    return None if text is None else v.without_surrogates(text)


def _status(report: Report, rowid: int | None, mid: object, raw: object) -> str:
    text = (v.text(raw) or "").strip().lower()
    if text in STATUSES:
        return text
    if not text:
        report.row(rowid, mid, "status is missing: treated as active")
    else:
        report.row(rowid, mid, f"unknown status {v.show(raw)}: treated as active")
    return "active"


NO_COUNTS = (0, 0)  # (retrieved, referenced) for a memory with no usage rows
_PAIR = itemgetter(1, 2)
_FIRST = itemgetter(0)


def grouped_events(rows: list[tuple[Any, ...]]) -> dict[Any, tuple[tuple[str, str], ...]]:
    """memory id → ((at, event), ...) from rows sorted by memory id, built in C loops."""
    return {mid: tuple(map(_PAIR, group)) for mid, group in groupby(rows, _FIRST)}
