"""The ctxtui application: themes, keys, workers and screens around one `MainScreen`.

The App owns the `Session` (the model the CLI hands it), loads and watches the
project, hosts every background job (threads, exclusive per group, errors
reported in one place) and performs what any screen may ask of it: copy or
save a packet (`messages.CopyPacket`, `SavePacket`). The main screen owns the
layout and the slider path; the key bindings, the command palette and the
help all come from `actions.ACTIONS`.
"""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Callable
from pathlib import Path

from textual import on, work
from textual.app import App
from textual.binding import Binding
from textual.worker import Worker, WorkerState, get_current_worker

from ctxtui.engine.model import Problem
from ctxtui.engine.sources.context import ContextMissing
from ctxtui.opening.request import OpenError, Refused
from ctxtui.safe_text import clean_block, clean_line
from ctxtui.session import Session
from ctxtui.tui.actions import APP, bindings, help_lines
from ctxtui.tui.commands import CtxtuiCommands
from ctxtui.tui.main_screen import REAL_TOKENIZER, MainScreen
from ctxtui.tui.messages import FORMAT_NAMES, CopyPacket, LoadFailed, LoadProgress, ProjectLoaded, SavePacket
from ctxtui.tui.screens.help import HelpScreen
from ctxtui.tui.themes import ThemeVariablesMixin, apply_theme


