"""The past in the app: a project's commits that touched `.context/`, and which one the screen shows.

`Past` keeps the repository reader open while the app runs (its caches make
stepping from commit to commit cheap: each blob read once, each file text
parsed once) and hands the session the workspace of the chosen commit. The
session shows it read-only, at the commit's date (`Session.at_revision`).
"""

from __future__ import annotations

import os
from typing import Any

from ctxtui.opening.git import Commit, GitError

__all__ = ["Commit", "GitError", "Past"]

LIST_LIMIT = 500  # commits listed in the history view


class Past:
    """One project's history as the app steps through it."""

    def __init__(self, project: str) -> None:
        from ctxtui.opening.revision import History

        self.history = History(project)  # GitError: not a repository...
        self.commit: Commit | None = None  # None: the working tree
        self._commits: list[Commit] | None = None

    def commits(self) -> list[Commit]:
        """The first-parent commits that touched `.context/` or `.ctxrc`, newest first (read once)."""
        if self._commits is None:
            self._commits = self.history.log("HEAD", limit=LIST_LIMIT)
        return self._commits

    def choose(self, rev: str | None) -> Commit | None:
        """Show `rev` (any revision git takes; None: the working tree)."""
        self.commit = None if rev is None else self.history.resolve(rev)
        return self.commit

    def step(self, by: int) -> Commit | None:
        """The commit `by` places older (+) or newer (−) in the list than the one shown; None past the newest."""
        commits = self.commits()
        if not commits:
            return self.commit
        keys = [c.commit for c in commits]
        at = keys.index(self.commit.commit) if self.commit is not None and self.commit.commit in keys else -1
        index = at + by
        if index < 0:
            self.commit = None
        else:
            self.commit = commits[min(index, len(commits) - 1)]
        return self.commit

    def tree(self) -> Any:
        assert self.commit is not None
        return self.history.tree(self.commit.commit)

    def workspace(self, name: str, request: Any) -> tuple[Any, str]:
        """(workspace, context directory) of ctx `name` at the chosen commit; ContextMissing when none."""
        from ctxtui.engine.sources.revision import workspace_at
        from ctxtui.opening.ctx import context_dir_of

        assert self.commit is not None
        tree = self.tree()
        context_dir = context_dir_of(name, request, os.environ, tree)
        project, memo = self.history.project, self.history.memo
        workspace = workspace_at(tree, project, context_dir, memo=memo, revision=self.commit.commit)
        return workspace, context_dir

    def close(self) -> None:
        self.history.close()

    def label(self) -> str:
        """The past in words for the screen: "3f2a1c0 of 2026-10-14 (its subject)"."""
        if self.commit is None:
            return "the working tree"
        return f"{self.commit.commit[:10]} of {self.commit.date[:16].replace('T', ' ')}: {self.commit.subject}"
