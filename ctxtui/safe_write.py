"""Every write ctxtui makes goes through here: checked, atomic, never into a source.

ctxtui is a lens: the files a packer reads are the agent's source of truth and
ctxtui must never be the thing that destroys them. So every product write —
`pack -o`, the TUI's save, `tune --write` on `.ctxrc`, the memory commands —
first asks `check_target`, which refuses

- an empty path, a directory, a missing folder;
- anything that is not a regular file (a FIFO would block, a device like
  `/dev/full` would be replaced by a file);
- a target in a source: inside any `.context/` folder, inside one of the
  `sources` folders (ctx 0.8.0's context directory by any name, the steering
  folder), or one of the `sources` files (`.ctxrc`, a memory store and its
  `-wal`/`-shm`/`-journal`). Every component of the path is resolved (a link
  to a folder anywhere in it, `..` after a link), and the folder the file
  would land in is compared by device and inode with the sources and their
  ancestors' (a bind mount is the same folder); a hard link to a source file
  is refused too.

`write_atomically` then opens the checked folder, makes sure it is still the
one checked, refuses a read-only file and one it could not give back to its
owner, optionally makes sure the file still holds what the caller read
(`expect`: no lost update), writes a temporary file there and renames it over
the target: a reader sees the old bytes or the new ones, never half. A
symbolic link to a regular file is followed: the file it points to is replaced
and the link stays. Messages say what is wrong in words, never with errno
numbers or temporary file names.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

DATABASE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
DB_SIDECARS = ("-wal", "-shm", "-journal")
MAX_LINK_SEARCH = 100_000  # entries looked at for a hard link (a `.context/` has dozens)

_ERRNO_WORDS = {
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EROFS: "the file system is read-only",
    errno.ENOENT: "the folder does not exist",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EISDIR: "is a directory",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ELOOP: "too many levels of symbolic links",
    errno.EXDEV: "cannot rename across file systems",
    errno.EIO: "an input/output error occurred",
}
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class WriteRefused(Exception):
    """The target is not safe to write, or the write failed; the message says why in words."""


class TargetChanged(WriteRefused):
    """The file no longer holds what the caller read (`expect`): someone edited it meanwhile."""


def os_error_words(error: OSError) -> str:
    """An OSError as a few plain words, without errno numbers or temporary paths."""
    return _ERRNO_WORDS.get(error.errno or 0) or (error.strerror or type(error).__name__).lower()


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a directory"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device"
    if stat.S_ISSOCK(mode):
        return "is a socket"
    return "is not a regular file"


class _Sources:
    """The protected folders and files, resolved, with their device and inode numbers."""

    def __init__(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        self.folders: list[tuple[str, str, tuple[int, int]]] = []  # (as given, resolved, (dev, ino))
        self.files: list[tuple[str, str, tuple[int, int] | None]] = []
        for path in paths:
            given = os.fspath(path)
            real = os.path.realpath(os.path.expanduser(given))
            try:
                info = os.stat(real)
            except OSError:
                self.files.append((given, real, None))  # not there (yet): protected by its path
                continue
            if stat.S_ISDIR(info.st_mode):
                self.folders.append((given, real, (info.st_dev, info.st_ino)))
            else:
                self.files.append((given, real, (info.st_dev, info.st_ino)))

    def folder_holding(self, parent: str) -> str | None:
        """The source folder that `parent` (resolved) is or lies in, by path or by device and inode."""
        ids = {ident: given for given, _real, ident in self.folders}
        for given, real, _ident in self.folders:
            if parent == real or parent.startswith(real.rstrip(os.sep) + os.sep):
                return given
        here = parent
        while True:
            try:
                info = os.stat(here)
            except OSError:
                return None
            found = ids.get((info.st_dev, info.st_ino))
            if found is not None:
                return found
            up = os.path.dirname(here)
            if up == here:
                return None
            here = up

    def file_named(self, target: str, ident: tuple[int, int] | None) -> str | None:
        for given, real, their in self.files:
            if target == real or (ident is not None and their == ident):
                return given
        return None

    def hard_link_to(self, ident: tuple[int, int]) -> str | None:
        """A file in a source folder that is the same inode (a hard link), if any; bounded."""
        seen = 0
        for _given, real, _ident in self.folders:
            for dirpath, _dirs, names in os.walk(real):
                for name in names:
                    seen += 1
                    if seen > MAX_LINK_SEARCH:
                        return f"one of the {MAX_LINK_SEARCH:,}+ files of {real} (too many to look through)"
                    try:
                        other = os.lstat(os.path.join(dirpath, name))
                    except OSError:
                        continue
                    if (other.st_dev, other.st_ino) == ident:
                        return os.path.join(dirpath, name)
        return None


class Checked(NamedTuple):
    """A target that passed `check_target`: the file to replace, its folder's and its own identity."""

    target: Path
    folder: tuple[int, int]
    existing: os.stat_result | None