class CtxtuiApp(ThemeVariablesMixin, App):
    """One project, live."""

    TITLE = "ctxtui"
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {CtxtuiCommands}
    BINDINGS = bindings(APP)

    def __init__(
        self,
        session: Session,
        *,
        budget: int | None = None,
        theme_name: str | None = None,
        watch: bool = True,
        real_tokens: bool = True,
        keymap: dict[str, str] | None = None,
        notices: list[str] | None = None,
    ) -> None:
        super().__init__()
        # Actions named "main.…" (actions.py) run on the main screen from any screen, the preview included.
        # Textual 8.2.8 resolves an action's namespace through this set and `getattr(app, name)`.
        self._action_targets.add("main")
        self.session = session
        self.main = MainScreen(session, real_tokens=real_tokens)
        self._initial_budget = budget
        self._theme_name = theme_name
        self._watch = watch
        self._notices = notices or []
        self._stop_watch = asyncio.Event()
        self._missed_changes: set[Path] = set()
        self._theme_variables: tuple[str, dict[str, str]] | None = None
        if keymap:
            self.set_keymap(keymap)  # remaps by binding id, widgets' and screens' bindings included

    def get_default_screen(self) -> MainScreen:
        return self.main

    def on_mount(self) -> None:
        for notice in [*self._notices, *apply_theme(self, self._theme_name)]:
            self.notify(notice, severity="warning", markup=False, timeout=8)
        self.load_project(first=True)
        if self._watch:
            self.watch_files()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity="information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every toast goes through the sanitiser and is never parsed as markup: messages quote paths and titles."""
        super().notify(clean_block(message), title=clean_line(title), severity=severity, timeout=timeout, markup=False)

    def theme_colors(self) -> dict[str, str]:
        """The theme's CSS variables, resolved once per theme (the slider path asks every step)."""
        cached = self._theme_variables
        if cached is None or cached[0] != self.theme:
            cached = self._theme_variables = (self.theme, self.get_css_variables())
        return cached[1]

    # -- workers --------------------------------------------------------------------------

    def run_in_thread(self, group: str, job: Callable[[], None]) -> Worker[None]:
        """Run `job` in a thread worker, exclusive in `group`: a newer job marks the older one cancelled (it
        keeps running, so a job checks `get_current_worker().is_cancelled` before handing back a result).
        Errors end up in `_worker_failed`, like every worker's.

        A finished Worker is freed only by a full collection (its contextvars Context refers back to
        it), and it keeps `job`: a job must not hold a `View` (10,000 outcomes and rows) strongly —
        measured, that made every tenth slider step pay a 1 s collection. Pass a weak reference.
        """
        return self.run_worker(job, name=group, group=group, thread=True, exclusive=True, exit_on_error=False)

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """Every worker's errors end up here: said once, never a crash or a silent hang."""
        if event.state is WorkerState.ERROR:
            error = event.worker.error
            self.log.error(f"worker {event.worker.name} failed: {error!r}")
            if event.worker.group == "load":
                self.main.post_message(LoadFailed(None))
            self.notify(
                clean_line(f"{event.worker.group or event.worker.name} failed: {type(error).__name__}: {error}"),
                severity="error",
                markup=False,
                timeout=10,
            )

    # -- loading --------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def load_project(
        self,
        first: bool = False,
        changed: set[Path] | None = None,
        job: Callable[[Callable[[str, int], None]], list[Problem]] | None = None,
    ) -> None:
        """Read and parse off the UI thread; a reload keeps budget, selection and scroll.

        `job(progress)`: another change of the load instead (a packer switch, a knob edit), run the same way.
        """

        def progress(stage: str, step: int) -> None:
            self.main.post_message(LoadProgress(stage, step))

        try:
            problems: list[Problem] | None
            if job is not None:
                problems = job(progress)
            elif first:
                problems = self.session.load(self._initial_budget, progress=progress)
            else:
                problems = self.session.reload(changed, progress=progress)
                if problems is None:  # e.g. a checkpoint touched the -wal, no new commit
                    return
        except (ContextMissing, OpenError, Refused, KeyError, ValueError) as exc:
            self.main.post_message(LoadFailed(str(exc).strip("'\"")))
            return
        except OSError as exc:  # a file vanishing mid-read, a permission flip
            self.main.post_message(LoadFailed(f"reload failed: {exc}"))
            return
        if get_current_worker().is_cancelled:
            return
        # What was just loaded lives as long as the session: move it out of the
        # collector's way, or every few slider steps a full collection walks it
        # all again (100-200 ms pauses measured at 10,000 entries).
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.main.post_message(ProjectLoaded(problems))
        self.call_from_thread(self._reload_missed_changes)

    def action_reload(self) -> None:
        self.load_project(changed=None)

    # -- live reload ----------------------------------------------------------------------

    def watch_files(self) -> None:
        """Reload within a second of any change to `.context/` or the memory database."""
        self._watch_folder(self.session.project / ".context", recursive=True, names=None)
        db = self.session.db
        if db is not None:
            # A commit in WAL mode touches only NAME-wal; never watch -shm, readers write it too.
            self._watch_folder(db.parent, recursive=False, names={db.name, db.name + "-wal"})

    @work(exclusive=False, group="watch", exit_on_error=False)
    async def _watch_folder(self, folder: Path, recursive: bool, names: set[str] | None) -> None:
        from watchfiles import awatch

        if not folder.is_dir():
            return

        def relevant(_change, path: str) -> bool:
            return names is None or Path(path).name in names

        while True:
            async for changes in awatch(
                folder,
                watch_filter=relevant,
                debounce=400,
                step=50,
                recursive=recursive,
                stop_event=self._stop_watch,
                ignore_permission_denied=True,
            ):
                self.on_files_changed({Path(path) for _, path in changes})
                if not folder.is_dir():
                    break  # the watch dies with its folder (`rm -rf .context; ctx init`)
            # Wait for the folder to come back, give its writer a moment, then read it and watch the new one.
            while not self._stop_watch.is_set() and not folder.is_dir():
                await asyncio.sleep(0.5)
            if self._stop_watch.is_set():
                return
            await asyncio.sleep(0.4)
            self.on_files_changed({folder / name for name in names} if names else {folder})

    def on_files_changed(self, changed: set[Path]) -> None:
        if self.session.loaded is None:  # the first load is still reading: a reload would cancel it; do it after
            self._missed_changes |= changed
            return
        self.load_project(changed=changed)

    def _reload_missed_changes(self) -> None:
        if self._missed_changes:
            missed, self._missed_changes = self._missed_changes, set()
            self.load_project(changed=missed)

    # -- what any screen may ask ------------------------------------------------------------

    def dynamic_palette(self) -> list:
        """The palette's entries for what is on screen (the command provider asks)."""
        return self.main.dynamic_palette()

    def action_help(self) -> None:
        # Textual keeps the active keymap (normalised key names) in `_keymap`; there is no public getter in 8.2.8.
        lines = help_lines(self._keymap, lambda key: self.get_key_display(Binding(key, "")))
        self.push_screen(HelpScreen(lines))

    @on(CopyPacket)
    def _copy_packet(self, intent: CopyPacket) -> None:
        from ctxtui.tui.clipboard import copy_text

        view, fmt = intent.view, intent.fmt
        result = copy_text(self, view.plan.render(fmt))
        real = f", {view.real_tokens:,} {REAL_TOKENIZER}" if view.real_tokens is not None and fmt == "md" else ""
        self.notify(
            f"Copied the {FORMAT_NAMES[fmt]} packet: ~{view.plan.tokens_used:,} "
            f"tokens (ctx estimate{real}) via {result.describe()}",
            markup=False,
            timeout=4,
        )

    @on(SavePacket)
    def _save_packet(self, intent: SavePacket) -> None:
        from ctxtui.tui.screens.prompts import SaveScreen

        view, fmt = intent.view, intent.fmt
        default = Path.cwd() / f"context-packet-{view.budget}.{fmt}"

        def save(path: str | None) -> None:
            from ctxtui.safe_write import WriteRefused, write_atomically

            if not path:
                return
            try:
                # Bytes as `ctxtui pack` writes them: invalid UTF-8 from the inputs passes through unchanged.
                written = write_atomically(
                    path,
                    view.plan.render(fmt).encode("utf-8", "surrogateescape"),
                    context_dirs=[self.session.project / ".context"],
                )
            except WriteRefused as exc:
                self.notify(f"Not saved: {exc}", severity="error")
                return
            given = Path(os.path.abspath(Path(path).expanduser()))
            self.notify(f"Saved {path}" if given == written else f"Saved {path} → {written}", timeout=4)

        self.push_screen(SaveScreen(str(default)), save)

    async def action_quit(self) -> None:
        self._stop_watch.set()
        self.exit()
