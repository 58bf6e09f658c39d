"""Reading a repository's history with the `git` program's plumbing, as untrusted input.

A repository is someone else's data: its `.git/config` can name programs
(`core.fsmonitor`, `diff.external`, textconv filters, hooks) that porcelain
commands would run. ctxtui runs only plumbing that reads objects
(`rev-parse`, `rev-list`, `cat-file --batch-command`), with the system
config ignored, the programs a config could name switched off on the
command line, no lazy fetch of a partial clone's missing objects, no
terminal prompt and no optional locks, so nothing is executed, fetched or
written. Blobs are sized before they are read (`info`, then `contents`),
bounded like every other read; `rev-list` is bounded in count, and every
call in time. Why the `git` program and not pygit2 or dulwich:
docs/history.md has the figures.
"""

from __future__ import annotations

import os
import select
import subprocess
import threading
import time
from typing import TYPE_CHECKING

from ctxtui.engine.sources.files import MAX_FILE_BYTES
from ctxtui.opening.request import OpenError

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# -c options that turn off every program a repository's own config could make a read run.
SAFE_CONFIG = (
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.untrackedCache=false",
    "-c",
    "diff.external=",
    "-c",
    "core.pager=cat",
    "-c",
    "protocol.allow=never",
    "-c",
    "core.sshCommand=false",
    "-c",
    "credential.helper=",
)
CALL_SECONDS = 30.0  # bound on one git call (a rev-list over a huge history, a stuck filesystem)
MAX_TREE_BYTES = 16 * 1024 * 1024  # a .context/ tree object: far above any real one
MAX_CACHED_BLOBS = 256  # blobs kept by a history's object cache, least recently used first


class GitError(OpenError):
    """The history cannot be read as asked: not a repository, no such revision, a shallow boundary..."""


