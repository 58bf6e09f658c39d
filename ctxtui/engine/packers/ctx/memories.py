"""Database memories joined to the ctx packet: the one join, used by the CLI and the TUI alike.

A memory becomes an entry block rendered like a decision or learning
(`## [date-time] Title`, blank line, body), joins the section its kind
decides, and carries what the database knows (importance, usage) into its
score. Loading problems never stop `.context/` from working: they come back
as `Problem`s, and a live join keeps the last good memories when a reload fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import Entry, Problem
from ctxtui.engine.sources.memory.adapters import load_memories
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
from ctxtui.engine.sources.memory.shared.records import MemoryRecord
from ctxtui.engine.sources.memory.shared.scoring import section_for_kind, usage_boost
from ctxtui.engine.sources.memory.shared.urls import is_db_url, redact
from ctxtui.engine.sources.memory.source import MemorySource
from ctxtui.engine.sources.workspace import Workspace
from ctxtui.engine.text.tokens import estimate

if TYPE_CHECKING:
    from ctxtui.engine.sources.memory.nous.source import NousSource


RELEASE_SLICE = 4096  # records freed per C call by `release_records` (~4 ms each)


def memory_entry(record: MemoryRecord, now: datetime) -> Entry:
    """One memory record as an entry of its section.

    Made 50,000 times at a start: the fields go in by position (keywords cost
    ~20% more), in Entry's order.
    """
    date = record.created_date
    # One line: every "\n" becomes a space (as " ".join(title.split("\n")) would, in one C call).
    title = record.title.replace("\n", " ") if record.title else f"({record.kind} {record.id})"
    body = record.body.strip("\n") if record.body else (record.summary or "")
    header = f"## [{date or '0000-00-00'}-{_header_time(record.created_at)}] {title}"
    text = f"{header}\n\n{body}" if body else header
    usage = usage_boost(record.times_retrieved, record.times_referenced, record.usage_events, now)
    source = record.provenance
    kind = record.kind
    return Entry(
        f"memory:{source}",  # key
        section_for_kind(kind),  # section
        title,
        text,
        estimate(text),  # tokens
        source,
        date,
        False,  # superseded: for a memory, `status` says so (the packer reads it as inactive)
        record.importance,
        usage,
        record.status,
        kind,
    )


def _header_time(created_at: str | None) -> str:
    """HHMMSS from an ISO timestamp, as ctx's entry headers carry it."""
    if created_at and len(created_at) >= 19 and created_at[10] in "T ":
        digits = created_at[11:19].replace(":", "")
        if digits.isdigit() and len(digits) == 6:
            return digits
    return "000000"


@dataclass(slots=True)
class JoinedMemories:
    """What a join produced: entries for the packer, and what went wrong reading them."""

    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    fresh: bool = True  # False: the last good entries again (nothing new, or the read failed)


class MemoryJoin:
    """One memory database joined to the packet: a SQLite file, or nous's PostgreSQL by URL.

    One-shot (`live=False`, the CLI): a single read, immutable when no writer is
    attached. Live (`live=True`, the TUI): through a `MemorySource` that keeps a
    connection to notice other processes' commits (`changed()`), and keeps the
    last good memories when a reload fails.
    """

    def __init__(
        self, path: str | Path, project: str | None = None, *, live: bool = False, agent: str | None = None
    ) -> None:
        # A PostgreSQL URL (nous) is not a path: Path() would fold its "//".
        self.url = str(path).strip() if is_db_url(path) else None
        self.path: str | Path = self.url if self.url is not None else Path(path)
        self.project = project
        self.agent = agent
        self.source: MemorySource | NousSource | None = None
        if live:
            if self.url is not None:
                from ctxtui.engine.sources.memory.nous.source import NousSource

                self.source = NousSource(self.url, agent=agent, project=project)
            else:
                self.source = MemorySource(self.path, project=project, keep_records=False)  # entries are kept here
        self._last: list[Entry] = []
        self._problems: list[Problem] = []
        self._made_from: list[MemoryRecord] = []  # the records `_last` was made from, until `release_records()`

    @property
    def label(self) -> str:
        """The database as problems name it (a URL without its password)."""
        return redact(self.url) if self.url is not None else str(self.path)

    def changed(self) -> bool:
        """True when a reload could bring something new (always, for a one-shot join)."""
        return self.source is None or self.source.changed()

    def load(self, now: datetime, *, refresh: bool = True) -> JoinedMemories:
        """The memories as entries; a failure is a Problem, never an exception.

        `refresh=False` (a live join after only `.context/` changed) reuses the
        last good entries without asking the database anything.
        """
        if not refresh and self.source is not None and self.source.last is not None:
            return JoinedMemories(list(self._last), list(self._problems), fresh=False)
        joined = self._read(now)
        self._problems = joined.problems
        return joined

    def _read(self, now: datetime) -> JoinedMemories:
        try:
            if self.source is None:
                loaded = load_memories(self.path, self.project, now=now, agent=self.agent)
            elif self.source.last is None or self.source.error is not None:
                loaded = self.source.load(now=now)
            else:
                fresh = self.source.reload(now=now)
                if fresh is None:  # no commit since: the entries built last time still hold
                    return JoinedMemories(list(self._last), list(self.source.last.problems), fresh=False)
                loaded = fresh
        except MemorySourceError as exc:
            kept = "; showing the last good state" if self._last else ""
            return JoinedMemories(list(self._last), [Problem(self.label, f"{exc}{kept}")], fresh=False)
        with gc_paused():  # 50,000 acyclic entries: collections would only traverse the heap
            entries = [memory_entry(record, now) for record in loaded.records]
        self._last, self._made_from = entries, loaded.records
        return JoinedMemories(entries, list(loaded.problems))

    def release_records(self) -> None:
        """Free the records the last entries were made from, a slice at a time.

        Freeing 50,000 records and their usage events takes ~45 ms; inside the
        load it delayed the first screen, so the TUI calls this after a load's
        first frame. In slices, so another thread gets the GIL between them
        (freeing one list is a single C call that never lets it go), of a copy
        of the list: a source that keeps its last load (nous's) keeps its list.
        """
        records, self._made_from = list(self._made_from), []
        while records:
            del records[-RELEASE_SLICE:]

    def close(self) -> None:
        if self.source is not None:
            self.source.close()


def attach_memories(
    workspace: Workspace, path: str | Path, *, project: str | None = None, now: datetime, agent: str | None = None
) -> None:
    """Join a memory database (a file, or a nous `postgresql://` URL) to `workspace` once (the headless way)."""
    joined = MemoryJoin(path, project, agent=agent).load(now)
    workspace.memories, workspace.memory_problems = joined.entries, joined.problems
