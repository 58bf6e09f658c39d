"""A private, bounded copy of a database and its `-wal`, for the one case SQLite cannot read in place.

A WAL database with a `-wal` but no usable `-shm` (a crash left the WAL, or
the `-shm` is half-written, a link, a device) cannot be read read-only
without writing beside it, so it is copied into a private folder and read
there (`snapshot._read_copy`). The copy is made with care, because the
files may come from a cloned repository:

- only regular files are copied, checked on the open descriptor (a `-wal`
  linked to `/dev/zero` or a FIFO is refused, never read);
- exactly the size `fstat` gave is copied (a file growing meanwhile adds
  nothing), and the whole copy is bounded by `COPY_LIMIT` and by the free
  space in the temporary folder;
- a full disk or a file-size limit (`EFBIG`; Python ignores SIGXFSZ) is
  one clear line, not a traceback;
- the folder (`ctxtui-read-<pid>-…` in `$TMPDIR`, mode 0700) is removed
  on every way out of the read; a killed process leaves it behind, and the
  next copy removes every such folder of this user whose process is gone.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ctxtui.engine.sources.memory.shared.errors import UNREADABLE, MemorySourceError

COPY_LIMIT = 1 << 30  # 1 GiB: database and WAL together
PREFIX = "ctxtui-read-"
_CHUNK = 1 << 20


def describe(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def sweep_stale(folder: str | None = None) -> int:
    """Remove the private folders of earlier ctxtui processes that are gone (killed mid-read); how many."""
    root = Path(folder or tempfile.gettempdir())
    removed = 0
    try:
        entries = list(os.scandir(root))
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.startswith(PREFIX):
            continue
        pid_text = entry.name[len(PREFIX) :].split("-", 1)[0]
        if not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
            continue  # a link, a file, another user's: not ours to remove
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += 1
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, another user's
    return True


@contextmanager
def private_folder() -> Iterator[Path]:
    """A new 0700 folder named for this process, removed on the way out (stale ones of dead processes first)."""
    sweep_stale()
    try:
        folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
    except OSError as exc:
        raise MemorySourceError(
            tempfile.gettempdir(), f"cannot make a private folder to read a copy in: {exc.strerror or exc}", UNREADABLE
        ) from None
    try:
        yield Path(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def copy_regular(source: str, target: Path, budget: int, *, what: str) -> int:
    """Copy the regular file `source` to `target` (at most `budget` bytes in all); the bytes copied.

    MemorySourceError when `source` is not a regular file, is larger than
    the budget or the free space, or the copy cannot be written.
    """
    try:
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise MemorySourceError(source, f"cannot read {what}: {exc.strerror or exc}", UNREADABLE) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise MemorySourceError(source, f"{what} is {describe(info.st_mode)}, not a file: not read", UNREADABLE)
        size = info.st_size
        if size > budget:
            raise MemorySourceError(
                source,
                f"{what} is {size / 1e6:.0f} MB: ctxtui reads a database without its -shm from a private copy "
                f"and copies at most {COPY_LIMIT >> 20} MB (open it once with sqlite3 to recover it)",
                UNREADABLE,
            )
        free = _free_space(target.parent)
        if free is not None and size > free:
            raise MemorySourceError(
                source, f"{what} ({size / 1e6:.0f} MB) does not fit in {target.parent.parent}'s free space", UNREADABLE
            )
        _copy_bytes(fd, target, size, source)
        return size
    finally:
        os.close(fd)


def _free_space(folder: Path) -> int | None:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def _copy_bytes(fd: int, target: Path, size: int, source: str) -> None:
    """Exactly `size` bytes from `fd` into a new `target` (fewer if the file shrank meanwhile)."""
    try:
        out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as exc:
        raise _write_error(source, target, exc) from None
    try:
        left = size
        while left > 0:
            chunk = os.read(fd, min(_CHUNK, left))
            if not chunk:
                break
            view = memoryview(chunk)
            while view:
                written = os.write(out, view)
                view = view[written:]
            left -= len(chunk)
    except OSError as exc:
        raise _write_error(source, target, exc) from None
    finally:
        os.close(out)


def _write_error(source: str, target: Path, exc: OSError) -> MemorySourceError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full"
    elif exc.errno == errno.EFBIG:
        why = "the file is larger than this process may write (a file-size limit, ulimit -f)"
    else:
        why = exc.strerror or str(exc)
    return MemorySourceError(
        source, f"cannot make a private copy to read it in {target.parent.parent}: {why}", UNREADABLE
    )
