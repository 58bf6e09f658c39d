"""Reading a file from the user's project safely: only regular files, never blocking, never without end.

A FIFO named like a context file would block a plain read for ever, and a
link to /dev/zero would read until memory runs out; ctx itself hangs on
both. Every file ctxtui reads from the user's disk goes through
`read_bytes_safely`: the context files, steering files and skills, `.ctxrc`,
the user's `config.toml` and themes, Shabka's config, a `TZ` zone file.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctxtui.engine.sources.fspath import PathText

# Files larger than this are not read: ctx would, but a 2 GB LEARNINGS.md would
# take the app down with it. Far above any real context file (ctx reads a
# 64 MiB one like any other, so this must be well above that).
MAX_FILE_BYTES = 512 * 1024 * 1024
# Settings files (`.ctxrc`, `config.toml`, themes, Shabka's config, zone files) are a few kilobytes; one
# over this is refused rather than read whole (a 1 GB `.ctxrc` took 2.1 GB to read and parse).
MAX_CONFIG_BYTES = 4 * 1024 * 1024


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a socket or a directory: reading it could block or never end."""


class FileTooBig(OSError):
    """Over MAX_FILE_BYTES."""


def kind_of(mode: int) -> str:
    """A file type in words."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def read_bytes_safely(path: PathText, *, follow_symlinks: bool = False, limit: int | None = None) -> bytes:
    """A regular file's bytes, never blocking and never reading without end.

    Opened with O_NONBLOCK (a FIFO swapped in after a stat cannot block the
    open) and, unless asked, O_NOFOLLOW; the open file must be regular, and
    at most `limit` (default MAX_FILE_BYTES) bytes are read.
    """
    limit = MAX_FILE_BYTES if limit is None else limit
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(f"is {kind_of(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise FileTooBig(f"is {info.st_size:,} bytes, over the {limit:,}-byte limit")
        # The first read asks for one byte more than the file's size: `os.read(fd, n)` allocates n bytes
        # before it reads, and a 1 MiB buffer for each of a workspace's small files cost a cold `pack`
        # of ctx-dogfood's 28 files ~0.3-0.8 ms. Reading goes on until end of file (a file may grow).
        chunks = []
        total = 0
        size = info.st_size + 1
        while True:
            chunk = os.read(fd, size)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise FileTooBig(f"grew past the {limit:,}-byte limit while being read")
            chunks.append(chunk)
            size = 1 << 16
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)