def git_env() -> dict[str, str]:
    """The environment for every git call: no system config, no prompt, no lock, no fetch, no pager."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("GIT_") or name in ("GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM")
    }
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_TERMINAL_PROMPT="0",
        GIT_OPTIONAL_LOCKS="0",
        GIT_NO_LAZY_FETCH="1",
        GIT_LITERAL_PATHSPECS="1",  # a folder named `:(exclude)x` or `*` in .ctxrc is that folder, not a pattern
        GIT_ALLOW_PROTOCOL="",
        GIT_PAGER="cat",
        LC_ALL="C",
    )
    return env


class Commit:
    """One commit as the history commands show it."""

    __slots__ = ("commit", "parent", "date", "timestamp", "subject")

    def __init__(self, commit: str, parent: str | None, date: str, timestamp: int, subject: str) -> None:
        self.commit = commit
        self.parent = parent  # the first parent; None for a root commit
        self.date = date  # the committer date, strict ISO 8601 with the committer's offset
        self.timestamp = timestamp
        self.subject = subject

    def __repr__(self) -> str:
        return f"Commit({self.commit[:10]}, {self.date}, {self.subject!r})"


class TreeItem:
    """One entry of a tree object: its mode (octal text as git writes it), name and object id."""

    __slots__ = ("mode", "name", "oid")

    def __init__(self, mode: str, name: str, oid: str) -> None:
        self.mode, self.name, self.oid = mode, name, oid

    @property
    def is_tree(self) -> bool:
        return self.mode == "40000"

    @property
    def is_link(self) -> bool:
        return self.mode == "120000"

    @property
    def is_submodule(self) -> bool:
        return self.mode == "160000"


class Repository:
    """A git repository read through one long-lived `git cat-file --batch-command` process.

    `project` is a directory inside the work tree; `prefix` is its path from
    the top ("" at the top, else ending in "/"), so `.context/` at a commit is
    the object `COMMIT:PREFIX.context`.
    """

    def __init__(self, project: str) -> None:
        self.project = project
        self._batch: subprocess.Popen[bytes] | None = None
        self._answers = _Answers(-1)  # the batch process's output, once it runs
        self._deadline = 0.0  # when the question on the pipe must have its answer (time.monotonic)
        self._lock = threading.RLock()  # one question and its answer at a time on the pipe (the TUI's workers)
        if not os.path.isdir(project):
            raise GitError(f"{project} is not a directory")
        top = self._run(
            "rev-parse",
            "--is-inside-work-tree",
            "--show-prefix",
            "--is-shallow-repository",
            "--show-object-format",
            missing_repo=True,
        )
        lines = top.split("\n")
        if len(lines) < 4 or lines[0] != "true":
            raise GitError(f"{project} is not inside a git work tree: --rev and log read .context/ from git history")
        self.prefix = lines[1]
        self.shallow = lines[2] == "true"
        self.oid_bytes = 32 if lines[3] == "sha256" else 20

    # -- processes ---------------------------------------------------------------------------------------

    def _run(self, *args: str, missing_repo: bool = False) -> str:
        try:
            done = subprocess.run(
                ["git", *SAFE_CONFIG, *args],
                cwd=self.project,
                env=git_env(),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=CALL_SECONDS,
                check=False,
            )
        except FileNotFoundError:
            raise GitError("the git program is not installed: --rev and log need it to read the history") from None
        except NotADirectoryError:
            raise GitError(f"{self.project} is not a directory") from None
        except subprocess.TimeoutExpired:
            raise GitError(f"git {args[0]} took over {CALL_SECONDS:.0f} s: stopped") from None
        if done.returncode != 0:
            err = done.stderr.decode("utf-8", "replace").strip().splitlines()
            first = err[0] if err else f"exit status {done.returncode}"
            if missing_repo and "not a git repository" in first:
                raise GitError(
                    f"{self.project} is not in a git repository: --rev and log read .context/ from git history"
                )
            if "dubious ownership" in first:
                raise GitError(f"git refuses to read {self.project}: it belongs to another user (git's safe.directory)")
            raise GitError(f"git {args[0]}: {first.removeprefix('fatal: ')}")
        return done.stdout.decode("utf-8", "surrogateescape")

    def _process(self) -> subprocess.Popen[bytes]:
        if self._batch is None:
            self._batch = subprocess.Popen(
                ["git", *SAFE_CONFIG, "cat-file", "--batch-command"],
                cwd=self.project,
                env=git_env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                bufsize=0,
            )
            assert self._batch.stdout is not None
            self._answers = _Answers(self._batch.stdout.fileno())
        return self._batch

    def _stuck(self) -> GitError:
        """The batch process gave no answer in time: it is killed (the next question starts a new one)."""
        batch, self._batch = self._batch, None
        if batch is not None:
            batch.kill()
            batch.wait()
        return GitError(f"git cat-file gave no answer in {CALL_SECONDS:g} s: stopped")

    def close(self) -> None:
        if self._batch is not None:
            batch, self._batch = self._batch, None
            try:
                if batch.stdin:
                    batch.stdin.close()
                batch.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                batch.kill()
                batch.wait()

    def __enter__(self) -> Repository:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def _ask(self, command: str, name: str) -> tuple[str, str, int] | None:
        """`info NAME` or `contents NAME`'s header: (oid, type, size), or None when there is no such object."""
        if "\n" in name:
            return None
        batch = self._process()
        assert batch.stdin is not None and batch.stdout is not None
        try:
            batch.stdin.write(f"{command} {name}\n".encode("utf-8", "surrogateescape"))
            batch.stdin.flush()
        except OSError:
            raise GitError("git cat-file stopped answering") from None
        self._deadline = time.monotonic() + CALL_SECONDS
        header = self._answer(self._answers.readline).decode("utf-8", "surrogateescape").rstrip("\n")
        if not header:
            raise GitError("git cat-file stopped answering")
        parts = header.split(" ")
        if len(parts) != 3 or parts[1] in ("missing", "ambiguous"):
            return None
        return parts[0], parts[1], int(parts[2])

    def info(self, name: str) -> tuple[str, str, int] | None:
        """(oid, type, size) of the object `name` (an oid or REV:PATH), or None when it does not exist."""
        with self._lock:
            return self._ask("info", name)

    def read(self, name: str, limit: int = MAX_FILE_BYTES) -> tuple[str, bytes]:
        """(type, data) of the object `name` (an oid or REV:PATH), in one round trip.

        The header gives the size before any byte of data: an object over
        `limit` is drained from the pipe a chunk at a time, never held, and
        refused (`FileTooBigInGit`); GitError when there is no such object.
        """
        with self._lock:
            return self._read_locked(name, limit)

    def _read_locked(self, name: str, limit: int) -> tuple[str, bytes]:
        header = self._ask("contents", name)
        if header is None:
            raise GitError(f"object {name} is missing from the repository")
        size = header[2]
        if size > limit:
            self._answer(lambda deadline: self._answers.skip(size + 1, deadline))
            raise FileTooBigInGit(f"is {size:,} bytes, over the {limit:,}-byte limit")
        data = self._answer(lambda deadline: self._answers.read(size + 1, deadline))
        return header[1], data[:-1]  # less the newline after the contents

    def _answer(self, read: Callable[[float], bytes]) -> bytes:
        try:
            return read(self._deadline)
        except _NoAnswer:
            raise self._stuck() from None
        except EOFError:
            raise GitError("git cat-file stopped answering") from None

    # -- revisions and history ---------------------------------------------------------------------------

    def resolve(self, rev: str) -> Commit:
        """The commit REV names (a hash, HEAD~3, a branch, a tag); GitError saying why when none."""
        if not rev or rev.startswith("-") or any(ord(c) < 32 or ord(c) == 127 for c in rev):
            raise GitError(f"--rev {rev!r}: not a revision")  # an option, or a control character (a second command)
        found = self.info(f"{rev}^{{commit}}")
        if found is None:
            extra = (
                " (this is a shallow clone: older commits are not here; `git fetch --unshallow`)"
                if self.shallow
                else ""
            )
            raise GitError(f"--rev {rev}: no such revision in this repository{extra}")
        return self.commits([found[0]], walk=False)[0]

    def commits(
        self, revs: list[str], *, walk: bool = True, paths: tuple[str, ...] = (), limit: int | None = None
    ) -> list[Commit]:
        """Commits as `git rev-list --first-parent` lists them (newest first), or exactly `revs` (walk=False)."""
        args = ["rev-list", "--first-parent", "--format=%H%x1f%P%x1f%cI%x1f%ct%x1f%s", "--no-commit-header"]
        if not walk:
            args += ["--no-walk=unsorted"]
        if limit is not None:
            args.append(f"--max-count={limit}")
        args += [*revs, "--", *paths]  # pathspecs are relative to the working directory: the project
        out = self._run(*args)
        found: list[Commit] = []
        for line in out.split("\n"):
            if not line:
                continue
            commit, parents, date, stamp, subject = (line.split("\x1f") + ["", "", "", "", ""])[:5]
            found.append(Commit(commit, parents.split(" ")[0] or None, date, int(stamp or 0), subject))
        return found


