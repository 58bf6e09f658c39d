"""Opening a ctx packer at a git revision: `.context/` and `.ctxrc` from git objects, the clock at the commit.

`History` holds one project's repository reader and the caches a walk over
many commits shares: git objects by id (a blob many commits hold is read
once) and parse results by file text (`revision.ParseMemo`). `open_at`
gives the same `Opened` as `ctx.open_ctx` on the working tree; `now`
defaults to the commit's committer date, so the packet is the one ctx
printed when run on a checkout of the commit at that time.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from ctxtui.engine.sources.revision import ParseMemo
from ctxtui.opening.git import Commit, GitError, GitTree, Repository

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ctxtui.opening.request import Opened, PackRequest

__all__ = ["Commit", "GitError", "History", "also_read", "open_at"]

HISTORY_PATHS = (".context", ".ctxrc")  # what the packet of a ctx packer is made of, in git


class History:
    """One project's git history, read-only, with the caches a walk over its commits shares."""

    def __init__(self, project: str) -> None:
        from ctxtui.engine.sources.fspath import absolute

        self.project = absolute(project)
        self.repo = Repository(self.project)
        self.objects: dict[str, Any] = {}  # tree listings by object id
        self.blobs: dict[str, Any] = {}  # blob bytes by object id (the most recently used, `git.MAX_CACHED_BLOBS`)
        self.memo = ParseMemo()
        self._commits: dict[str, Commit] = {}
        self._trees: dict[str, GitTree] = {}

    def close(self) -> None:
        self.repo.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def resolve(self, rev: str) -> Commit:
        """The commit REV names; GitError with the reason when none."""
        commit = self.repo.resolve(rev)
        self._commits[commit.commit] = commit
        return commit

    def commit(self, oid: str) -> Commit:
        """A commit by its id (cached)."""
        found = self._commits.get(oid)
        if found is None:
            found = self._commits[oid] = self.repo.commits([oid], walk=False)[0]
        return found

    def packet_paths(self, head: str, also: Iterable[str | None] = ()) -> tuple[str, ...]:
        """`HISTORY_PATHS` and the folders named at `head` or in `also` that lie inside the repository."""
        from ctxtui.engine.sources.revision import config_at
        from ctxtui.engine.sources.steering import DEFAULT_STEERING_DIR

        try:
            tree = self.tree(self.resolve(head).commit)
            named = [
                config_at(tree, "0.8.1").steering_dir or DEFAULT_STEERING_DIR,
                config_at(tree, "0.8.0").context_dir,
            ]
        except GitError:
            named = []
        paths = list(HISTORY_PATHS)
        for folder in (*named, *also):
            inside = _inside_repository(folder, self.repo.prefix) if folder else None
            if inside is not None:
                paths.append(inside)
        return tuple(dict.fromkeys(paths))

    def preload(self, oids: list[str]) -> None:
        """Read the commits not yet known in one git call (a log's parents)."""
        wanted = list(dict.fromkeys(oid for oid in oids if oid not in self._commits))
        for start in range(0, len(wanted), 1000):
            for commit in self.repo.commits(wanted[start : start + 1000], walk=False):
                self._commits[commit.commit] = commit

    def tree(self, commit: str) -> GitTree:
        """The project's files at `commit` (one view per commit: its directories are listed once)."""
        tree = self._trees.get(commit)
        if tree is None:
            if len(self._trees) >= 64:  # a view per commit, the newest kept (each holds its listings)
                del self._trees[next(iter(self._trees))]
            tree = self._trees[commit] = GitTree(self.repo, commit, self.objects, self.blobs)
        return tree

    def log(
        self, head: str = "HEAD", *, since: str | None = None, limit: int = 100, also: Iterable[str | None] = ()
    ) -> list[Commit]:
        """The first-parent commits from `head` that touched what a ctx packet is made of, newest first.

        That is `.context/`, `.ctxrc`, and the folders `.ctxrc` can name instead of them, as `head`'s
        `.ctxrc` names them: 0.8.1's steering folder (`steering.dir`) and 0.8.0's context folder
        (`context_dir`); `also`: more folders (the request's `--context-dir`, `$CTX_DIR`).
        """
        revs = [head] if since is None else [head, f"^{since}"]
        commits = self.repo.commits(revs, paths=self.packet_paths(head, also), limit=limit)
        for commit in commits:
            self._commits[commit.commit] = commit
        return commits


def also_read(request: PackRequest, env: Mapping[str, str] | None = None) -> tuple[str | None, ...]:
    """The folders a request names beside `.ctxrc` (0.8.0's `--context-dir`, `$CTX_DIR`): for `History.log`."""
    import os

    return (request.context_dir, (os.environ if env is None else env).get("CTX_DIR"))


def _inside_repository(folder: str, prefix: str) -> str | None:
    """`folder` (relative to the project, as `.ctxrc` gives it) relative to the project, when it stays in the
    repository (the project is `prefix` below its top); None for an absolute path or one that climbs out."""
    if posixpath.isabs(folder):
        return None
    joined = posixpath.normpath(posixpath.join(prefix or ".", folder))
    if joined == ".." or joined.startswith("../"):
        return None
    return posixpath.relpath(joined, prefix.rstrip("/") or ".")


def open_at(
    name: str,
    request: PackRequest,
    history: History,
    commit: Commit,
    *,
    strict: bool = False,
    env: Mapping[str, str] | None = None,
) -> Opened:
    """ctx `name`'s packer on `.context/` at `commit`; the clock is the commit's date unless --now pins it."""
    from ctxtui.opening.clock import parse_now
    from ctxtui.opening.ctx import open_ctx

    now = parse_now(request.now if request.now is not None else commit.date)
    return open_ctx(
        name,
        request,
        strict=strict,
        env=env,
        now=now,
        tree=history.tree(commit.commit),
        memo=history.memo,
    )
