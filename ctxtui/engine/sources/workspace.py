"""A loaded project: `.context/` read and parsed once, `.ctxrc` read, memories joined.

This is the front door to the sources for the CLI and the TUI:
`load_workspace` reads `.context/` (and `.ctxrc`); packers are built from the
result, bound to a clock reading the caller made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine.model import Entry, Problem
from ctxtui.engine.sources.context import (
    ContextFiles,
    ContextMissing,
    ParsedContext,
    parse_context,
    read_context_files,
)
from ctxtui.engine.sources.ctxrc import CtxConfig, read_ctxrc
from ctxtui.engine.sources.fspath import absolute

if TYPE_CHECKING:
    from ctxtui.engine.sources.fspath import PathText

__all__ = ["ContextMissing", "Workspace", "load_workspace"]


class Workspace:
    """One project's parsed context, plus any database memories joined to it (set once they are read).

    A plain class with `__slots__`, not a dataclass: a cold `pack` does not import `dataclasses`
    (docs/performance.md, "The engine's records").
    """

    __slots__ = ("project", "config", "parsed", "memories", "memory_problems", "revision", "ctxrc_text")

    def __init__(
        self,
        project: str,
        config: CtxConfig,
        parsed: ParsedContext,
        memories: list[Entry] | None = None,
        memory_problems: list[Problem] | None = None,
        revision: str = "",
        ctxrc_text: str | None = None,
    ) -> None:
        self.project = project  # absolute, spelled as pathlib spells it (`fspath.absolute`)
        self.config = config
        self.parsed = parsed
        self.memories: list[Entry] = [] if memories is None else memories
        self.memory_problems: list[Problem] = [] if memory_problems is None else memory_problems
        self.revision = revision  # "": the working tree; else the commit it was read at (`revision.workspace_at`)
        self.ctxrc_text = ctxrc_text  # at a revision: its .ctxrc (None: it had none)

    def config_for(self, version: str) -> CtxConfig:
        """`.ctxrc` as ctx `version` ("0.8.1" or "0.8.0") reads it: each knows its own keys (at a revision:
        the commit's `.ctxrc`, never the working tree's)."""
        if version == "0.8.1":
            return self.config
        if self.revision:
            from ctxtui.engine.sources.ctxrc import parse_ctxrc

            return CtxConfig() if self.ctxrc_text is None else parse_ctxrc(self.ctxrc_text, version)
        return read_ctxrc(self.project, version)

    @property
    def problems(self) -> list[Problem]:
        return [*self.config.problems, *self.parsed.problems, *self.memory_problems]

    def all_entries(self) -> list[Entry]:
        p = self.parsed
        return [
            *p.constitution_candidates,
            *p.tasks,
            *p.conventions,
            *p.conventions_skipped,
            *p.decisions,
            *p.learnings,
            *self.memories,
            *p.steering,
        ]


def unreadable_workspace(project: PathText, reason: Problem) -> Workspace:
    """A workspace ctx can read nothing of (its files lie under a system folder): an empty packet's inputs."""
    project = absolute(project)
    files = ContextFiles(root=project, problems=[reason])
    return Workspace(project=project, config=CtxConfig(), parsed=parse_context(files))


def load_workspace(project: PathText, context_dir: str = ".context") -> Workspace:
    """Read and parse PROJECT/.context (or ctx 0.8.0's context dir); raises ContextMissing when there is none."""
    project = absolute(project)
    config = read_ctxrc(project)
    files = read_context_files(project, context_dir, config.steering_dir)
    return Workspace(project=project, config=config, parsed=parse_context(files, config.tool))
