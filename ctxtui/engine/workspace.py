"""A loaded project: files read once, parsed once, ready to assemble at any budget.

This is the engine's front door for the CLI and the TUI: `load_workspace`
reads `.context/` (and `.ctxrc`), `Workspace.engine(now)` gives an `Engine`
bound to a clock reading the caller made.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ctxtui.engine.assemble import Engine
from ctxtui.engine.config import CtxConfig, read_ctxrc
from ctxtui.engine.model import Entry, Problem
from ctxtui.engine.reader import ContextMissing, ParsedContext, parse_context, read_context_files

__all__ = ["ContextMissing", "Workspace", "load_workspace"]


@dataclass(slots=True)
class Workspace:
    """One project's parsed context, plus any database memories joined to it."""

    project: Path
    config: CtxConfig
    parsed: ParsedContext
    memories: list[Entry] = field(default_factory=list)
    memory_problems: list[Problem] = field(default_factory=list)

    @property
    def problems(self) -> list[Problem]:
        return [*self.config.problems, *self.parsed.problems, *self.memory_problems]

    def engine(self, now: datetime, root_path: str | None = None, count: Callable[[str], int] | None = None) -> Engine:
        """An engine for this clock reading; `count` replaces ctx's estimate for budgeting."""
        return Engine(
            self.parsed,
            count=count,
            now=now,
            root_path=root_path if root_path is not None else str(self.project),
            policy=self.config.policy,
            memories=self.memories,
        )

    def all_entries(self) -> list[Entry]:
        p = self.parsed
        return [
            *p.constitution_candidates, *p.tasks, *p.conventions, *p.conventions_skipped,
            *p.decisions, *p.learnings, *self.memories, *p.steering,
        ]


def load_workspace(project: Path | str) -> Workspace:
    """Read and parse PROJECT/.context; raises ContextMissing when there is none."""
    project = Path(project).absolute()
    config = read_ctxrc(project)
    files = read_context_files(project)
    return Workspace(project=project, config=config, parsed=parse_context(files, config.policy.tool))
