"""The main screen's history actions: open the history view, show a commit, go back to the working tree.

Loads run in the App's load worker like every other (`load_project(job=...)`):
a newer choice cancels an older one still running, so stepping through
commits fast shows the last one chosen.
"""

from __future__ import annotations

from typing import Any

from ctxtui.opening.request import OpenError


class HistoryActions:
    """Mixed into `MainScreen` (which provides `session`, `app`)."""

    session: Any
    app: Any

    def action_history(self) -> None:
        from ctxtui.tui.screens.history import HistoryScreen

        try:
            past = self.session.open_past()
            commits = past.commits()
        except OpenError as exc:
            self.app.notify(str(exc), severity="warning", markup=False)
            return
        current = past.commit.commit if past.commit is not None else None
        self.app.push_screen(HistoryScreen(commits, current, self.show_revision))

    def show_revision(self, rev: str | None) -> None:
        """Show the packet at `rev` (None: the working tree)."""
        session = self.session
        self.app.load_project(job=lambda progress: session.show_revision(rev, progress))

    def action_working_tree(self) -> None:
        if not self.session.at_revision:
            self.app.notify("already the working tree", timeout=3)
            return
        self.show_revision(None)
