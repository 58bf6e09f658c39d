"""Opening a memory database read-only, retrying while it is locked, and
naming the reason when it cannot be read.

Every connection is `file:...?mode=ro`: ctxtui never writes to a database it
reads. A WAL database whose `-wal` and `-shm` are absent (no writer attached)
is opened with `immutable=1` for one-shot reads, because a plain read-only
open would leave an empty `-wal` and a `-shm` behind (SQLite's WAL read
protocol needs the shared-memory index, and a read-only connection cannot
delete the files afterwards). The caller checks the file did not change
during such a read and falls back to a normal read-only open if it did.
Live watching always needs the normal open, since `PRAGMA data_version` only
reports other connections' commits through it.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ctxtui.engine.sources.memory.shared.errors import (
    CORRUPT,
    LOCKED,
    MISSING,
    NOT_SQLITE,
    UNREADABLE,
    MemorySourceError,
)

SQLITE_MAGIC = b"SQLite format 3\x00"

# Back-off between attempts on a locked database: 0.98 s in all, so a UI
# polling in a worker never waits much more than a second for a verdict.
DEFAULT_DELAYS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.3)

_BUSY, _LOCKED, _CORRUPT, _NOTADB, _CANTOPEN, _IOERR, _READONLY, _PERM, _AUTH = 5, 6, 11, 26, 14, 10, 8, 3, 23

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class FileSignature:
    """What the file system says about the database and its `-wal`.

    Compare two signatures to see whether anything on disk moved; the inode
    (`dev`, `ino`) tells a replaced file from a modified one.
    """

    dev: int
    ino: int
    size: int
    mtime_ns: int
    wal_size: int | None = None
    wal_mtime_ns: int | None = None

    @property
    def ident(self) -> tuple[int, int]:
        return (self.dev, self.ino)


def wal_path(path: str | Path) -> str:
    return f"{path}-wal"


def shm_path(path: str | Path) -> str:
    return f"{path}-shm"


def signature(path: str | Path) -> FileSignature | None:
    """The file's signature, or None when it does not exist."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    wal_size: int | None
    wal_mtime: int | None
    try:
        wal = os.stat(wal_path(path))
        wal_size, wal_mtime = wal.st_size, wal.st_mtime_ns
    except OSError:
        wal_size = wal_mtime = None
    return FileSignature(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, wal_size, wal_mtime)


def check_header(path: str | Path) -> bytes:
    """The 100-byte SQLite header, after ruling out a missing, empty, foreign or non-regular file.

    A FIFO or a device is refused before it is opened (reading one would
    block or never end); the open itself never blocks either.
    """
    p = Path(path)
    try:
        info = os.stat(p)
    except FileNotFoundError:
        why = "is a symbolic link to a file that does not exist" if os.path.islink(p) else "no such file"
        raise MemorySourceError(str(path), why, MISSING) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise MemorySourceError(str(path), "is a symbolic link loop", UNREADABLE) from None
        raise MemorySourceError(str(path), f"cannot read: {exc.strerror or exc}", UNREADABLE) from exc
    if stat.S_ISDIR(info.st_mode):
        raise MemorySourceError(str(path), "is a directory, not a database file", UNREADABLE)
    if not stat.S_ISREG(info.st_mode):
        kind = "a FIFO (named pipe)" if stat.S_ISFIFO(info.st_mode) else "a device or socket"
        raise MemorySourceError(str(path), f"is {kind}, not a database file", UNREADABLE)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            header = os.read(fd, 100)
        finally:
            os.close(fd)
    except OSError as exc:
        raise MemorySourceError(str(path), f"cannot read: {exc.strerror or exc}", UNREADABLE) from exc
    if not header:
        raise MemorySourceError(str(path), "is an empty file, not a memory database", NOT_SQLITE)
    if not header.startswith(SQLITE_MAGIC):
        raise MemorySourceError(str(path), "is not an SQLite database", NOT_SQLITE)
    if len(header) < 100:
        raise MemorySourceError(str(path), "is truncated: shorter than an SQLite header", CORRUPT)
    return header


def is_wal_mode(header: bytes) -> bool:
    """Bytes 18-19 of the header are 2 for a database in WAL mode."""
    return header[18] == 2 or header[19] == 2


def quiet(path: str | Path, header: bytes) -> bool:
    """True for a WAL database with no -wal or -shm: no writer attached, so an
    immutable open reads everything and leaves no files behind."""
    return is_wal_mode(header) and not os.path.exists(wal_path(path)) and not os.path.exists(shm_path(path))


def open_readonly(path: str | Path, *, immutable: bool = False) -> sqlite3.Connection:
    """A read-only connection that never waits on locks by itself (we back off)."""
    uri = Path(path).absolute().as_uri() + "?mode=ro" + ("&immutable=1" if immutable else "")
    conn = sqlite3.connect(uri, uri=True, timeout=0, isolation_level=None, check_same_thread=False)
    return conn


def is_busy(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_BUSY, _LOCKED)
    text = str(exc)
    return "database is locked" in text or "database table is locked" in text


def classify(exc: sqlite3.Error, path: str | Path) -> MemorySourceError:
    """One clear line for an SQLite failure while opening or reading."""
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    detail = str(exc)
    if code in (_BUSY, _LOCKED):
        return MemorySourceError(str(path), "is locked by another connection", LOCKED)
    if code == _NOTADB:
        return MemorySourceError(str(path), "is not an SQLite database (or is encrypted)", NOT_SQLITE)
    if code == _CORRUPT:
        return MemorySourceError(str(path), f"is corrupt: {detail}", CORRUPT)
    if code == _CANTOPEN:
        return MemorySourceError(str(path), f"cannot be opened: {detail}", UNREADABLE)
    if code == _READONLY:
        return MemorySourceError(str(path), f"needs recovery by a writer before it can be read: {detail}", UNREADABLE)
    if code in (_PERM, _AUTH):
        return MemorySourceError(str(path), f"permission denied: {detail}", UNREADABLE)
    if code == _IOERR:
        return MemorySourceError(str(path), f"I/O error: {detail}", UNREADABLE)
    return MemorySourceError(str(path), f"cannot be read: {detail}", UNREADABLE)


def with_retry(
    attempt: Callable[[], T],
    path: str | Path,
    *,
    sleep: Callable[[float], None],
    delays: tuple[float, ...] = DEFAULT_DELAYS,
) -> T:
    """Run `attempt`, backing off while the database is locked.

    After the last delay a still-locked database becomes a MemorySourceError
    of kind "locked"; any other SQLite failure is classified at once.
    """
    for delay in (*delays, None):
        try:
            return attempt()
        except sqlite3.Error as exc:
            if not is_busy(exc):
                raise classify(exc, path) from exc
            if delay is None:
                waited = sum(delays)
                raise MemorySourceError(
                    str(path),
                    f"is locked by another connection (still busy after {len(delays)} retries over {waited:.2f} s)",
                    LOCKED,
                ) from exc
            sleep(delay)
    raise AssertionError("unreachable")
