"""A live, read-only memory database: notices other processes' commits and reloads.

`MemorySource` keeps no connection open. Each `load()` is one read through
`snapshot.read_snapshot`, which leaves no `-wal`/`-shm` behind (a kept
connection used to create both beside a WAL database and could not delete
them), and which a worker can run while another process writes. Between
loads, `changed()` compares `snapshot.change_token` — stat results and
headers, then (only when those moved) a hash of the bytes — as of just
before the last good read (`token_beside` hashes beside the read), so a commit is never missed (a commit during a
read changes the token after it) and a `touch` is not a change.

A token can move without new data (a checkpoint copies the WAL into the
main file): `reload()` then reads, finds the same records, and says
nothing changed. A failed load raises `MemorySourceError` and leaves `last`
— the last good load — untouched, so a UI can show the error line beside the
old data. One source must not be used from two threads at the same time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from ctxtui.engine.sources.memory.adapters import load_memories
from ctxtui.engine.sources.memory.shared.connect import DEFAULT_DELAYS, wal_path
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
from ctxtui.engine.sources.memory.shared.load import MemoryLoad
from ctxtui.engine.sources.memory.shared.snapshot import ChangeToken, still_same, token_beside


class MemorySource:
    """One memory database, watched: `load()` once, then `reload()` when told to look."""

    def __init__(
        self,
        path: str | Path,
        project: str | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        delays: tuple[float, ...] = DEFAULT_DELAYS,
        keep_records: bool = True,
    ):
        self.path = str(path)
        self.project = project
        # False: `last` keeps the problems and versions but not the records (a caller that made its
        # own entries from them need not hold 50,000 records twice: ~80 MB); `reload` compares
        # fingerprints either way.
        self.keep_records = keep_records
        self._fingerprint: int | None = None
        self.last: MemoryLoad | None = None
        self.error: MemorySourceError | None = None
        self._sleep = sleep
        self._delays = delays
        self._token: ChangeToken | None = None

    def watch_paths(self) -> tuple[str, str]:
        """The database and its `-wal`: a commit by a WAL writer touches only the latter."""
        return (self.path, wal_path(self.path))

    def changed(self) -> bool:
        """True when something on disk moved since the last good load (a commit, a checkpoint, a replaced
        or removed file) — or when there has been none, or the last attempt failed. Costs a few stat calls (a
        hash of the files when those moved)."""
        if self.last is None or self.error is not None or self._token is None:
            return True
        token = still_same(self.path, self._token)
        if token is None:
            return True
        self._token = token  # times moved, bytes did not: next time the quick look suffices again
        return False

    def load(self, now: datetime | None = None) -> MemoryLoad:
        """Read everything now. On failure raise MemorySourceError and keep `last`."""
        try:
            # The token as of just before the read (a commit during it shows as a change next time), hashed beside it.
            load, token = token_beside(
                self.path,
                lambda: load_memories(self.path, self.project, now=now, sleep=self._sleep, delays=self._delays),
            )
        except MemorySourceError as exc:
            self.error = exc
            raise
        self.error = None
        self._fingerprint = fingerprint(load)
        self.last = load if self.keep_records else replace(load, records=[])
        self._token = token
        return load

    def reload(self, now: datetime | None = None) -> MemoryLoad | None:
        """A fresh load if `changed()` and the records differ (or the last attempt failed), else None."""
        if not self.changed():
            return None
        before, seen, failed = self.last, self._fingerprint, self.error is not None
        load = self.load(now)
        if before is not None and not failed and self._fingerprint == seen and load.problems == before.problems:
            return None  # the files moved, the data did not (a checkpoint)
        return load

    def close(self) -> None:
        """Nothing to release: no connection outlives a load."""

    def __enter__(self) -> MemorySource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def fingerprint(load: MemoryLoad) -> int:
    """Equal records give equal fingerprints: the reader's hash of its inputs, else the records' own hash.

    (Inputs can only differ where records would too, or where a cell hashes
    by identity, a NaN: then a checkpoint reads as a change, and the screen
    is redrawn with the same records.)
    """
    if load.fingerprint is not None:
        return load.fingerprint
    return hash(tuple(load.records))
