"""One memory, as read from any supported database, in ctxtui's own terms.

Every adapter (ctxtui's own schema, Shabka, Cortex) turns its rows into
`MemoryRecord`s, so the rest of the engine never sees a peer's column names.
Text fields are untrusted database content, kept as plain `str`: whoever
displays them escapes them.
"""

from __future__ import annotations

from ctxtui.engine.frozen import frozen_record

# Where a record was read from; also the prefix of its provenance.
ORIGIN_NATIVE = "memory.db"
ORIGIN_SHABKA = "shabka"
ORIGIN_CORTEX = "cortex"
ORIGIN_NOUS = "nous"  # PostgreSQL; the id carries the table: nous:<table>:<uuid>
ORIGINS = (ORIGIN_NATIVE, ORIGIN_SHABKA, ORIGIN_CORTEX, ORIGIN_NOUS)

STATUSES = ("active", "pending", "archived", "superseded")

# The kinds `ctxtui memory add` accepts: the peers' kinds that mean something
# to the packet (decision → Recent Decisions; learning-like → Key Learnings;
# the rest → Memories). Readers accept any kind a store holds.
KINDS = (
    "decision",
    "learning",
    "lesson",
    "fix",
    "error",
    "gotcha",
    "fact",
    "note",
    "observation",
    "pattern",
    "preference",
    "procedure",
    "todo",
)

# Usage event names in ctxtui's own schema. Only "retrieved" and "referenced"
# count for the usage boost; "included" is kept for display.
EVENT_RETRIEVED = "retrieved"
EVENT_INCLUDED = "included"
EVENT_REFERENCED = "referenced"


@frozen_record  # frozen for type checkers, built at a plain dataclass's speed (frozen.py)
class MemoryRecord:
    """A memory, normalised: importance in [0, 1], a known status, a parsed date.

    `created_at` is the timestamp exactly as stored ("" when missing);
    `created_date` is its "YYYY-MM-DD" when it parses to a plausible date,
    else None (then it scores as undated, as ctx scores an unparseable date).
    `row` is the SQLite rowid, for problem messages.
    """

    origin: str
    id: str
    kind: str
    title: str
    body: str
    summary: str | None
    tags: tuple[str, ...]
    project: str | None
    importance: float
    status: str
    superseded_by: str | None
    created_at: str
    created_date: str | None
    updated_at: str
    last_accessed: str | None
    times_retrieved: int
    times_referenced: int
    usage_events: tuple[tuple[str, str], ...] = ()
    row: int | None = None
    confidence: float | None = None
    # For rows of ctxtui's own db that were imported: "shabka:<id>" etc.
    imported_from: str | None = None

    @property
    def provenance(self) -> str:
        """Where the memory came from, as every UI and JSON output shows it."""
        return f"{self.origin}:{self.id}"
