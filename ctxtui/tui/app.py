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
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import App
from textual.binding import Binding
from textual.notifications import Notify
from textual.worker import Worker, WorkerState, get_current_worker

from ctxtui.engine.model import Problem
from ctxtui.engine.sources.context import ContextMissing
from ctxtui.engine.sources.memory.shared.errors import LOCKED
from ctxtui.opening.request import OpenError, Refused
from ctxtui.safe_text import clean_block, clean_line
from ctxtui.session import NOUS, Session
from ctxtui.tui.actions import ACTION_BY_ID, APP, bindings, help_lines
from ctxtui.tui.commands import CtxtuiCommands
from ctxtui.tui.heap import freeze, loading, thaw
from ctxtui.tui.main_screen import REAL_TOKENIZER, MainScreen
from ctxtui.tui.messages import FORMAT_NAMES, CopyPacket, LoadFailed, LoadProgress, ProjectLoaded, SavePacket
from ctxtui.tui.screens.help import HelpItem, HelpScreen
from ctxtui.tui.screens.turns import TURNS_HELP, TurnsScreen
from ctxtui.tui.themes import ThemeVariablesMixin, apply_theme

MAX_TOASTS = 2  # toasts on screen at once: a third pushes the oldest out

if TYPE_CHECKING:
    from ctxtui.engine.sources.memory.nous.model import TurnSummary
    from ctxtui.tui.screens.save import SaveScreen
    from ctxtui.tui.tour import Tour
    from ctxtui.tui.watch_targets import WatchTarget
    from ctxtui.turns_session import PollResult

