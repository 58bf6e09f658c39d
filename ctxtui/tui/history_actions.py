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

    def action_entry_history(self) -> None:
        """The selected entry's history, computed in a worker (a walk over the commits), shown in a dialog."""
        key = getattr(self, "selected_key", None)
        view = getattr(self, "view", None)
        if key is None or view is None:
            self.app.notify("select an entry first", timeout=3)
            return
        outcome = view.plan.outcome(key)
        title = outcome.entry.title if outcome is not None else key
        session = self.session
        try:
            past = session.open_past()
        except OpenError as exc:
            self.app.notify(str(exc), severity="warning", markup=False)
            return
        self.app.notify("following the entry through the history…", timeout=3)

        def job() -> None:
            import time

            from ctxtui.opening.history_log import entry_history
            from ctxtui.opening.revision import also_read
            from ctxtui.tui.screens.entry_history import EntryHistoryScreen, render_moves

            name = session.packer_name or "ctx-0.8.1"
            head = past.commit.commit if past.commit is not None else "HEAD"
            request = session.request(session.budget)
            commits = past.history.log(head, limit=100, also=also_read(request))
            moves, log = entry_history(name, request, past.history, commits, key, max_seconds=10, clock=time.monotonic)
            content = render_moves(title, moves, len(log.records), log.complete)
            self.app.call_from_thread(self.app.push_screen, EntryHistoryScreen(content))

        self.app.run_in_thread("entry-history", job)