def check_target(
    path: str | os.PathLike[str],
    *,
    context_dirs: Iterable[Path] = (),
    sources: Iterable[str | os.PathLike[str]] = (),
    database: bool = False,
    settings: bool = False,
) -> Path:
    """The file a write to `path` would replace, or `WriteRefused` saying why not.

    `sources` (and `context_dirs`, the older name): the folders and files the
    packers read (`ctxtui.opening.sources.source_paths`); nothing is written
    into them. `database` allows a SQLite file (`*.db`) inside `.context/`,
    where ctxtui's own memory database lives by default. `settings`: the
    write is `.ctxrc` or its backup, which may sit in a context or steering
    folder other than `.context/` (ctx reads only `*.md` files there) unless
    its name ends in `.md`.
    """
    return inspect_target(path, sources=[*context_dirs, *sources], database=database, settings=settings).target


def inspect_target(
    path: str | os.PathLike[str],
    *,
    sources: Iterable[str | os.PathLike[str]] = (),
    database: bool = False,
    settings: bool = False,
) -> Checked:
    """`check_target`, with what `write_atomically` needs to make sure nothing moved since."""
    text = os.fspath(path)
    label = text
    if not text.strip():
        raise WriteRefused("no file name given")
    if text.endswith(os.sep) or os.path.basename(text) in (".", ".."):
        raise WriteRefused(f"{label}: is a directory")
    # Joined, never normalised: `link/../x` is resolved as the kernel resolves it, through the link.
    given = os.path.join(os.getcwd(), os.path.expanduser(text))
    folder_given, name = os.path.split(given)
    parent = os.path.realpath(folder_given)
    try:
        folder_info = os.stat(parent)
    except FileNotFoundError:
        raise WriteRefused(f"{label}: the folder {folder_given} does not exist") from None
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    if not stat.S_ISDIR(folder_info.st_mode):
        raise WriteRefused(f"{label}: {folder_given} is not a folder")
    target = os.path.join(parent, name)
    try:
        first = os.lstat(target)
    except FileNotFoundError:
        first = None
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    if first is not None and stat.S_ISLNK(first.st_mode):
        target = _follow(target, label)
        parent = os.path.dirname(target)
        folder_info = os.stat(parent)
    try:
        existing: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        existing = None
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        raise WriteRefused(f"{label}: {_kind(existing.st_mode)}; only regular files are written")
    _refuse_sources(label, given, target, existing, _Sources(sources), database, settings)
    return Checked(Path(target), (folder_info.st_dev, folder_info.st_ino), existing)


def _follow(link: str, label: str) -> str:
    try:
        return os.fspath(Path(link).resolve(strict=True))
    except FileNotFoundError:
        raise WriteRefused(f"{label}: is a symbolic link to a file that does not exist") from None
    except RuntimeError:
        raise WriteRefused(f"{label}: is a symbolic link loop") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise WriteRefused(f"{label}: is a symbolic link loop") from None
        raise WriteRefused(f"{label}: is a symbolic link that cannot be followed ({os_error_words(exc)})") from None


def _refuse_sources(
    label: str,
    given: str,
    target: str,
    existing: os.stat_result | None,
    sources: _Sources,
    database: bool,
    settings: bool = False,
) -> None:
    allowed_in_context = database and os.path.splitext(target)[1].lower() in DATABASE_SUFFIXES
    in_context = ".context" in Path(os.path.dirname(target)).parts or ".context" in Path(given).parent.parts
    if in_context and not allowed_in_context:
        raise WriteRefused(
            f"{label}: is inside a .context/ folder, the agent's source of truth; ctxtui never writes there"
        )
    folder = sources.folder_holding(os.path.dirname(target))
    if settings and not target.lower().endswith(".md"):
        folder = None  # ctx reads only `*.md` from a context or steering folder; `.context/` was refused above
    if folder is not None and not allowed_in_context:
        where = "" if os.path.realpath(folder) == os.path.dirname(target) else f" (it resolves to {target})"
        raise WriteRefused(f"{label}: is inside {folder}, a folder the packer reads{where}; ctxtui never writes there")
    ident = (existing.st_dev, existing.st_ino) if existing is not None else None
    source_file = sources.file_named(target, ident)
    if source_file is not None:
        raise WriteRefused(f"{label}: is {source_file}, a file the packer reads; ctxtui never writes over it")
    if existing is not None and existing.st_nlink > 1 and ident is not None:
        twin = sources.hard_link_to(ident)
        if twin is not None:
            raise WriteRefused(f"{label}: is a hard link to {twin}, which the packer reads; ctxtui never writes there")