class FileTooBigInGit(OSError):
    """A blob over the read limit: never read."""


class _NoAnswer(Exception):
    """The batch process said nothing before the question's deadline."""


class _Answers:
    """The batch process's output, read with a deadline: a git that stops answering cannot hang a read.

    (A buffered pipe's `readline` and `read` wait for ever: on a repository
    whose object store blocks, a stuck filesystem, or a git waiting on
    something it was told not to do.) Reads go through `select`, one chunk of
    at most 1 MiB at a time, kept in one buffer.
    """

    CHUNK = 1 << 20

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()

    def _fill(self, deadline: float) -> None:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([self.fd], [], [], left)[0]:
            raise _NoAnswer
        chunk = os.read(self.fd, self.CHUNK)
        if not chunk:
            raise EOFError
        self.buffer += chunk

    def readline(self, deadline: float) -> bytes:
        start = 0
        while (end := self.buffer.find(b"\n", start)) < 0:
            start = len(self.buffer)
            self._fill(deadline)
        line = bytes(self.buffer[: end + 1])
        del self.buffer[: end + 1]
        return line

    def read(self, size: int, deadline: float) -> bytes:
        while len(self.buffer) < size:
            self._fill(deadline)
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data

    def skip(self, size: int, deadline: float) -> bytes:
        """Drop `size` bytes, never holding more than a chunk of them."""
        while size:
            if not self.buffer:
                self._fill(deadline)
            taken = min(size, len(self.buffer))
            del self.buffer[:taken]
            size -= taken
        return b""


