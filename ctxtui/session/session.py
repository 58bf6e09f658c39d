"""The app's model: one project, the packer the user chose, and a `View` per budget that owns what derives from it.

Plain Python with no Textual, so the TUI's behaviour (a reload keeps the
budget, thresholds are computed once per load, memories reload alone when
only the database changed, a packer switch keeps the budget, a knob edit
recomputes) is testable without a screen. The TUI sends intents (a budget,
a reload, a packer, a knob) and shows the `View` it gets back; it never
computes, and it keeps no copies of what a view already knows. Packers are
opened exactly as the CLI opens them (`ctxtui.opening`), so the screen and
`ctxtui pack` agree.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxtui.engine.model import Plan, Problem
from ctxtui.engine.packers.base import Knob, Packer
from ctxtui.engine.packers.ctx.memories import JoinedMemories, MemoryJoin
from ctxtui.engine.packers.registry import CTX_PACKERS, PACKER_TITLES
from ctxtui.engine.sources.ctx_gates import Refusal
from ctxtui.engine.sources.workspace import Workspace
from ctxtui.opening.choose import Choice, choose_packer
from ctxtui.opening.request import Opened, PackRequest
from ctxtui.opening.sources import touches_sources

if TYPE_CHECKING:
    from ctxtui.turns_session import TurnsSession

from ctxtui.session.constants import CTXRC, MAX_BUDGET, MIN_BUDGET, NOUS, OWN_BUDGET, PROJECT_MEMORY_DB, SET_HERE
from ctxtui.session.view import Loaded, View

_FROM_FILES = frozenset({CTXRC, "default"})  # budget sources a reload follows (the user set neither)


@dataclass(slots=True)
class Session:
    """A project opened in the app, under one packer at a time."""

    project: Path
    db: Path | None = None
    db_project: str | None = None
    # A nous store by `postgresql://` URL instead of a file: nothing on disk to watch, so the
    # app polls `poll()` (a snapshot comparison, well under a millisecond when nothing committed).
    db_url: str | None = None
    db_agent: str | None = None
    root_path: str | None = None
    clock: Callable[[], datetime] = field(default=lambda: datetime.now().astimezone())
    budget: int = 8000
    budget_source: str = "default"  # where `budget` came from: the opener's word, SET_HERE, or CTXRC once saved
    loaded: Loaded | None = None
    memory_join: MemoryJoin | None = None
    # The rest of what the user asked: the packer (None: the ctx on PATH), --set, --skill, query, turn...
    options: PackRequest = field(default_factory=PackRequest)
    choice: Choice | None = None  # the packer in use and where that choice came from
    knob_edits: dict[str, Any] = field(default_factory=dict)  # knobs changed in the app, kept across reloads
    _generation: int = 0
    _workspace: Workspace | None = None  # the last ctx workspace read (a version switch reuses it)
    _workspace_dir: str | None = None  # its context directory
    _store_kind: str | None = None
    _store_kind_known: bool = False
    _turns: Any = None  # the nous database's TurnsSession, once asked for
    _first_plan: tuple[Loaded | None, Plan] | None = None  # a load's own first plan, for the first view()
    _parked_edits: dict[str, Any] = field(default_factory=dict)  # knob edits the packer on screen has no knob for
    # The past: the commit whose .context/ is shown (None: the working tree), and its reader (`past.Past`).
    past: Any = None

    # -- what the user asked for ------------------------------------------------------

    def request(self, budget: int | str | None = None) -> PackRequest:
        """The options as the openers take them (the session's own fields win)."""
        return self.options.but(
            project=str(self.project),
            db=self.db_url or (str(self.db) if self.db is not None else None),
            db_project=self.db_project,
            agent=self.db_agent,
            root_path=self.root_path if self.root_path is not None else self.options.root_path,
            budget=budget,
        )

    def available_packers(self) -> tuple[str, ...]:
        """The packers the sources allow: ctx's three with a context directory, a store's own packer."""
        from ctxtui.opening.stores import packers_for, store_kind

        if not self._store_kind_known:
            self._store_kind = store_kind(self.db_url or self.db)
            self._store_kind_known = True
        has_context = self._workspace is not None or (self.project / ".context").is_dir()
        return packers_for(has_context, self._store_kind)

    @property
    def packer_name(self) -> str | None:
        return self.loaded.packer.name if self.loaded else (self.choice.name if self.choice else None)

    def packer_title(self) -> str:
        name = self.packer_name or ""
        return PACKER_TITLES.get(name, name)

    # -- loading --------------------------------------------------------------------------

    def load(
        self, budget: int | None = None, keep_budget: bool = False, progress: Callable[[str, int], None] | None = None
    ) -> list[Problem]:
        """(Re)read everything; raises ContextMissing when a ctx packer has no context directory.

        `progress(stage, step)` is called before each of LOAD_STEPS stages, so a
        progress bar can follow a load that takes seconds (50,000 memories).
        Raises `OpenError` (one line of words) for what the user must fix.
        """
        report = progress or (lambda stage, step: None)
        if self.choice is None:
            self.choice = choose_packer(self.options.packer)
        name = self.choice.name
        if name in CTX_PACKERS:
            report("reading .context/", 0)
            workspace = self._read_workspace(name)
            return self._finish_load(workspace, budget, keep_budget, report, memories_changed=True)
        return self._open_peer(name, budget, keep_budget, report)

    def _read_workspace(self, name: str) -> Workspace:
        from ctxtui.opening.ctx import context_dir_of, read_ctx_workspace

        if self.past is not None and self.past.commit is not None:
            workspace, self._workspace_dir = self.past.workspace(name, self.request())
            self._workspace = workspace
            return workspace
        workspace = read_ctx_workspace(name, self.request(), os.environ)
        self._workspace, self._workspace_dir = workspace, context_dir_of(name, self.request(), os.environ)
        return workspace

    @property
    def at_revision(self) -> bool:
        """The packet shown is the past's: read-only, its clock the commit's."""
        return self.past is not None and self.past.commit is not None

    def _tree(self) -> Any:
        return self.past.tree() if self.at_revision else None

    def reload(
        self, changed: set[Path] | None = None, progress: Callable[[str, int], None] | None = None
    ) -> list[Problem] | None:
        """Re-read only what changed; None when nothing that matters did.

        `.context/` changes re-parse the files; a memory database commit (seen
        through PRAGMA data_version) reloads the memories only. A peer packer
        (whose whole input is the store) opens its store again.
        """
        report = progress or (lambda stage, step: None)
        name = self.packer_name
        if name is not None and name not in CTX_PACKERS:
            if changed is not None and not any(self._is_db_file(p) for p in changed):
                return None
            return self._open_peer(name, None, True, report)
        if self.at_revision and changed is not None and not any(self._is_db_file(p) for p in changed):
            return None  # the past does not change with the working tree's files
        context_changed = changed is None or self._sources_changed(changed)
        db_changed = changed is None or self.db is None or any(p.name.startswith(self.db.name) for p in changed)
        if not context_changed:
            if not db_changed or self.memory_join is None or not self.memory_join.changed():
                return None
        if context_changed or self.loaded is None or self._workspace is None:
            report("reading .context/", 0)
            workspace = self._read_workspace(name or self._chosen().name)
        else:
            old = self._workspace
            workspace = Workspace(old.project, old.config, old.parsed, revision=old.revision, ctxrc_text=old.ctxrc_text)
        return self._finish_load(workspace, None, True, report, memories_changed=db_changed)

    def _chosen(self) -> Choice:
        if self.choice is None:
            self.choice = choose_packer(self.options.packer)
        return self.choice

    def _sources_changed(self, changed: set[Path]) -> bool:
        """A source edit: in `.context/` (not the database, which may live there), or elsewhere what the
        packers read (`.ctxrc`, a steering or context folder it names, a file in one: `touches_sources`)."""
        context, elsewhere = self.project / ".context", []
        for path in (p for p in changed if not self._is_db_file(p)):  # .ctxrc is read once, for all the rest
            if path == context or context in path.parents:
                return True
            elsewhere.append(path)
        return touches_sources(elsewhere, self.request(), os.environ)

    def _is_db_file(self, path: Path) -> bool:
        """The memory database or one of SQLite's files beside it (-wal, -shm, -journal)."""
        if self.db is None or path.name not in {self.db.name + s for s in ("", "-wal", "-shm", "-journal")}:
            return False
        return path.absolute().parent == self.db.absolute().parent

    def _finish_load(
        self,
        workspace: Workspace,
        budget: int | None,
        keep_budget: bool,
        report: Callable[[str, int], None],
        *,
        memories_changed: bool,
        joined: JoinedMemories | None = None,
    ) -> list[Problem]:
        """A ctx packer over `workspace` (memories joined), its knobs re-applied, the budget settled."""
        from ctxtui.opening.ctx import open_ctx

        now = self.now()
        if self.db is not None or self.db_url is not None:
            report("loading memories", 1)
            if self.memory_join is None:
                source = self.db_url or self.db
                assert source is not None  # one of the two, as the if above says
                self.memory_join = MemoryJoin(source, self.db_project, live=True, agent=self.db_agent)
            if joined is None:
                joined = self.memory_join.load(now, refresh=memories_changed)
            workspace.memories, workspace.memory_problems = joined.entries, joined.problems
        self._workspace = workspace  # what the next poll compares with
        report("scoring", 2)
        opened = open_ctx(self._chosen().name, self.request(budget), workspace=workspace, now=now, tree=self._tree())
        # A refusal is not listed here: the main screen's banner shows it (Loaded.refusal).
        return self._install(opened, budget, keep_budget, report, list(opened.problems), made_at=now)

    def _open_peer(
        self, name: str, budget: int | None, keep_budget: bool, report: Callable[[str, int], None]
    ) -> list[Problem]:
        """A packer whose whole input is the memory store (Shabka, Cortex, nous)."""
        from ctxtui.opening.packer import open_named

        report("reading the memory store", 1)
        request = self.request(budget)
        problems: list[Problem] = []
        if name == "cortex" and request.query is None:
            # `drift memory why` needs a focus; the screen starts from an empty one and k sets it.
            request = request.but(query="")
            problems.append(Problem(name, "no --query given: the focus is empty (press k to set it)"))
        opened = open_named(name, request)
        turn = getattr(opened.packer, "turn", None)
        if name == NOUS and self.options.turn is None and turn is not None:
            # Stay on this turn: a later reload (a memory changed) must not jump to a newer one.
            self.options = self.options.but(turn=turn.summary.key)
        report("scoring", 2)
        problems += [Problem(name, line) for line in [*opened.notices, *opened.warnings]]
        return self._install(opened, budget, keep_budget, report, problems)

    def _install(
        self,
        opened: Opened,
        budget: int | None,
        keep_budget: bool,
        report: Callable[[str, int], None],
        problems: list[Problem],
        made_at: datetime | None = None,
    ) -> list[Problem]:
        packer = opened.packer
        # Edits another packer took (ctx 0.8.1's task share, parked while 0.8.0 is shown) come back with it.
        edits, self.knob_edits = {**self._parked_edits, **self.knob_edits}, {}
        self._parked_edits = {}
        for key, value in edits.items():
            try:
                packer = packer.with_knob(key, value, SET_HERE)
                self.knob_edits[key] = value
            except (KeyError, ValueError):
                self._parked_edits[key] = value  # this packer has no such knob: kept for one that has
        if not keep_budget:
            # A budget that is the packer's own default (a nous turn's) is the default after the knobs too.
            own = opened.budget_source == OWN_BUDGET
            self.budget = getattr(packer, "default_budget", opened.budget) if own else opened.budget
            self.budget_source = opened.budget_source
        elif (
            self.loaded is not None
            and self.loaded.packer.name == packer.name  # a reload: a packer switch keeps the budget
            and self.budget_source in _FROM_FILES
            and opened.budget_source in _FROM_FILES
            and (opened.budget, opened.budget_source) != (self.budget, self.budget_source)
        ):
            # .ctxrc or the default gave the budget on screen and .ctxrc now says another: showing the old one
            # would be untrue, so it follows the file (one set here, a flag, the environment is kept).
            self.budget, self.budget_source = opened.budget, opened.budget_source
        report("assembling", 3)
        plan = packer.plan(self.budget)  # the first screen's, off the UI thread (a second one cost 10-15 ms at 50k)
        self._new_load(packer, opened.workspace, opened.refusal, opened.budget_source, made_at)
        self._first_plan = (self.loaded, plan)  # its own budget: the slider may move while it is made
        return problems

    def _new_load(
        self,
        packer: Packer,
        workspace: Workspace | None,
        refusal: Refusal | None,
        budget_source: str,
        made_at: datetime | None = None,
    ) -> None:
        if self.loaded is not None:
            self.loaded.stale = True
        self._generation += 1
        self.loaded = Loaded(
            self._generation,
            packer,
            workspace=workspace,
            choice=self.choice,
            refusal=refusal,
            budget_source=budget_source,
            made_at=made_at,
        )

    def poll(self, progress: Callable[[str, int], None] | None = None) -> list[Problem] | None:
        """Reload the memories alone if the database says they changed; None when it says not.

        For a database that cannot be watched on disk (a nous URL), call it
        from a worker every second or two: when nothing committed it costs one
        snapshot query; a server that went away makes it reload, fail, and
        keep the last good memories with a problem saying why (the next poll
        reconnects). A file database answers through PRAGMA data_version.
        """
        if self.loaded is None or self.memory_join is None or self._workspace is None or not self.memory_join.changed():
            return None
        old = self._workspace
        joined = self.memory_join.load(self.now())
        if not joined.fresh and [str(p) for p in joined.problems] == [str(p) for p in old.memory_problems]:
            return None  # the same failure as last time (a server still away): nothing to redraw
        workspace = Workspace(old.project, old.config, old.parsed, revision=old.revision, ctxrc_text=old.ctxrc_text)
        return self._finish_load(
            workspace, None, True, progress or (lambda stage, step: None), memories_changed=True, joined=joined
        )

    # -- intents: another packer, a knob ------------------------------------------------

    def switch_packer(self, name: str, progress: Callable[[str, int], None] | None = None) -> list[Problem]:
        """Show `name`'s packet of the same sources, keeping the budget (a version switch reuses the workspace)."""
        report = progress or (lambda stage, step: None)
        self.choice = Choice(name, SET_HERE)
        if name not in CTX_PACKERS:
            return self._open_peer(name, None, True, report)
        from ctxtui.opening.ctx import context_dir_of

        workspace = self._workspace
        if workspace is None or context_dir_of(name, self.request(), os.environ) != self._workspace_dir:
            report("reading .context/", 0)
            workspace = self._read_workspace(name)
            return self._finish_load(workspace, None, True, report, memories_changed=True)
        fresh = Workspace(
            workspace.project,
            workspace.config,
            workspace.parsed,
            revision=workspace.revision,
            ctxrc_text=workspace.ctxrc_text,
        )
        fresh.memories, fresh.memory_problems = workspace.memories, workspace.memory_problems
        joined = JoinedMemories(workspace.memories, workspace.memory_problems, fresh=False)
        return self._finish_load(fresh, None, True, report, memories_changed=False, joined=joined)

    def packer_of(self, name: str) -> Packer:
        """Another ctx packer over the workspace on screen (to compare versions); reads no file."""
        from ctxtui.opening.ctx import open_ctx

        assert self._workspace is not None and name in CTX_PACKERS, "a ctx workspace is loaded"
        workspace = self._workspace
        copy = Workspace(
            workspace.project,
            workspace.config,
            workspace.parsed,
            revision=workspace.revision,
            ctxrc_text=workspace.ctxrc_text,
        )
        copy.memories, copy.memory_problems = workspace.memories, workspace.memory_problems
        packer = open_ctx(name, self.request(), workspace=copy, now=self.now(), tree=self._tree()).packer
        for key, value in self.knob_edits.items():
            try:
                packer = packer.with_knob(key, value, SET_HERE)
            except (KeyError, ValueError):
                pass  # a setting the other version does not have
        return packer

    def knobs(self) -> tuple[Knob, ...]:
        """The settings of the packer in use, with their values and where each came from."""
        return self.loaded.packer.knobs() if self.loaded else ()

    def set_knob(self, key: str, value: Any) -> None:
        """Change one knob of the packer in use (ValueError/KeyError: not a value or knob it has)."""
        assert self.loaded is not None, "load() first"
        loaded = self.loaded
        old = loaded.packer
        packer = old.with_knob(key, value, SET_HERE)
        self.knob_edits[key] = value
        # A packer whose budget is its settings' sum (nous: the sections'): the slider follows an edit
        # when it stood at the old sum, so a frame switch shows that frame's budgets, not a share of the old.
        before, after = getattr(old, "default_budget", None), getattr(packer, "default_budget", None)
        if before is not None and after is not None and self.budget == before:
            self.budget = max(MIN_BUDGET, min(MAX_BUDGET, int(after)))  # still the sections' sum: same source
        self._new_load(packer, loaded.workspace, loaded.refusal, loaded.budget_source, loaded.made_at)

    def reset_knobs(self) -> None:
        """Forget the knobs changed here (the next load is the sources' own)."""
        self.knob_edits.clear()
        self._parked_edits.clear()

    # -- a nous database's turns ----------------------------------------------------------

    @property
    def turns(self) -> TurnsSession | None:
        """The Turns view's model for a nous URL (None for any other source); polled by the app."""
        if self.db_url is None:
            return None
        if self._turns is None:
            from ctxtui.turns_session import TurnsSession

            self._turns = TurnsSession(self.db_url, agent=self.db_agent, env=dict(os.environ))
        turns: TurnsSession = self._turns
        return turns

    @property
    def turn_key(self) -> str | None:
        """The key of the nous turn on screen (None: another packer)."""
        turn = getattr(self.packer, "turn", None) if self.packer_name == NOUS else None
        return turn.summary.key if turn is not None else None

    def choose_turn(self, key: str, progress: Callable[[str, int], None] | None = None) -> list[Problem]:
        """Show nous's sections of logged turn `key` at its own budget (knobs changed here are kept)."""
        self.options = self.options.but(turn=key)
        self.choice = Choice(NOUS, SET_HERE)
        return self._open_peer(NOUS, None, False, progress or (lambda stage, step: None))

    def close(self) -> None:
        """Close the database connections the session holds open (the app calls it on quit)."""
        if self._turns is not None:
            self._turns.close()
        if self.memory_join is not None:
            self.memory_join.close()
        if self.past is not None:
            self.past.close()

    def open_past(self) -> Any:
        """The project's history (`past.Past`), opened on first use; GitError when it has none."""
        if self.past is None:
            from ctxtui.session.past import Past

            self.past = Past(str(self.project))
        return self.past

    def show_revision(self, rev: str | None, progress: Callable[[str, int], None] | None = None) -> list[Problem]:
        """Show the packet at `rev` (None: back to the working tree), keeping the budget and the packer."""
        past = self.open_past()
        past.choose(rev)
        return self.load(keep_budget=True, progress=progress)

    def step_revision(self, by: int, progress: Callable[[str, int], None] | None = None) -> list[Problem]:
        """Show the commit `by` places older (+1) or newer (−1); newer than the newest is the working tree."""
        self.open_past().step(by)
        return self.load(keep_budget=True, progress=progress)

    # -- views --------------------------------------------------------------------------

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def packer(self) -> Packer | None:
        return self.loaded.packer if self.loaded else None

    @property
    def workspace(self) -> Workspace | None:
        return self.loaded.workspace if self.loaded else None

    @property
    def entry_count(self) -> int:
        return self.loaded.entry_count if self.loaded else 0

    def now(self) -> datetime:
        """The clock, to the whole second: packets print whole seconds, so `--now` with that time is exact.

        In the past, the commit's date (ctx packed that commit then), unless --now pinned the clock.
        """
        if self.at_revision and self.options.now is None:
            from ctxtui.opening.clock import parse_now

            return parse_now(self.past.commit.date)
        return self.clock().replace(microsecond=0)

    # -- the memory database a project may have -------------------------------------------

    @property
    def joins_memories(self) -> bool:
        """A memory store is joined to the packet (`--db`, or `join_found_memories`)."""
        return self.db is not None or self.db_url is not None

    @property
    def memory_db_found(self) -> Path | None:
        """The project's `.context/memory.db` when it exists, a ctx packer is in use and no store is joined."""
        name = self.packer_name
        if self.joins_memories or (name is not None and name not in CTX_PACKERS):
            return None  # a peer packer's input is its own store
        found = self.project / PROJECT_MEMORY_DB
        return found if found.is_file() else None

    def memory_db_refusal(self) -> str | None:
        """Why `.context/memory.db` cannot be joined when it is there but not a file (a FIFO, a device...)."""
        import os
        import stat

        found = self.project / PROJECT_MEMORY_DB
        try:
            mode = os.stat(found).st_mode
        except OSError:
            return "is a symbolic link to nothing" if os.path.islink(found) else None
        if stat.S_ISREG(mode):
            return None
        from ctxtui.engine.sources.memory.shared.private_copy import describe

        return f"is {describe(mode)}, not a database file: not joined"

    def join_found_memories(self) -> Path | None:
        """Join `.context/memory.db` from the next load on (`reload(None)`); the database joined, or None."""
        found = self.memory_db_found
        if found is not None:
            self.db, self.memory_join = found, None
            self._store_kind_known = False
        return found

    @property
    def memory_count(self) -> int:
        """How many memories the loaded ctx packet was given (0 without a store)."""
        return len(self.loaded.workspace.memories) if self.loaded and self.loaded.workspace else 0

    # -- a packet made again, and the command line that makes it ------------------------

    def packet_now(self, budget: int, fmt: str) -> tuple[str, datetime]:
        """The packet at `budget` made now (its `Generated:` is the time of saving) and that now; see `remade`."""
        from ctxtui.opening.command import remade

        now = self.now()
        if self.at_revision and self.loaded is not None:  # the past's packet, as ctx printed it at the commit
            return self.loaded.packer.plan(budget).render(fmt), now
        request = self.request(budget).but(now=now.isoformat())
        return remade(self._chosen().name, request, budget, fmt, self.knob_edits, SET_HERE), now

    def pack_command(self, budget: int, fmt: str, now: datetime | None) -> str | None:
        """The `ctxtui pack` line printing this packet at `budget` made at `now` (None: the packer's own clock)."""
        from ctxtui.opening.command import pack_command

        name = self._chosen().name if self.loaded is None else self.loaded.packer.name
        refused = self.loaded is not None and self.loaded.refusal is not None
        if self.at_revision:
            line = pack_command(
                self.request(budget), name, budget, fmt, now=None, knob_edits=self.knob_edits, ignore_refusal=refused
            )
            return None if line is None else f"{line} --rev {self.past.commit.commit[:12]}"
        return pack_command(
            self.request(budget), name, budget, fmt, now=now, knob_edits=self.knob_edits, ignore_refusal=refused
        )

    def set_budget(self, budget: int) -> None:
        """The user's budget (slider, b, [ ]): from now on it reads (set here)."""
        budget = max(MIN_BUDGET, min(MAX_BUDGET, int(budget)))
        if budget != self.budget:
            self.budget, self.budget_source = budget, SET_HERE

    def saved_to_ctxrc(self, keys: Iterable[str]) -> None:
        """`.ctxrc` now holds these knobs (and the budget, BUDGET_KEY): they read (.ctxrc) from now on.

        The saved knobs leave `knob_edits` (the next load reads them from the file, as ctx will), and the
        packer on screen gets the same values with the file as their source.
        """
        from ctxtui.engine.packers.ctx.knobs import BUDGET_KEY

        assert self.loaded is not None, "load() first"
        packer = self.loaded.packer
        for key in keys:
            if key == BUDGET_KEY:
                self.budget_source = CTXRC
            elif key in self.knob_edits:
                packer = packer.with_knob(key, self.knob_edits.pop(key), CTXRC)
        loaded = self.loaded
        if packer is not loaded.packer:
            self._new_load(packer, loaded.workspace, loaded.refusal, loaded.budget_source, loaded.made_at)

    def view(self) -> View:
        """The view at the current budget (a new one: the caller decides whether it differs)."""
        assert self.loaded is not None, "load() first"
        first, self._first_plan = self._first_plan, None  # the load's own plan, if still for this budget
        plan = first[1] if first and first[0] is self.loaded and first[1].budget == self.budget else None
        return View(self.loaded, self.budget, plan, self.budget_source)

    @property
    def label(self) -> str:
        """What the status line calls these sources: the project, or a lone memory store's name."""
        if (self.project / ".context").is_dir() or (self.db is None and self.db_url is None):
            return self.project.name
        if self.db is not None:
            return self.db.name
        from ctxtui.engine.sources.memory.shared.urls import redact

        return redact(str(self.db_url))

    def watch_paths(self) -> list[Path]:
        paths = [self.project / ".context"]
        if self.db is not None:
            paths.append(self.db.parent)  # the -wal file changes on commit, not the database
        return paths
