"""The app's model: one project, its engine, the current budget and what it produced.

Plain Python with no Textual, so the TUI's behaviour (reload keeps the budget,
thresholds computed once per load, real-token counts cached by content) is
testable without a screen. Widgets read `Session.view`; they never compute.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Callable

from ctxtui.engine.assemble import Engine
from ctxtui.engine.config import resolve_budget
from ctxtui.engine.explain import Threshold, thresholds
from ctxtui.engine.model import Packet, Problem
from ctxtui.engine.quirks import Quirk, find_quirks
from ctxtui.engine.render import to_json, to_markdown
from ctxtui.engine.workspace import Workspace, load_workspace

MIN_BUDGET = 0
MAX_BUDGET = 200_000
LOAD_STEPS = 4
THRESHOLD_SECONDS = 5.0


@dataclass(slots=True)
class View:
    """Everything the screen shows for one budget."""

    budget: int
    packet: Packet
    generation: int  # bumps on every reload, so caches keyed by it go stale


@dataclass(slots=True)
class Session:
    """A project opened in the app."""

    project: Path
    db: Path | None = None
    db_project: str | None = None
    root_path: str | None = None
    clock: Callable[[], datetime] = field(default=lambda: datetime.now().astimezone())
    workspace: Workspace | None = None
    engine: Engine | None = None
    budget: int = 8000
    generation: int = 0
    _thresholds: dict[str, Threshold] | None = None
    _markdown: tuple[int, int, str] | None = None
    _memory_source: object | None = None
    _entry_count: tuple[int, int] | None = None
    _memory_entries: list | None = None
    _last_memories: list = field(default_factory=list)
    _memory_problems: list = field(default_factory=list)

    def load(self, budget: int | None = None, keep_budget: bool = False,
             progress: Callable[[str, int], None] | None = None) -> list[Problem]:
        """(Re)read everything; raises ContextMissing when `.context/` is gone.

        `progress(stage, step)` is called before each of LOAD_STEPS stages, so a
        progress bar can follow a load that takes seconds (50,000 memories).
        """
        report = progress or (lambda stage, step: None)
        report("reading .context/", 0)
        workspace = load_workspace(self.project)
        self._memory_entries = None
        return self._finish_load(workspace, budget, keep_budget, report)

    def reload(self, changed: set[Path] | None = None,
               progress: Callable[[str, int], None] | None = None) -> list[Problem] | None:
        """Re-read only what changed; None when nothing that matters did.

        `.context/` changes re-parse the files; a memory database commit (seen
        through PRAGMA data_version) reloads the memories only.
        """
        report = progress or (lambda stage, step: None)
        context_dir = self.project / ".context"
        # The database may live in .context/ (the default): its commits are not .context/ edits.
        context_changed = changed is None or any(
            (context_dir in p.parents or p == context_dir) and not self._is_db_file(p) for p in changed)
        db_changed = changed is None or self.db is None or any(p.name.startswith(self.db.name) for p in changed)
        if not context_changed:
            if not db_changed or self._memory_source is None or not self._memory_source.changed():
                return None
        if context_changed:
            report("reading .context/", 0)
            workspace = load_workspace(self.project)
        else:
            assert self.workspace is not None
            workspace = Workspace(self.workspace.project, self.workspace.config, self.workspace.parsed)
        if db_changed:
            self._memory_entries = None
        return self._finish_load(workspace, None, True, report)

    def _is_db_file(self, path: Path) -> bool:
        """The memory database or one of SQLite's files beside it (-wal, -shm, -journal)."""
        if self.db is None or path.name not in {self.db.name + s for s in ("", "-wal", "-shm", "-journal")}:
            return False
        return path.absolute().parent == self.db.absolute().parent

    def _finish_load(self, workspace: Workspace, budget, keep_budget, report) -> list[Problem]:
        now = self.clock()
        if self.db is not None:
            report("loading memories", 1)
            self._attach_memories(workspace, now)
        report("scoring", 2)
        engine = workspace.engine(now, self.root_path)
        problems = list(workspace.problems)
        if not keep_budget:
            self.budget, _, more = resolve_budget(budget, os.environ, workspace.config)
            problems += more
        report("assembling", 3)
        engine.assemble(self.budget)  # warm the scorer for the first screen, still off the UI thread
        self.workspace, self.engine = workspace, engine
        self.generation += 1
        self._thresholds = None
        self._markdown = None
        return problems

    def _attach_memories(self, workspace: Workspace, now: datetime) -> None:
        """Memories through a kept MemorySource, so later reloads can ask it what changed."""
        from ctxtui.engine.memory import MemorySource, MemorySourceError
        from ctxtui.engine.memory_join import memory_entry

        if self._memory_entries is None:
            try:
                if self._memory_source is None:
                    self._memory_source = MemorySource(self.db, project=self.db_project)
                    loaded = self._memory_source.load(now=now)
                else:
                    loaded = self._memory_source.reload(now=now) or self._memory_source.last
                self._memory_entries = [memory_entry(r, now) for r in loaded.records]
                self._memory_problems = list(loaded.problems)
            except MemorySourceError as exc:
                # Keep the last good memories, say why they are not fresh.
                self._memory_problems = [Problem(str(self.db), f"{exc}" + (
                    "; showing the last good state" if self._last_memories else ""))]
                self._memory_entries = self._last_memories
        self._last_memories = self._memory_entries
        workspace.memories = list(self._memory_entries or [])
        workspace.memory_problems = list(self._memory_problems)

    @property
    def entry_count(self) -> int:
        """Candidates in this load (asked on every slider step, so counted once per load)."""
        if self._entry_count is None or self._entry_count[0] != self.generation:
            count = len(self.workspace.all_entries()) if self.workspace else 0
            self._entry_count = (self.generation, count)
        return self._entry_count[1]

    def set_budget(self, budget: int) -> None:
        self.budget = max(MIN_BUDGET, min(MAX_BUDGET, int(budget)))

    def view(self) -> View:
        assert self.engine is not None, "load() first"
        return View(self.budget, self.engine.assemble(self.budget), self.generation)

    def markdown(self, view: View) -> str:
        cached = self._markdown
        if cached and cached[:2] == (view.generation, view.budget):
            return cached[2]
        text = to_markdown(view.packet)
        self._markdown = (view.generation, view.budget, text)
        return text

    def json(self, view: View) -> str:
        return to_json(view.packet)

    def thresholds(self) -> dict[str, Threshold]:
        """Every entry's thresholds; computed once per load (about 0.4 s on ctx-large).

        Bounded in time: a workspace of tens of thousands of entries has too many
        change points to scan completely, and each threshold then says how far
        it was examined. A reload abandons a scan that is under way.
        """
        if self._thresholds is None:
            assert self.engine is not None
            generation = self.generation
            found = thresholds(self.engine, max_seconds=THRESHOLD_SECONDS if self.entry_count <= 5000 else 2.0,
                               should_stop=lambda: generation != self.generation)
            if generation != self.generation:
                return {}
            self._thresholds = found
        return self._thresholds

    @property
    def thresholds_ready(self) -> bool:
        return self._thresholds is not None

    def quirks(self, view: View) -> list[Quirk]:
        assert self.engine is not None
        return find_quirks(self.engine, view.packet)

    def watch_paths(self) -> list[Path]:
        paths = [self.project / ".context"]
        if self.db is not None:
            paths.append(self.db.parent)  # the -wal file changes on commit, not the database
        return paths