def parse_tree(data: bytes, oid_bytes: int = 20) -> list[TreeItem]:
    """A raw tree object's entries: `MODE NAME\\0OID` repeated."""
    items: list[TreeItem] = []
    at, n = 0, len(data)
    while at < n:
        space = data.index(b" ", at)
        nul = data.index(b"\0", space)
        mode = data[at:space].decode("ascii")
        name = data[space + 1 : nul].decode("utf-8", "surrogateescape")
        oid = data[nul + 1 : nul + 1 + oid_bytes].hex()
        items.append(TreeItem(mode, name, oid))
        at = nul + 1 + oid_bytes
    return items


class GitTree:
    """One commit's files under the project, read from git objects (`revision.Tree`); objects cached by id.

    `objects` is shared by the trees of one history, so a blob or a tree that
    many commits hold is read from git once.
    """

    def __init__(
        self,
        repo: Repository,
        commit: str,
        objects: dict[str, Any] | None = None,
        blobs: dict[str, Any] | None = None,
    ) -> None:
        self.repo = repo
        self.commit = commit
        self.objects: dict[str, Any] = {} if objects is None else objects  # tree listings by object id
        self.blobs: dict[str, Any] = {} if blobs is None else blobs  # blob bytes by object id, bounded
        self._dirs: dict[str, dict[str, TreeItem] | None] = {}

    def _dir(self, path: str) -> dict[str, TreeItem] | None:
        """The entries of directory `path` ("" for the project) by name, or None when it is not a directory."""
        if path in self._dirs:
            return self._dirs[path]
        listing: dict[str, TreeItem] | None
        if path in ("", "."):
            name: str | None = f"{self.commit}:{self.repo.prefix.rstrip('/')}"
        else:
            parent, _, base = path.rpartition("/")
            above = self._dir(parent)
            item = above.get(base) if above is not None else None
            name = item.oid if item is not None and item.is_tree else None
        listing = None
        if name is not None:
            listing = self.objects.get(name)
            if listing is None:
                try:
                    kind, data = self.repo.read(name, MAX_TREE_BYTES)
                except (GitError, FileTooBigInGit):
                    kind, data = "missing", b""
                if kind == "tree":
                    listing = {item.name: item for item in parse_tree(data, self.repo.oid_bytes)}
                    if ":" not in name:  # an object id: the same tree in every commit that holds it
                        self.objects[name] = listing
        self._dirs[path] = listing
        return listing

    def _item(self, path: str) -> TreeItem | None:
        parent, _, name = path.rpartition("/")
        listing = self._dir(parent)
        return listing.get(name) if listing is not None else None

    @property
    def has_git(self) -> bool:
        return self.repo.prefix == ""

    def kind(self, path: str) -> str | None:
        item = self._item(path)
        if item is None:
            return None
        if item.is_tree:
            return "dir"
        if item.is_link:
            return "link"
        if item.is_submodule:
            return "submodule"
        return "file"

    def names(self, path: str) -> list[str] | None:
        listing = self._dir(path)
        return None if listing is None else list(listing)

    def oid(self, path: str) -> str | None:
        item = self._item(path)
        return None if item is None else item.oid

    def read(self, path: str, limit: int) -> bytes:
        item = self._item(path)
        if item is None or item.is_tree or item.is_submodule:
            raise FileNotFoundError(f"{path} is not a file at {self.commit[:12]}")
        cached = self.blobs.pop(item.oid, None)
        if cached is None:
            try:
                _kind, cached = self.repo.read(item.oid, limit)
            except FileTooBigInGit as exc:
                cached = exc
            if len(self.blobs) >= MAX_CACHED_BLOBS:  # the least recently used goes: a walk needs its neighbours'
                del self.blobs[next(iter(self.blobs))]
        self.blobs[item.oid] = cached
        if isinstance(cached, FileTooBigInGit):
            raise cached
        if len(cached) > limit:
            raise FileTooBigInGit(f"is {len(cached):,} bytes, over the {limit:,}-byte limit")
        return cached

    def link_target(self, path: str) -> str:
        return self.read(path, 4096).decode("utf-8", "surrogateescape")
