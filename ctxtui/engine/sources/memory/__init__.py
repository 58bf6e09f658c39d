"""Memory databases as a source of packet entries: read-only, schema-detecting, live.

`load_memories(path)` reads ctxtui's own database, Shabka's or Cortex's into
`MemoryRecord`s (or, given a `postgresql://` URL, nous's tables through
`nous_store`, the only module that imports psycopg; `nous_source` watches one); `MemorySource` keeps watching a
file; `schema` is the only code that writes (ctxtui's own file, and imports into it); `scoring` holds the
usage boost and the kind → section rule.
Pure Python and stdlib `sqlite3`; no clock reads ("now" is a parameter).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ctxtui.engine.sources.memory.adapters import (
        SCHEMA_CORTEX,
        SCHEMA_CORTEX_V2,
        SCHEMA_CTXTUI,
        SCHEMA_SHABKA,
        MemoryLoad,
        detect_schema,
        load_memories,
    )
    from ctxtui.engine.sources.memory.importing import ImportReport, import_db
    from ctxtui.engine.sources.memory.native.schema import add_memories, add_memory, init_db
    from ctxtui.engine.sources.memory.shared.connect import FileSignature
    from ctxtui.engine.sources.memory.shared.errors import MemorySourceError, MemoryWriteError
    from ctxtui.engine.sources.memory.shared.records import MemoryRecord
    from ctxtui.engine.sources.memory.shared.scoring import importance_of, section_for_kind, usage_boost, usage_of
    from ctxtui.engine.sources.memory.source import MemorySource

# Each name is imported from its module on first use (PEP 562): `import ...memory.records`
# (the CLI's option list needs its KINDS) must not pay for sqlite3, hashlib and the
# readers, which only a --db needs.
_HOME = {
    "SCHEMA_CORTEX": "adapters",
    "SCHEMA_CORTEX_V2": "adapters",
    "SCHEMA_CTXTUI": "adapters",
    "SCHEMA_SHABKA": "adapters",
    "MemoryLoad": "adapters",
    "detect_schema": "adapters",
    "load_memories": "adapters",
    "FileSignature": "shared.connect",
    "MemorySourceError": "shared.errors",
    "MemoryWriteError": "shared.errors",
    "MemoryRecord": "shared.records",
    "ImportReport": "importing",
    "add_memories": "native.schema",
    "add_memory": "native.schema",
    "import_db": "importing",
    "init_db": "native.schema",
    "importance_of": "shared.scoring",
    "section_for_kind": "shared.scoring",
    "usage_boost": "shared.scoring",
    "usage_of": "shared.scoring",
    "MemorySource": "source",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


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
