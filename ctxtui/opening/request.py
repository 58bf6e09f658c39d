"""What the user asked for, and what opening it gave: the data every opener shares."""

from typing import Any, NamedTuple

from ctxtui.engine.model import Problem
from ctxtui.engine.packers.base import Packer
from ctxtui.engine.sources.ctx_gates import Refusal
from ctxtui.engine.sources.workspace import Workspace


class OpenError(Exception):
    """A failure the user can fix (a missing --query, an unreadable store...): one line of words."""


class ToolAnswered(OpenError):
    """The tool answers with an error instead of a packet (Shabka's MCP tool: a JSON-RPC error object).

    `output` is what `pack` prints on stderr (the object, one line), `status` its exit status.
    """

    def __init__(self, message: str, output: str, status: int = 1) -> None:
        super().__init__(message)
        self.output = output
        self.status = status


class Refused(Exception):
    """ctx would not build a packet here, or would not parse an option: `pack` prints what ctx prints."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal
        self.hint: str | None = None  # ctxtui's own words, printed after ctx's (a folder to try, a budget to type)


class PackRequest(NamedTuple):
    """Which packer over which sources with which settings, as the user gave them (strings as typed).

    The CLI fills it from its options; the TUI's session keeps one and
    replaces fields as the user switches packers or edits knobs.
    """

    packer: str | None = None  # None: $CTXTUI_PACKER, else the version of the ctx on PATH
    project: str = "."
    budget: str | int | None = None  # as typed: ctx parses it as pflag does
    settings: tuple[str, ...] = ()  # KEY=VALUE, as --set takes them
    now: str | None = None  # ISO 8601; None: the clock
    root_path: str | None = None
    skill: str | None = None
    context_dir: str | None = None
    ignore_refusal: bool = False
    allow_outside_cwd: bool = False
    tokenizer: str = "ctx"
    db: str | None = None  # a memory store: a file path or a postgresql:// URL
    db_project: str | None = None
    query: str | None = None
    kind: str | None = None
    tags: tuple[str, ...] = ()
    tags_text: str | None = None  # shabka-mcp: the `tags` argument, one comma-separated string (--tags)
    args_json: str | None = None  # shabka-mcp: the tool call's arguments object as an MCP client sends it
    user: str | None = None
    intent: str | None = None
    agent: str | None = None
    turn: str | None = None
    frame: str | None = None

    def but(self, **changes: Any) -> "PackRequest":
        """The same request with some fields changed."""
        return self._replace(**changes)


class Opened:
    """A packer ready to plan, the budget to plan at, and what the user should be told.

    A plain class with `__slots__` (its lists grow as the opening goes on), not a dataclass: a cold `pack`
    does not import `dataclasses` (docs/performance.md, "The engine's records").
    """

    __slots__ = ("packer", "budget", "budget_source", "workspace", "refusal", "warnings", "problems", "notices")

    def __init__(
        self,
        packer: Packer,
        budget: int,
        budget_source: str = "default",
        workspace: Workspace | None = None,
        refusal: Refusal | None = None,
        warnings: list[str] | None = None,
        problems: list[Problem] | None = None,
        notices: list[str] | None = None,
    ) -> None:
        self.packer = packer
        self.budget = budget
        self.budget_source = budget_source  # "flag", "environment", ".ctxrc", "default", "the turn's own"
        self.workspace = workspace  # the ctx packers' parsed .context/ (memories joined)
        self.refusal = refusal  # ctx would print this instead of a packet
        self.warnings: list[str] = [] if warnings is None else warnings  # to know before the packet
        self.problems: list[Problem] = [] if problems is None else problems  # not read as intended (file, words)
        self.notices: list[str] = [] if notices is None else notices  # facts worth knowing (a fallback, a store)