POLL_SECONDS = 2.0  # how often a nous database is asked whether a turn was logged or a memory changed


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
        poll_seconds: float = POLL_SECONDS,
        tour: Tour | None = None,
    ) -> None:
        super().__init__()
        # Actions named "main.…" (actions.py) run on the main screen from any screen, the preview included.
        # Textual 8.2.8 resolves an action's namespace through this set and `getattr(app, name)`.
        self._action_targets.add("main")
        self.session = session
        self.main = MainScreen(session, real_tokens=real_tokens)
        if budget is not None:
            tour = None  # a budget asked for is where the screen opens
        self.main.tour = tour
        self._initial_budget = tour.pin_budget if tour is not None else budget
        self._theme_name = theme_name
        self._watch = watch
        self._notices = notices or []
        self._stop_watch = asyncio.Event()
        self._watching: set[WatchTarget] = set()  # what watch_files started
        # Loads run one at a time (workers share the session and its memory source), and file changes
        # that arrive while one runs are gathered and read in one go by a single reload worker.
        self._load_lock = threading.Lock()
        self._pending_lock = threading.Lock()
        self._pending_changes: set[Path] = set()
        self._draining = False
        self._theme_variables: tuple[str, dict[str, str]] | None = None
        self._poll_seconds = poll_seconds
        self._poll_error: str | None = None  # why the last poll of a nous database failed
        self._polling = False
        self.work_left_running = False  # set on quit: a thread worker was still running (cli/tui.py leaves at once)
        if keymap:
            self.set_keymap(keymap)  # remaps by binding id, widgets' and screens' bindings included

    def get_default_screen(self) -> MainScreen:
        return self.main

    def on_mount(self) -> None:
        asyncio.get_running_loop().set_default_executor(_UnwaitedExecutor())
        for notice in [*self._notices, *apply_theme(self, self._theme_name)]:
            self.notify(notice, severity="warning", markup=False, timeout=8)
        self.load_project(first=True)
        if self._watch:
            self.watch_files()
        if self.session.turns is not None:  # a nous database: nothing on disk to watch, so poll it
            self.set_interval(self._poll_seconds, self.poll_nous)
            self.poll_nous()
            if self.session.options.packer == NOUS:
                self.show_turns()

    def on_unmount(self) -> None:
        """Give the collector back what the app froze (heap.py): the process may go on (tests, benches)."""
        thaw()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity="information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every toast goes through the sanitiser and is never parsed as markup: messages quote paths and titles.

        Secrets of the nous connection string are scrubbed here too, whatever the message's way here."""
        if self.session.db_url:
            from ctxtui.engine.sources.memory.shared.urls import scrub

            message, title = scrub(message, self.session.db_url), scrub(title, self.session.db_url)
        super().notify(clean_block(message), title=clean_line(title), severity=severity, timeout=timeout, markup=False)

    def _on_notify(self, event: Notify) -> None:
        """Before Textual's own handler shows a toast: keep at most MAX_TOASTS, the oldest going first, so they
        do not pile up over the why panel. (Textual calls each class's `_on_notify` along the MRO, this first.)"""
        shown = list(self._notifications)
        for old in shown[: max(0, len(shown) - MAX_TOASTS + 1)]:
            self._unnotify(old, refresh=False)

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

        with self._load_lock:
            self._load_locked(first, changed, job)

    def _load_locked(
        self,
        first: bool,
        changed: set[Path] | None,
        job: Callable[[Callable[[str, int], None]], list[Problem]] | None,
    ) -> None:
        def progress(stage: str, step: int) -> None:
            self.main.post_message(LoadProgress(stage, step))

        before = self.session.budget
        try:
            problems: list[Problem] | None
            # What a load makes lives as long as the session: the collector stays out of its way (heap.py),
            # or every few slider steps a full collection walks it all again (100-200 ms at 10,000 entries).
            with loading():
                if job is not None:
                    problems = job(progress)
                elif first:
                    problems = self.session.load(self._initial_budget, progress=progress)
                else:
                    problems = self.session.reload(changed, progress=progress)
                if problems is not None:
                    freeze()  # what the load made lives as long as it: out of every automatic collection
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
        self.main.post_message(ProjectLoaded(problems, budget_moved=self.session.budget != before))
        self.call_from_thread(self._mark_turn_shown)
        if self._watch and self.session.turns is None:
            self.call_from_thread(self.watch_files, self._source_paths())  # the load may name new folders
        if self._memories_locked():
            # Nothing on disk need move when the lock goes: look again in a second, until it has.
            self.call_from_thread(self.set_timer, 1.0, self._retry_locked)

    def _source_paths(self) -> list[str]:
        """In the load worker: every path the packers read (`.ctxrc` is read, bounded, to find them)."""
        from ctxtui.opening.sources import source_paths

        try:
            return source_paths(self.session.request(), os.environ)
        except (OSError, ValueError):  # an unreadable .ctxrc: the load says so; .context/ is still watched
            return []

    def _memories_locked(self) -> bool:
        join = self.session.memory_join
        error = getattr(join.source, "error", None) if join is not None else None
        return error is not None and error.kind == LOCKED

    def _retry_locked(self) -> None:
        db = self.session.db
        if db is not None and self._memories_locked():
            self.on_files_changed({db})

    def action_reload(self) -> None:
        self.load_project(changed=None)

    # -- live reload ----------------------------------------------------------------------

    def watch_files(self, sources: list[str] | None = None) -> None:
        """Reload within a second of any change to what the packet is read from: `.context/`, `.ctxrc`, a
        steering or context folder it names (`sources`, listed by the load worker: reading `.ctxrc` for
        them is not the UI thread's job), the memory database. A folder already watched is not watched
        twice; a new `steering.dir` is watched from the load that read it."""
        from ctxtui.tui.watch_targets import watch_targets

        for target in watch_targets(self.session.project / ".context", sources or [], self.session.db):
            if target not in self._watching:
                self._watching.add(target)
                self._watch_folder(target.folder, target.recursive, None if target.names is None else set(target.names))

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

    # -- a nous database: polled --------------------------------------------------------

    def poll_nous(self) -> None:
        """One poll of the nous database in a worker (skipped while the last one still runs: a server that
        went away can take the connect timeout to say so, and the screen never waits for it)."""
        turns = self.session.turns
        if turns is None or self._polling:
            return
        self._polling = True

        def poll() -> None:
            try:
                result = turns.poll()
                fresh = list(turns.turns) if result.turns_changed else None
            finally:
                self.call_from_thread(setattr, self, "_polling", False)
            self.call_from_thread(self._polled, result, fresh)

        self.run_worker(poll, name="nous-poll", group="nous-poll", thread=True, exit_on_error=False)

    def _polled(self, result: PollResult, fresh: list[TurnSummary] | None) -> None:
        """A poll's result: the Turns list follows it; changed memories re-read the packet on the main screen."""
        was, self._poll_error = self._poll_error, result.error
        if result.error and not was:
            self.notify(
                f"The nous database cannot be read: {result.error} — the last good state stays; retrying",
                severity="warning",
                timeout=6,
            )
        elif was and not result.error:
            self.notify("Reconnected to the nous database", timeout=4)
            if self.session.loaded is None:  # the server was away at start: load now
                self.load_project(first=True)
        if result.memories_changed and self.session.loaded is not None:
            self.load_project(changed=None)
        screen = self.turns_screen
        if screen is not None:
            screen.show(fresh, result.error, self.session.turn_key, self._turns_title())

    def _mark_turn_shown(self) -> None:
        """A load may have opened another nous turn: the Turns list marks it (▶)."""
        screen = self.turns_screen
        if screen is not None and screen.shown != self.session.turn_key:
            screen.show(None, self._poll_error, self.session.turn_key)

    @property
    def turns_screen(self) -> TurnsScreen | None:
        return next((s for s in self.screen_stack if isinstance(s, TurnsScreen)), None)

    def show_turns(self) -> None:
        """The Turns view; Enter on a turn shows its sections in the main screen."""
        session, turns = self.session, self.session.turns
        if turns is None:
            self.notify("The Turns view needs a nous database: --db postgresql://…", severity="warning")
            return
        if self.turns_screen is not None:
            return

        def chosen(key: str | None) -> None:
            if key is not None and key != session.turn_key:
                self.notify(f"rebuilding turn {key}…", timeout=2)
                self.load_project(job=lambda progress: session.choose_turn(key, progress))

        screen = TurnsScreen(self._turns_title(), turns.turns, self._poll_error, session.turn_key)
        self.push_screen(screen, chosen)

    def _turns_title(self) -> str:
        from ctxtui.engine.sources.memory.shared.urls import redact

        turns = self.session.turns
        assert turns is not None, "a nous database"
        agent = turns.source.agent or self.session.db_agent or "the default agent"
        return f"nous turns of {agent} in {redact(turns.url)}, newest first (polled every {self._poll_seconds:g} s)"

    def on_files_changed(self, changed: set[Path]) -> None:
        """Gather the change; one reload worker reads everything gathered (two watchers firing for one
        commit, a burst of commits) after any load under way, so no change is dropped or read twice at once."""
        with self._pending_lock:
            self._pending_changes |= changed
            if self._draining:
                return
            self._draining = True
        self._drain_changes()

    @work(thread=True, group="reload", exit_on_error=False)
    def _drain_changes(self) -> None:
        while True:
            with self._pending_lock:
                if not self._pending_changes:
                    self._draining = False
                    return
                changed, self._pending_changes = self._pending_changes, set()
            with self._load_lock:
                self._load_locked(False, changed, None)

    # -- what any screen may ask ------------------------------------------------------------

    def key_for(self, action_id: str) -> str:
        """The key that runs an action, as the footer shows it (the user's remapping included)."""
        # Textual keeps the active keymap (normalised key names) in `_keymap`; no public getter in 8.2.8.
        keys = self._keymap.get(action_id) or ACTION_BY_ID[action_id].keys
        return self.get_key_display(Binding(keys.split(",")[0].strip(), ""))

    def dynamic_palette(self) -> list:
        """The palette's entries for what is on screen (the command provider asks)."""
        return self.main.dynamic_palette()

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """The palette's "Screenshot": an SVG in ctxtui's screenshots folder (made if missing), and where it went.

        Textual's own saves to the working directory and reports through a
        markup toast; this one says the path in words (or why it failed).
        """
        from ctxtui.paths import screenshots_dir
        from ctxtui.safe_write import os_error_words

        folder = Path(path) if path else screenshots_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            saved = self.save_screenshot(filename, str(folder), time_format)
        except OSError as exc:
            self.notify(f"Screenshot not saved in {folder}: {os_error_words(exc)}", severity="error", timeout=6)
            return None
        self.notify(f"Screenshot saved: {saved}", timeout=6)
        return None

    def action_help(self) -> None:
        # Textual keeps the active keymap (normalised key names) in `_keymap`; there is no public getter in 8.2.8.
        from ctxtui.tui.legend import legend
        from ctxtui.tui.themes import fate_symbols

        nous = self.session.turns is not None
        lines: list[HelpItem] = [
            (None, "Keys"),
            *help_lines(self._keymap, lambda key: self.get_key_display(Binding(key, "")), nous=nous),
        ]
        if nous:
            lines += TURNS_HELP
        self.push_screen(HelpScreen([*lines, *legend(fate_symbols(self.theme))]))

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
        """Ask where (`SaveScreen` checks the path and asks before replacing), then write in a worker."""
        from ctxtui.opening.sources import source_paths
        from ctxtui.tui.screens.save import SaveScreen

        budget, fmt = intent.view.budget, intent.fmt
        default = Path.cwd() / f"context-packet-{budget}.{fmt}"
        # Every path a packer reads for this session: context folders by any name, steering, .ctxrc, the store.
        sources = source_paths(self.session.request(), os.environ)

        def save(path: str) -> None:
            self.run_in_thread("save", partial(self._write_packet, screen, budget, fmt, path, sources))

        screen = SaveScreen(
            str(default),
            save,
            sources=sources,
            what=f"the {FORMAT_NAMES.get(fmt, fmt)} packet",
        )
        self.push_screen(screen)

    def _write_packet(self, screen: SaveScreen, budget: int, fmt: str, path: str, sources: list[str]) -> None:
        """In a worker: the packet made now (its `Generated:` is the time of saving), written atomically."""
        from ctxtui.safe_write import WriteRefused, os_error_words, write_atomically

        try:
            text, now = self.session.packet_now(budget, fmt)
            # Bytes as `ctxtui pack` writes them: invalid UTF-8 from the inputs passes through unchanged.
            written = write_atomically(
                path,
                text.encode("utf-8", "surrogateescape"),
                sources=sources,
            )
        except WriteRefused as exc:
            self.call_from_thread(screen.failed, str(exc))
            return
        except (ContextMissing, OpenError, Refused) as exc:  # the sources changed meanwhile
            self.call_from_thread(screen.failed, str(exc))
            return
        except OSError as exc:  # reading the sources again failed
            self.call_from_thread(screen.failed, f"could not read the project again: {os_error_words(exc)}")
            return
        except Exception as exc:  # never leave the dialog saying "Saving…"
            self.call_from_thread(screen.failed, f"{type(exc).__name__}: {exc}")
            raise
        self.call_from_thread(self._packet_saved, screen, path, written, self.session.pack_command(budget, fmt, now))

    def _packet_saved(self, screen: SaveScreen, path: str, written: Path, command: str | None) -> None:
        screen.saved(written)
        given = Path(os.path.abspath(Path(path).expanduser()))
        where = path if given == written else f"{path} → {written}"
        again = f"{command} prints it again" if command else "no ctxtui pack line makes it (a setting changed here)"
        self.notify(f"Saved {where} — stamped with the time of saving; {again}", timeout=8)

    async def action_quit(self) -> None:
        # A thread worker cannot be stopped, and Python waits for it before the process ends: the CLI
        # leaves at once when one is still running (a load stuck on a hostile input must not keep ctxtui up).
        self.work_left_running = any(
            worker.is_running and getattr(worker, "_thread_worker", False) for worker in self.workers
        )
        self._stop_watch.set()
        self.session.close()
        self.exit()


class _UnwaitedExecutor(ThreadPoolExecutor):
    """Thread workers' executor: on the way out, asyncio does not wait for a job that never returns.

    `asyncio.run` joins its default executor's threads after the app has closed its screen; a load stuck
    on a hostile input kept `q` from ending ctxtui. Idle threads still end at once; the CLI then leaves
    without waiting for a busy one (`work_left_running`, `cli/tui.py`).
    """

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=False, cancel_futures=cancel_futures)
