"""Which packers a memory store can feed: its kind, from its schema (never its file name).

Any store joins ctx's packets as memories; a Shabka store is also the whole
input of `shabka context-pack`, a Cortex v1 store of `drift memory why`, and
a nous database (a PostgreSQL URL) of nous's per-frame sections.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ctxtui.engine.packers.registry import CTX_PACKERS
from ctxtui.engine.sources.memory.shared.urls import is_db_url

NOUS = "nous"
PACKER_OF_STORE = {"shabka": "shabka", "cortex": "cortex", NOUS: "nous"}  # the one a store opens with
PACKERS_OF_STORE = {"shabka": ("shabka", "shabka-mcp"), "cortex": ("cortex",), NOUS: ("nous",)}  # all it feeds


def store_kind(db: str | Path | None) -> str | None:
    """ "ctxtui", "shabka", "cortex", "cortex-v2", "nous", or None (no store, or one that cannot be read)."""
    if db is None:
        return None
    if is_db_url(str(db)):
        return NOUS
    from ctxtui.engine.sources.memory.shared.connect import check_header, open_readonly, quiet
    from ctxtui.engine.sources.memory.shared.detect import detect_schema
    from ctxtui.engine.sources.memory.shared.errors import MemorySourceError

    try:
        header = check_header(db)
        conn = open_readonly(db, immutable=quiet(db, header))
        try:
            return detect_schema(conn, db).schema
        finally:
            conn.close()
    except (MemorySourceError, OSError, sqlite3.Error):  # unreadable here: it feeds no packer (the load says why)
        return None


def packers_for(has_context: bool, kind: str | None) -> tuple[str, ...]:
    """The packers these sources allow: ctx's when there is a context directory, the store's own packer."""
    names: list[str] = list(CTX_PACKERS) if has_context else []
    names.extend(PACKERS_OF_STORE.get(kind or "", ()))
    return tuple(names)
