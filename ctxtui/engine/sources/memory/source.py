"""A live, read-only memory database: notices other processes' commits and reloads.

`MemorySource` keeps one read-only connection open and asks SQLite's
`PRAGMA data_version`, which changes exactly when *another* connection has
committed. That is cheaper and more reliable than file times (a WAL commit
only touches `-wal`; a checkpoint touches the main file without changing any
data). A file replaced on disk (new inode) also counts as changed.

A failed reload raises `MemorySourceError` and leaves `last` — the last good
load — untouched, so a UI can show the error line beside the old data.

Keeping the connection open has a cost worth knowing: for a WAL database it
creates `-wal`/`-shm` if they are absent, and they stay after we close (a
read-only connection may not delete them). The main file is never written.
Watch `watch_paths()` (the file and its `-wal`), never the `-shm`: readers,
including this one, write to it, which would wake the watcher forever.
One source must not be used from two threads at the same time.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from ctxtui.engine.sources.memory.adapters import read_load
from ctxtui.engine.sources.memory.connect import (
    DEFAULT_DELAYS,
    check_header,
    open_readonly,
    signature,
    wal_path,
    with_retry,
)
from ctxtui.engine.sources.memory.errors import MemorySourceError
from ctxtui.engine.sources.memory.load import MemoryLoad


class MemorySource:
    """One memory database, watched: `load()` once, then `reload()` when told to look."""

    def __init__(
        self,
        path: str | Path,
        project: str | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        delays: tuple[float, ...] = DEFAULT_DELAYS,
    ):
        self.path = str(path)
        self.project = project
        self.last: MemoryLoad | None = None
        self.error: MemorySourceError | None = None
        self._sleep = sleep
        self._delays = delays
        self._conn: sqlite3.Connection | None = None
        self._ident: tuple[int, int] | None = None

    def watch_paths(self) -> tuple[str, str]:
        """The database and its `-wal`: a commit by a WAL writer touches only the latter."""
        return (self.path, wal_path(self.path))

    def changed(self) -> bool:
        """True when another connection committed, or the file was replaced or removed,
        since the last good load — or when there has been none, or the last attempt failed."""
        if self._conn is None or self.last is None or self.error is not None:
            return True
        sig = signature(self.path)
        if sig is None or sig.ident != self._ident:
            return True
        try:
            version: int | None = self._conn.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            # Busy (a writer is at work) or worse: either way only a reload can tell.
            return True
        return version != self.last.data_version

    def load(self, now: datetime | None = None) -> MemoryLoad:
        """Read everything now. On failure raise MemorySourceError and keep `last`."""
        try:
            load = with_retry(lambda: self._read(now), self.path, sleep=self._sleep, delays=self._delays)
        except MemorySourceError as exc:
            self.error = exc
            raise
        self.error = None
        self.last = load
        return load

    def reload(self, now: datetime | None = None) -> MemoryLoad | None:
        """A fresh load if `changed()`, else None."""
        if not self.changed():
            return None
        return self.load(now)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self._ident = None

    def __enter__(self) -> MemorySource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read(self, now: datetime | None) -> MemoryLoad:
        sig = signature(self.path)
        if self._conn is None or sig is None or sig.ident != self._ident:
            self.close()
            check_header(self.path)
            self._conn = open_readonly(self.path)
            self._ident = sig.ident if sig is not None else None
        return read_load(self._conn, self.path, self.project, now)
