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
THRESHOLD_SECONDS = 5.0


@dataclass(slots=True)
class View:
    """Everything the screen shows for one budget."""

    budget: int
    packet: Packet
    generation: int  # bumps on every reload, so caches keyed by it go stale

    @property
    def over_budget(self) -> int:
        return max(0, self.packet.tokens_used - self.budget)


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
    budget_source: str = "default"
    generation: int = 0
    _thresholds: dict[str, Threshold] | None = None
    _markdown: tuple[int, int, str] | None = None

    def load(self, budget: int | None = None, keep_budget: bool = False) -> list[Problem]:
        """(Re)read everything; raises ContextMissing when `.context/` is gone."""
        workspace = load_workspace(self.project)
        now = self.clock()
        if self.db is not None:
            from ctxtui.engine.memory_join import attach_memories

            attach_memories(workspace, self.db, project=self.db_project, now=now)
        self.workspace = workspace
        self.engine = workspace.engine(now, self.root_path)
        problems = list(workspace.problems)
        if not keep_budget:
            self.budget, self.budget_source, more = resolve_budget(budget, os.environ, workspace.config)
            problems += more
        self.generation += 1
        self._thresholds = None
        self._markdown = None
        return problems

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
            found = thresholds(self.engine, max_seconds=THRESHOLD_SECONDS,
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
            paths.append(self.db.parent)
        return paths
