"""The main screen's history actions: open the history view, show a commit, go back to the working tree.

Loads run in the App's load worker like every other (`load_project(job=...)`):
a newer choice cancels an older one still running, so stepping through
commits fast shows the last one chosen.
"""

from __future__ import annotations

import weakref
from typing import Any

from ctxtui.opening.request import OpenError
from ctxtui.safe_text import clean_line


class HistoryActions:
    """Mixed into `MainScreen` (which provides `session`, `app`)."""

    session: Any
    app: Any
    view: Any
    selected_key: Any
    query_one: Any
    has_class: Any

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
        """Follow the selected entry through the commits (a walk, in a worker) at this budget.

        What it finds is kept with the load, by budget and key, and shown in the
        why panel's History section; when the panel is hidden (a narrow
        terminal) a dialog shows it. `y` again on a followed entry re-opens it.
        """
        key, view = self.selected_key, self.view
        if key is None or view is None:
            self.app.notify("select an entry first", timeout=3)
            return
        outcome = view.plan.outcome(key)
        title = outcome.entry.title if outcome is not None else key
        loaded, slot = view.loaded, (view.budget, key)
        if slot in loaded.entry_histories:
            found = loaded.entry_histories[slot]
            if found is None:
                self.app.notify("still following the entry through the history…", timeout=3)
            else:
                self._entry_history_ready(loaded, slot, title, dialog=True)
            return
        session = self.session
        try:
            past = session.open_past()
        except OpenError as exc:
            self.app.notify(str(exc), severity="warning", markup=False)
            return
        loaded.entry_histories[slot] = None
        self._refresh_why()
        self.app.notify("following the entry through the history…", timeout=3)
        # The finished worker keeps `job` until a full collection: it must not keep a whole load alive.
        loaded_ref = weakref.ref(loaded)
        del loaded

        def job() -> None:
            import time

            from ctxtui.opening.history_log import EntryHistory, entry_history
            from ctxtui.opening.revision import also_read

            name = session.packer_name or "ctx-0.8.1"
            head = past.commit.commit if past.commit is not None else "HEAD"
            request = session.request(slot[0])
            try:
                commits = past.history.log(head, limit=100, also=also_read(request))
                moves, log = entry_history(
                    name, request, past.history, commits, key, max_seconds=10, clock=time.monotonic
                )
                found = EntryHistory(moves, len(log.records), log.complete)
            except OpenError as exc:
                found = EntryHistory([], 0, True, error=str(exc))
            except BaseException:
                # Not left "following…" for ever: `y` may try again; the worker reports the error itself.
                if (shown := loaded_ref()) is not None:
                    shown.entry_histories.pop(slot, None)
                self.app.call_from_thread(self._refresh_why)
                raise
            shown = loaded_ref()
            if shown is not None:  # else a reload replaced the load meanwhile: nothing to show it with
                shown.entry_histories[slot] = found
                self.app.call_from_thread(self._entry_history_ready, shown, slot, title)

        self.app.run_in_thread("entry-history", job)

    def _refresh_why(self) -> None:
        from ctxtui.tui.widgets.why.panel import WhyPanel

        self.query_one(WhyPanel).refresh_explanation()

    def _entry_history_ready(self, loaded: Any, slot: tuple[int, str], title: str, *, dialog: bool = False) -> None:
        """Show what the walk found: in the why panel when it shows that entry at that budget, else say it is
        ready; in a dialog when asked again (`dialog`) or when the panel is hidden."""
        from ctxtui.tui.screens.entry_history import EntryHistoryScreen, render_moves

        found = loaded.entry_histories.get(slot)
        if found is None:
            return
        view = self.view
        shown_here = view is not None and view.loaded is loaded and (view.budget, self.selected_key) == slot
        if shown_here:
            self._refresh_why()
        if dialog or (shown_here and self.has_class("-narrow")):
            self.app.push_screen(EntryHistoryScreen(render_moves(title, found)))
        elif not shown_here:
            self.app.notify(f"the history of “{clean_line(title)[:60]}” is ready: y on it shows it", timeout=5)
