"""Opening a ctx packer at a git revision: `.context/` and `.ctxrc` from git objects, the clock at the commit.

`History` holds one project's repository reader and the caches a walk over
many commits shares: git objects by id (a blob many commits hold is read
once) and parse results by file text (`revision.ParseMemo`). `open_at`
gives the same `Opened` as `ctx.open_ctx` on the working tree; `now`
defaults to the commit's committer date, so the packet is the one ctx
printed when run on a checkout of the commit at that time.
"""

from __future__ import annotations

from ctxtui.engine.sources.revision import ParseMemo
from ctxtui.opening.git import Commit, GitError, GitTree, Repository

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from ctxtui.opening.request import Opened, PackRequest

__all__ = ["Commit", "GitError", "History", "open_at"]

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

    def log(self, head: str = "HEAD", *, since: str | None = None, limit: int = 100) -> list[Commit]:
        """The first-parent commits from `head` that touched `.context/` or `.ctxrc`, newest first."""
        revs = [head] if since is None else [head, f"^{since}"]
        commits = self.repo.commits(revs, paths=HISTORY_PATHS, limit=limit)
        for commit in commits:
            self._commits[commit.commit] = commit
        return commits


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
