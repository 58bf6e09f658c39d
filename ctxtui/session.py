"""The app's model: one project, its packer, and a `View` per budget that owns what derives from it.

Plain Python with no Textual, so the TUI's behaviour (a reload keeps the
budget, thresholds are computed once per load, memories reload alone when
only the database changed) is testable without a screen. The TUI sends
intents (a budget, a reload) and shows the `View` it gets back; it never
computes, and it keeps no copies of what a view already knows.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from ctxtui.engine.explain.quirks import Quirk, find_quirks
from ctxtui.engine.explain.thresholds import Threshold, thresholds
from ctxtui.engine.model import Plan, Problem
from ctxtui.engine.packers.ctx.assemble import CtxPacker, packer_for
from ctxtui.engine.packers.ctx.memories import JoinedMemories, MemoryJoin
from ctxtui.engine.sources.ctxrc import resolve_budget
from ctxtui.engine.sources.workspace import Workspace, load_workspace

MIN_BUDGET = 0
MAX_BUDGET = 200_000
LOAD_STEPS = 4
THRESHOLD_SECONDS = 5.0
THRESHOLD_SECONDS_LARGE = 2.0
LARGE_FOR_THRESHOLDS = 5000  # entries

T = TypeVar("T")


class Loaded:
    """One load of the sources: the workspace, its packer, and what derives from them alone.

    Thresholds are computed at most once per load, in whatever thread asks
    first; a newer load makes an older one `stale`, which cuts its scan short.
    """

    def __init__(self, generation: int, workspace: Workspace, packer: CtxPacker) -> None:
        self.generation = generation
        self.workspace = workspace
        self.packer = packer
        self.entry_count = len(workspace.all_entries())
        self.stale = False
        self._thresholds: dict[str, Threshold] | None = None
        self._lock = threading.Lock()

    @property
    def thresholds_ready(self) -> bool:
        return self._thresholds is not None

    def thresholds(self) -> dict[str, Threshold]:
        """Every entry's thresholds (about 0.4 s on ctx-large); {} when this load went stale meanwhile.

        Bounded in time: a workspace of tens of thousands of entries has too
        many change points to scan completely, and each threshold then says how
        far it was examined.
        """
        with self._lock:
            if self._thresholds is None:
                seconds = THRESHOLD_SECONDS if self.entry_count <= LARGE_FOR_THRESHOLDS else THRESHOLD_SECONDS_LARGE
                found = thresholds(self.packer, max_seconds=seconds, should_stop=lambda: self.stale)
                if self.stale:
                    return {}
                self._thresholds = found
            return self._thresholds


class View:
    """What the screen shows for one budget of one load; derived values are computed once, on use.

    What a caller derives from a view (the TUI's table rows) is kept with it
    through `memo`, so it lives exactly as long as the view it describes.
    """

    __slots__ = ("__weakref__", "_counts", "_memo", "budget", "loaded", "plan", "real_tokens")

    def __init__(self, loaded: Loaded, budget: int) -> None:
        self.loaded = loaded
        self.budget = budget
        self.plan: Plan = loaded.packer.plan(budget)
        self._counts: dict[str, int] | None = None
        self.real_tokens: int | None = None  # the real tokenizer's count of the Markdown, once a worker has it
        self._memo: dict[str, Any] = {}

    @property
    def generation(self) -> int:
        return self.loaded.generation

    @property
    def markdown(self) -> str:
        return self.plan.render("md")

    @property
    def json(self) -> str:
        return self.plan.render("json")

    @property
    def counts(self) -> dict[str, int]:
        if self._counts is None:
            self._counts = self.plan.counts()
        return self._counts

    def memo(self, name: str, build: Callable[[View], T]) -> T:
        """`build(self)`, computed on first use under `name` and kept with this view."""
        try:
            return self._memo[name]
        except KeyError:
            value = self._memo[name] = build(self)
            return value

    def quirks(self) -> list[Quirk]:
        return find_quirks(self.loaded.packer, self.plan)

    def same_as(self, other: View | None) -> bool:
        """The same load at the same budget: nothing on screen would change."""
        return other is not None and other.loaded is self.loaded and other.budget == self.budget


@dataclass(slots=True)
class Session:
    """A project opened in the app."""

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
    loaded: Loaded | None = None
    memory_join: MemoryJoin | None = None
    _generation: int = 0

    def load(
        self, budget: int | None = None, keep_budget: bool = False, progress: Callable[[str, int], None] | None = None
    ) -> list[Problem]:
        """(Re)read everything; raises ContextMissing when `.context/` is gone.

        `progress(stage, step)` is called before each of LOAD_STEPS stages, so a
        progress bar can follow a load that takes seconds (50,000 memories).
        """
        report = progress or (lambda stage, step: None)
        report("reading .context/", 0)
        workspace = load_workspace(self.project)
        return self._finish_load(workspace, budget, keep_budget, report, memories_changed=True)

    def reload(
        self, changed: set[Path] | None = None, progress: Callable[[str, int], None] | None = None
    ) -> list[Problem] | None:
        """Re-read only what changed; None when nothing that matters did.

        `.context/` changes re-parse the files; a memory database commit (seen
        through PRAGMA data_version) reloads the memories only.
        """
        report = progress or (lambda stage, step: None)
        context_dir = self.project / ".context"
        # The database may live in .context/ (the default): its commits are not .context/ edits.
        context_changed = changed is None or any(
            (context_dir in p.parents or p == context_dir) and not self._is_db_file(p) for p in changed
        )
        db_changed = changed is None or self.db is None or any(p.name.startswith(self.db.name) for p in changed)
        if not context_changed:
            if not db_changed or self.memory_join is None or not self.memory_join.changed():
                return None
        if context_changed or self.loaded is None:
            report("reading .context/", 0)
            workspace = load_workspace(self.project)
        else:
            old = self.loaded.workspace
            workspace = Workspace(old.project, old.config, old.parsed)
        return self._finish_load(workspace, None, True, report, memories_changed=db_changed)

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
        now = self.clock()
        if self.db is not None or self.db_url is not None:
            report("loading memories", 1)
            if self.memory_join is None:
                source = self.db_url or self.db
                assert source is not None  # one of the two, as the if above says
                self.memory_join = MemoryJoin(source, self.db_project, live=True, agent=self.db_agent)
            if joined is None:
                joined = self.memory_join.load(now, refresh=memories_changed)
            workspace.memories, workspace.memory_problems = joined.entries, joined.problems
        report("scoring", 2)
        packer = packer_for(workspace, now=now, root_path=self.root_path)
        problems = list(workspace.problems)
        if not keep_budget:
            self.budget, _, more = resolve_budget(budget, os.environ, workspace.config)
            problems += more
        report("assembling", 3)
        packer.plan(self.budget)  # warm the scorer for the first screen, still off the UI thread
        if self.loaded is not None:
            self.loaded.stale = True
        self._generation += 1
        self.loaded = Loaded(self._generation, workspace, packer)
        return problems

    def poll(self, progress: Callable[[str, int], None] | None = None) -> list[Problem] | None:
        """Reload the memories alone if the database says they changed; None when it says not.

        For a database that cannot be watched on disk (a nous URL), call it
        from a worker every second or two: when nothing committed it costs one
        snapshot query; a server that went away makes it reload, fail, and
        keep the last good memories with a problem saying why (the next poll
        reconnects). A file database answers through PRAGMA data_version.
        """
        if self.loaded is None or self.memory_join is None or not self.memory_join.changed():
            return None
        old = self.loaded.workspace
        joined = self.memory_join.load(self.clock())
        if not joined.fresh and [str(p) for p in joined.problems] == [str(p) for p in old.memory_problems]:
            return None  # the same failure as last time (a server still away): nothing to redraw
        workspace = Workspace(old.project, old.config, old.parsed)
        return self._finish_load(
            workspace, None, True, progress or (lambda stage, step: None), memories_changed=True, joined=joined
        )

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def packer(self) -> CtxPacker | None:
        return self.loaded.packer if self.loaded else None

    @property
    def workspace(self) -> Workspace | None:
        return self.loaded.workspace if self.loaded else None

    @property
    def entry_count(self) -> int:
        return self.loaded.entry_count if self.loaded else 0

    def set_budget(self, budget: int) -> None:
        self.budget = max(MIN_BUDGET, min(MAX_BUDGET, int(budget)))

    def view(self) -> View:
        """The view at the current budget (a new one: the caller decides whether it differs)."""
        assert self.loaded is not None, "load() first"
        return View(self.loaded, self.budget)

    def watch_paths(self) -> list[Path]:
        paths = [self.project / ".context"]
        if self.db is not None:
            paths.append(self.db.parent)  # the -wal file changes on commit, not the database
        return paths