def write_atomically(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    context_dirs: Iterable[Path] = (),
    sources: Iterable[str | os.PathLike[str]] = (),
    expect: bytes | None = None,
    settings: bool = False,
) -> Path:
    """Check the target, write `data` beside it and rename it into place; returns the file written.

    The file keeps its permissions and owner; a read-only file is refused.
    `expect`: the bytes the caller read (b"" for a file that did not exist);
    when the file holds anything else now, `TargetChanged` and nothing is written.
    """
    label = os.fspath(path)
    checked = inspect_target(path, sources=[*context_dirs, *sources], settings=settings)
    target = checked.target
    try:
        folder = os.open(target.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    try:
        info = os.fstat(folder)
        if (info.st_dev, info.st_ino) != checked.folder:
            raise WriteRefused(f"{label}: the folder changed while it was being checked; nothing written")
        existing = _still_the_same(folder, target.name, checked.existing, label)
        if expect is not None and _current_bytes(folder, target.name, len(expect)) != expect:
            raise TargetChanged(f"{label}: changed since it was read; nothing written")
        replace_in(folder, target.name, data, existing, label)
    finally:
        os.close(folder)
    return target


def _still_the_same(folder: int, name: str, checked: os.stat_result | None, label: str) -> os.stat_result | None:
    try:
        now = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        now = None
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    same = (now is None and checked is None) or (
        now is not None and checked is not None and (now.st_dev, now.st_ino) == (checked.st_dev, checked.st_ino)
    )
    if not same:
        raise WriteRefused(f"{label}: was replaced while it was being checked; nothing written")
    if now is not None:
        refuse_read_only(now, label, writable=os.access(name, os.W_OK, dir_fd=folder))
    return now


def refuse_read_only(info: os.stat_result, label: str, *, writable: bool = True) -> None:
    """`WriteRefused` for a file without write permission (its owner's bit counts even for root)."""
    if not info.st_mode & stat.S_IWUSR or not writable:
        raise WriteRefused(
            f"{label}: is read-only (permissions {stat.filemode(info.st_mode)}); ctxtui does not replace it: "
            "make it writable first if it should change"
        )


def _current_bytes(folder: int, name: str, expected_size: int) -> bytes | None:
    """The file's bytes (b"" when it does not exist), read without following a link or blocking; bounded."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=folder)
    except FileNotFoundError:
        return b""
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
            total += len(chunk)
            if total > expected_size:
                return None
        return b"".join(chunks)
    finally:
        os.close(fd)


def replace_in(
    folder: int, name: str, data: bytes, existing: os.stat_result | None, label: str, *, exclusive: bool = False
) -> None:
    """Write `data` to a new temporary file in the open `folder` and rename it over `name`.

    `existing`'s mode, owner and group are given to the new file (a file whose
    owner cannot be kept, another user's when not run as root, is refused).
    `exclusive`: `name` must not exist; it is linked into place, never replaced.
    """
    temporary = f".{name[:100]}.{secrets.token_hex(6)}.tmp"
    try:
        fd = create_temporary(folder, temporary)
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    try:
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                _keep_owner(handle.fileno(), existing, label)
                os.fchmod(handle.fileno(), stat.S_IMODE(existing.st_mode) if existing is not None else 0o644)
                os.fsync(handle.fileno())
            if exclusive:
                _link_new(folder, temporary, name, data, existing)
            else:
                os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
        except FileExistsError:
            raise WriteRefused(f"{label}: appeared while it was being written; left alone") from None
        except OSError as exc:
            raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    except BaseException:
        try:
            os.unlink(temporary, dir_fd=folder)
        except OSError:
            pass
        raise
    try:
        os.fsync(folder)  # the rename itself survives a crash
    except OSError:
        pass


def create_temporary(folder: int, name: str) -> int:
    """A new private file `name` in the open `folder`, never through a link; its descriptor."""
    return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=folder)


def _link_new(folder: int, temporary: str, name: str, data: bytes, existing: os.stat_result | None) -> None:
    """`temporary` becomes `name`, which must not exist (FileExistsError): a hard link, or a plain exclusive create."""
    try:
        os.link(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: create it exclusively and write it in place
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=folder)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            os.fchmod(handle.fileno(), stat.S_IMODE(existing.st_mode) if existing is not None else 0o644)
            os.fsync(handle.fileno())
    os.unlink(temporary, dir_fd=folder)


def _keep_owner(fd: int, existing: os.stat_result | None, label: str) -> None:
    if existing is None:
        return
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) == (existing.st_uid, existing.st_gid):
        return
    try:
        os.fchown(fd, existing.st_uid, existing.st_gid)
        return
    except PermissionError:
        pass
    if mine.st_uid != existing.st_uid:
        raise WriteRefused(
            f"{label}: belongs to another user (uid {existing.st_uid}); replacing it would make it yours, so "
            "ctxtui leaves it"
        )
    try:
        os.fchown(fd, -1, existing.st_gid)
    except PermissionError:
        pass  # the group cannot be kept by its owner either: the folder's default group it is
