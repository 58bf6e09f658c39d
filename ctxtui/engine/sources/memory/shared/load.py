"""What one read of a memory store gives (`MemoryLoad`), and the latest date a record may carry.

Shared by the SQLite readers (`adapters`) and nous's PostgreSQL store
(`nous_source`), which `adapters` loads only for a `postgresql://` URL: the
two meet here rather than importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ctxtui.engine.model import Problem
from ctxtui.engine.sources.memory.shared.connect import FileSignature
from ctxtui.engine.sources.memory.shared.records import MemoryRecord

# A date past this is garbage, not a plan (it would otherwise score as brand new).
MAX_DATE = "2200-12-31"


def latest_date(now: datetime | None) -> str:
    """The latest created date a record may have without a problem: a day after `now`, never past MAX_DATE."""
    if now is None:
        return MAX_DATE
    return min(MAX_DATE, (now + timedelta(days=1)).date().isoformat())


@dataclass(frozen=True, slots=True)
class MemoryLoad:
    """Everything one read of a memory database produced.

    `data_version` is `PRAGMA data_version` of the connection that read (only
    comparable with later readings of that same connection; None for an
    immutable one-shot read). `signature` is the file's stat after the read.
    `fingerprint`, when the reader gives one, is a hash of everything the
    records were made from (the cells read, the date bound, the project
    asked for): equal inputs make equal records, so equal fingerprints mean
    the same records. None: compare hashes of the records themselves.
    """

    path: str
    schema: str
    records: list[MemoryRecord]
    problems: list[Problem]
    data_version: int | None
    signature: FileSignature | None
    user_version: int = 0
    fingerprint: int | None = None
