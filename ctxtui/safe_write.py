"""Every write ctxtui makes goes through here: checked, atomic, never into `.context/`.

ctxtui is a lens: the user's `.context/` is their agent's source of truth and
ctxtui must never be the thing that destroys it. So every product write —
`pack -o`, the TUI's save, `tune --write` on `.ctxrc`, the memory commands —
first asks `check_target`, which refuses

- an empty path, a directory, a missing folder;
- anything that is not a regular file (a FIFO would block, a device like
  `/dev/full` would be replaced by a file);
- a target inside a `.context/` folder, as given or once symbolic links are
  resolved, or a hard link to a file of the project's `.context/`;

and then `write_atomically` writes a temporary file in the same folder and
renames it over the target, so a reader sees the old bytes or the new ones,
never half. A symbolic link to a regular file is followed: the file it points
to is replaced and the link stays. Messages say what is wrong in words, never
with errno numbers or temporary file names.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

DATABASE_SUFFIXES = (".db", ".sqlite", ".sqlite3")

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


class WriteRefused(Exception):
    """The target is not safe to write, or the write failed; the message says why in words."""


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


def _inside_context(path: Path) -> bool:
    return ".context" in path.parent.parts


def _same_file_in(folders: Iterable[Path], info: os.stat_result) -> Path | None:
    """A file under `folders` that is the same inode as `info` (a hard link), if any."""
    for folder in folders:
        for dirpath, _dirs, files in os.walk(folder):
            for name in files:
                candidate = Path(dirpath) / name
                try:
                    other = os.lstat(candidate)
                except OSError:
                    continue
                if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
                    return candidate
    return None


def check_target(path: str | os.PathLike[str], *, context_dirs: Iterable[Path] = (), database: bool = False) -> Path:
    """The file a write to `path` would replace, or `WriteRefused` saying why not.

    `context_dirs` are the project's `.context/` folders, searched for hard
    links to the target. `database` allows a SQLite file (`*.db`) inside
    `.context/`, where ctxtui's own memory database lives by default.
    """
    text = os.fspath(path)
    if not text.strip():
        raise WriteRefused("no file name given")
    given = Path(os.path.abspath(Path(text).expanduser()))
    label = text
    if text.endswith(os.sep):
        raise WriteRefused(f"{label}: is a directory")
    try:
        first = os.lstat(given)
    except FileNotFoundError:
        first = None
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    target = given
    if first is not None and stat.S_ISLNK(first.st_mode):
        try:
            target = given.resolve(strict=True)
        except FileNotFoundError:
            raise WriteRefused(f"{label}: is a symbolic link to a file that does not exist") from None
        except RuntimeError:
            raise WriteRefused(f"{label}: is a symbolic link loop") from None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise WriteRefused(f"{label}: is a symbolic link loop") from None
            raise WriteRefused(f"{label}: is a symbolic link that cannot be followed ({os_error_words(exc)})") from None
    allowed_in_context = database and target.suffix.lower() in DATABASE_SUFFIXES
    if not allowed_in_context and (_inside_context(given) or _inside_context(target)):
        raise WriteRefused(
            f"{label}: is inside a .context/ folder, the agent's source of truth; ctxtui never writes there"
        )
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    if info is not None:
        if not stat.S_ISREG(info.st_mode):
            raise WriteRefused(f"{label}: {_kind(info.st_mode)}; only regular files are written")
        if info.st_nlink > 1:
            twin = _same_file_in(context_dirs, info)
            if twin is not None:
                raise WriteRefused(f"{label}: is a hard link to {twin}; ctxtui never writes into .context/")
    parent = target.parent
    if not parent.exists():
        raise WriteRefused(f"{label}: the folder {parent} does not exist")
    if not parent.is_dir():
        raise WriteRefused(f"{label}: {parent} is not a folder")
    return target


def write_atomically(
    path: str | os.PathLike[str], data: bytes, *, context_dirs: Iterable[Path] = (), backup_suffix: str | None = None
) -> Path:
    """Check the target, write `data` beside it and rename it into place; returns the file written.

    With `backup_suffix` (e.g. ".bak"), the previous content is first kept as
    `NAME.bak`, itself written atomically. The file keeps its permissions.
    """
    target = check_target(path, context_dirs=context_dirs)
    label = os.fspath(path)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
        existed = True
    except FileNotFoundError:
        mode, existed = 0o644, False  # mkstemp's 0600 would surprise; reading the umask is not thread-safe
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    if backup_suffix and existed:
        try:
            _replace_with(target.with_name(target.name + backup_suffix), target.read_bytes(), mode)
        except OSError as exc:
            raise WriteRefused(f"{label}: cannot keep a backup: {os_error_words(exc)}") from None
    try:
        _replace_with(target, data, mode)
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    return target


def _replace_with(target: Path, data: bytes, mode: int) -> None:
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    try:
        directory = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(directory)  # the rename itself survives a crash
    except OSError:
        pass
    finally:
        os.close(directory)
