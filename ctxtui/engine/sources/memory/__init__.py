"""Memory databases as a source of packet entries: read-only, schema-detecting, live.

`load_memories(path)` reads ctxtui's own database, Shabka's or Cortex's into
`MemoryRecord`s (or, given a `postgresql://` URL, nous's tables through
`nous_store`, the only module that imports psycopg; `nous_source` watches one); `MemorySource` keeps watching a
file; `schema` is the only code that writes (ctxtui's own file, and imports into it); `scoring` holds the
usage boost and the kind → section rule.
Pure Python and stdlib `sqlite3`; no clock reads ("now" is a parameter).
"""

from ctxtui.engine.sources.memory.adapters import (
    SCHEMA_CORTEX,
    SCHEMA_CORTEX_V2,
    SCHEMA_CTXTUI,
    SCHEMA_SHABKA,
    MemoryLoad,
    detect_schema,
    load_memories,
)
from ctxtui.engine.sources.memory.connect import FileSignature
from ctxtui.engine.sources.memory.errors import MemorySourceError, MemoryWriteError
from ctxtui.engine.sources.memory.records import MemoryRecord
from ctxtui.engine.sources.memory.schema import ImportReport, add_memories, add_memory, import_db, init_db
from ctxtui.engine.sources.memory.scoring import importance_of, section_for_kind, usage_boost, usage_of
from ctxtui.engine.sources.memory.source import MemorySource

__all__ = [
    "SCHEMA_CORTEX",
    "SCHEMA_CORTEX_V2",
    "SCHEMA_CTXTUI",
    "SCHEMA_SHABKA",
    "FileSignature",
    "ImportReport",
    "MemoryLoad",
    "MemoryRecord",
    "MemorySource",
    "MemorySourceError",
    "MemoryWriteError",
    "add_memories",
    "add_memory",
    "detect_schema",
    "import_db",
    "importance_of",
    "init_db",
    "load_memories",
    "section_for_kind",
    "usage_boost",
    "usage_of",
]
