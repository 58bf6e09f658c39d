"""The one exception a memory source raises: the whole file could not be read.

Row-level trouble never raises; it becomes a `Problem` and the row is skipped
or clamped. A `MemorySourceError` means "show this line, keep what you had":
the file is missing, locked, corrupt, not SQLite, or of a schema we do not know.
"""

from __future__ import annotations

from ctxtui.engine.model import Problem

# Values of MemorySourceError.kind, for callers that react differently
# (a locked database is worth polling again; a corrupt one is not).
MISSING = "missing"
LOCKED = "locked"
CORRUPT = "corrupt"
NOT_SQLITE = "not-sqlite"
UNKNOWN_SCHEMA = "unknown-schema"
UNREADABLE = "unreadable"
REFUSED = "refused"  # a write that would clobber a file that is not ours
# PostgreSQL (nous): the server cannot be reached, the URL is malformed, the login or a grant is missing.
UNREACHABLE = "unreachable"
BAD_URL = "bad-url"
PERMISSION = "permission"


class MemorySourceError(Exception):
    """A memory database that cannot be read (or written) at all.

    `str(error)` is the one-line message without the path, so that
    `Problem(path, str(error))` reads naturally; `error.problem` is that
    Problem and `error.line` is "path: message" for a CLI.
    """

    def __init__(self, path: str, message: str, kind: str = UNREADABLE):
        super().__init__(message)
        self.path = str(path)
        self.message = message
        self.kind = kind

    @property
    def problem(self) -> Problem:
        return Problem(self.path, self.message)

    @property
    def line(self) -> str:
        return f"{self.path}: {self.message}"


class MemoryWriteError(MemorySourceError):
    """A write ctxtui refused or could not make: it would clobber a file that
    is not a ctxtui memory database, or the file cannot be created."""

    def __init__(self, path: str, message: str, kind: str = REFUSED):
        super().__init__(path, message, kind)
