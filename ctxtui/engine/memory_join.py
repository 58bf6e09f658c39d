"""Database memories as packet entries, with provenance.

A memory becomes an entry block rendered like a decision or learning
(`## [date-time] Title`, blank line, body), joins the section its kind
decides, and carries what the database knows (importance, usage) into its
score. Loading problems never stop `.context/` from working.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ctxtui.engine.budget import estimate
from ctxtui.engine.model import Entry, Problem


def memory_entry(record, now: datetime) -> Entry:
    """One memory record as an entry of its section."""
    from ctxtui.engine.memory.scoring import section_for_kind, usage_boost

    date = record.created_date or "0000-00-00"
    stamp = _header_time(record.created_at)
    title = " ".join(record.title.split("\n")) if record.title else f"({record.kind} {record.id})"
    body = record.body.strip("\n") if record.body else (record.summary or "")
    text = f"## [{date}-{stamp}] {title}\n\n{body}" if body else f"## [{date}-{stamp}] {title}"
    usage = usage_boost(record.times_retrieved, record.times_referenced, record.usage_events, now)
    return Entry(
        key=f"memory:{record.provenance}",
        section=section_for_kind(record.kind),
        title=title,
        text=text,
        tokens=estimate(text),
        source=record.provenance,
        date=record.created_date,
        importance=record.importance,
        usage=usage,
        status=record.status,
        kind=record.kind,
    )


def _header_time(created_at: str | None) -> str:
    """HHMMSS from an ISO timestamp, as ctx's entry headers carry it."""
    if created_at and len(created_at) >= 19 and created_at[10] in "T ":
        digits = created_at[11:19].replace(":", "")
        if digits.isdigit() and len(digits) == 6:
            return digits
    return "000000"


def attach_memories(workspace, path: Path, *, project: str | None, now: datetime) -> None:
    """Load a memory database into the workspace; failures become problems, never exceptions."""
    from ctxtui.engine.memory.adapters import MemorySourceError, load_memories

    try:
        loaded = load_memories(path, project=project, now=now)
    except MemorySourceError as exc:
        workspace.memories = []
        workspace.memory_problems = [Problem(str(path), str(exc))]
        return
    workspace.memories = [memory_entry(record, now) for record in loaded.records]
    workspace.memory_problems = list(loaded.problems)
