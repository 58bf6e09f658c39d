"""One consistent read of an SQLite database that leaves nothing behind, and a token that says when to read again.

What SQLite does beside a database it reads, measured (SQLite 3.40, `mode=ro`):

- rollback journal: creates nothing, in a writable or a read-only folder;
- WAL, no `-wal`/`-shm`: a plain read-only open creates both and cannot
  delete them (read-only), and fails in a read-only folder; `immutable=1`
  reads it, creates nothing — correct while nothing writes, which is checked
  (file signature before and after, no `-wal` appeared);
- WAL with `-wal` and `-shm` (a writer attached, or files it left): a plain
  read-only open uses them and creates nothing, in a read-only folder too;
- WAL with a `-wal` but no `-shm` (a stale WAL left by a crash): a plain open
  creates `-shm` (fails in a read-only folder) and `immutable=1` ignores the
  WAL, missing its commits. So the database and its WAL are copied into a
  private temporary folder and read there (SQLite recovers the copy); the
  copy is trusted only if the originals did not move while it was made.
  So is a `-shm` SQLite would write into: half-written (not whole 32 KiB
  pages: SQLite extends it), or a link. The copy is bounded and takes
  regular files only (`private_copy`); a `-wal` that is a device or a FIFO
  is refused outright.

So `read_snapshot` picks the way by what is on disk, and falls back to the
copy when a read-only open cannot open the files. Every way is one read
transaction (the caller's `read`), retried while the database is locked.

`change_token` is what a live view compares to decide whether to read
again (see `ChangeToken`): stat results and headers first, and when those
moved, a hash of the bytes, so a `touch` storm or a writer attaching is
not a reason to re-read, while a commit always is. A checkpoint (the WAL
copied into the main file) changes the bytes without changing the data:
the caller reads again and finds the same records.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ctxtui.engine.sources.memory.shared.connect import (
    DEFAULT_DELAYS,
    check_header,
    is_wal_mode,
    open_readonly,
    shm_path,
    signature,
    wal_path,
    with_retry,
)
from ctxtui.engine.sources.memory.shared.errors import UNREADABLE, MemorySourceError
from ctxtui.engine.sources.memory.shared.private_copy import COPY_LIMIT, copy_regular, describe, private_folder

T = TypeVar("T")

_CANTOPEN, _READONLY = 14, 8
_SHM_PAGE = 32768  # SQLite's wal-index page: a -shm in use is a whole number of them


def read_snapshot(
    path: str | Path,
    read: Callable[[sqlite3.Connection], T],
    *,
    sleep: Callable[[float], None] = time.sleep,
    delays: tuple[float, ...] = DEFAULT_DELAYS,
) -> T:
    """`read(conn)` on a read-only connection to `path` (or to a private copy), creating no file beside it.

    Raises MemorySourceError (missing, not SQLite, locked after the back-off, ...).
    """
    header = check_header(path)
    if not is_wal_mode(header):
        return with_retry(lambda: _with_connection(path, read, immutable=False), path, sleep=sleep, delays=delays)
    return with_retry(lambda: _read_wal(path, read), path, sleep=sleep, delays=delays)


def _read_wal(path: str | Path, read: Callable[[sqlite3.Connection], T]) -> T:
    wal = _wal_state(path)
    if wal is None:
        # No WAL: every commit is in the main file. Immutable creates nothing; a writer
        # arriving meanwhile shows as a moved file or a new -wal, and we try again.
        before = signature(path)
        result = _with_connection(path, read, immutable=True)
        if signature(path) == before and not os.path.exists(wal_path(path)):
            return result
        raise _moved()
    if _shm_usable(path):
        try:
            return _with_connection(path, read, immutable=False)
        except sqlite3.Error as exc:
            if (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF not in (_CANTOPEN, _READONLY):
                raise
            # A -shm this user cannot use (another user's, a read-only folder): read a copy.
    return _read_copy(path, read)


def _wal_state(path: str | Path) -> os.stat_result | None:
    """The `-wal`'s status (None when there is none); MemorySourceError for one that is not a file.

    A `-wal` linked to `/dev/zero` or a FIFO (a cloned repository can ship either) is never read.
    """
    try:
        info = os.stat(wal_path(path))
    except OSError:
        return None  # none, or a link to nothing: SQLite would find no WAL either
    if not stat.S_ISREG(info.st_mode):
        raise MemorySourceError(
            str(path),
            f"its write-ahead log {Path(wal_path(path)).name} is {describe(info.st_mode)}: not read",
            UNREADABLE,
        )
    return info


def _shm_usable(path: str | Path) -> bool:
    """A `-shm` SQLite can use as it is: a regular file (not a link) of whole 32 KiB wal-index pages.

    Anything else would be written by SQLite's read (a half-written `-shm` is
    extended, a linked one written through the link): read a copy instead.
    """
    try:
        info = os.lstat(shm_path(path))
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size >= _SHM_PAGE and info.st_size % _SHM_PAGE == 0


def _with_connection(path: str | Path, read: Callable[[sqlite3.Connection], T], *, immutable: bool) -> T:
    conn = open_readonly(path, immutable=immutable)
    try:
        return read(conn)
    finally:
        conn.close()


def _read_copy(path: str | Path, read: Callable[[sqlite3.Connection], T]) -> T:
    """Copy the database and its WAL to a private folder (bounded, regular files only), read the copy, delete it."""
    before = signature(path)
    with private_folder() as folder:
        copy = folder / "copy.db"
        copied = copy_regular(str(path), copy, COPY_LIMIT, what="the database")
        if os.path.lexists(wal_path(path)):
            copy_regular(wal_path(path), Path(wal_path(copy)), COPY_LIMIT - copied, what="its -wal")
        if signature(path) != before:
            raise _moved()
        conn = sqlite3.connect(copy, timeout=0, isolation_level=None, check_same_thread=False)
        try:
            return read(conn)
        finally:
            conn.close()


def _moved() -> sqlite3.OperationalError:
    """A writer changed the files during the read: as busy, so the caller backs off and reads again."""
    return sqlite3.OperationalError("database is locked (it changed while it was read)")


@dataclass(frozen=True, slots=True)
class ChangeToken:
    """What a live view compares to decide whether to read a database again.

    `quick`: the database's and WAL's identity, size, modification and change
    times and headers, and the WAL index header in `-shm` (its change counter
    and last frame move on every WAL commit) — a few stat and pread calls.
    `digest`: a hash of the database's and WAL's bytes, asked only when
    `quick` moved, so a `touch` (times only) or a writer attaching (an empty
    `-wal`, a new `-shm`) costs one hash, never a re-read.
    """

    quick: bytes | None
    digest: bytes | None


def change_token(path: str | Path) -> ChangeToken:
    """The token of `path` now (take it before a read: a commit during the read then shows next time)."""
    return ChangeToken(_quick(path), _digest(path))


def token_beside(path: str | Path, read: Callable[[], T]) -> tuple[T, ChangeToken]:
    """`read()`, and the token `change_token(path)` would have given just before it.

    The token's hash reads every byte of the database and its WAL (~40 ms at
    50,000 memories) and runs in a thread beside the read: hashing and file
    reads release the GIL, so on a second core it costs the read nothing.
    Its bytes are those of before the read only if nothing wrote meanwhile,
    so the hash is kept only if the files' sizes, modification times and
    headers (database, WAL, WAL index) did not move from before the read to
    after the hash; else it is left out and the next `still_same` that sees
    the quick part moved says to read again. Change times are not asked: a
    read moves them (SQLite, run as root, gives a WAL it opens its owner
    again), while a commit moves a size, a time or a header's counters.
    """
    quick, written = _quick(path), _quick(path, change_times=False)
    digests: list[bytes | None] = []
    hashing = threading.Thread(target=lambda: digests.append(_digest(path)), name="ctxtui-token", daemon=True)
    hashing.start()
    try:
        result = read()
    finally:
        hashing.join()
    unwritten = written is not None and _quick(path, change_times=False) == written
    return result, ChangeToken(quick, digests[0] if digests and unwritten else None)


def still_same(path: str | Path, token: ChangeToken) -> ChangeToken | None:
    """`token` brought up to date if nothing committed since it was taken, else None.

    Same quick part: nothing moved. Quick part moved, same bytes: a `touch`,
    a writer attaching or detaching with nothing committed. Otherwise (new
    bytes, a checkpoint included) the caller reads again.
    """
    quick = _quick(path)
    if quick == token.quick:
        return token
    digest = _digest(path)
    if quick is None or digest is None or digest != token.digest:
        return None
    return ChangeToken(quick, digest)


def _quick(path: str | Path, change_times: bool = True) -> bytes | None:
    db = _identity_and_head(path, 100, change_times)
    if db is None:
        return None
    # The header from byte 24: change counter, size in pages, free list, schema cookie, version numbers.
    parts = [db[0], db[1][24:100]]
    wal = _identity_and_head(wal_path(path), 32, change_times)
    parts += [b"-" if wal is None else wal[0] + wal[1]]
    shm = _identity_and_head(
        shm_path(path), 48, change_times
    )  # the WAL index header's first copy (iChange, mxFrame, salts)
    parts += [b"-" if shm is None else shm[1]]
    return b"|".join(parts)


def _digest(path: str | Path) -> bytes | None:
    """A hash of the database's bytes and its WAL's (an empty or missing WAL hashes alike); None if missing."""
    digest = hashlib.blake2b(digest_size=20)
    for name, required in ((str(path), True), (wal_path(path), False)):
        fd = _open_regular(name)
        if fd is None:
            if required:
                return None
            continue
        if not required and os.fstat(fd).st_size == 0:
            os.close(fd)
            continue
        try:
            digest.update(name.encode()[-4:])  # "-wal" or the database name's end: an empty WAL adds nothing else
            while chunk := os.read(fd, 1 << 20):
                digest.update(chunk)
        except OSError:
            return None
        finally:
            os.close(fd)
    return digest.digest()


def _open_regular(path: str) -> int | None:
    """A read-only descriptor of a regular file (never blocking on a FIFO), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _identity_and_head(path: str | Path, size: int, change_time: bool = True) -> tuple[bytes, bytes] | None:
    """(device, inode, size and times as bytes, the first `size` bytes) of a regular file, or None."""
    fd = _open_regular(str(path))
    if fd is None:
        return None
    try:
        info = os.fstat(fd)
        head = os.pread(fd, size, 0)
    except OSError:
        return None
    finally:
        os.close(fd)
    ident = f"{info.st_dev}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns if change_time else ''}"
    return ident.encode(), head
