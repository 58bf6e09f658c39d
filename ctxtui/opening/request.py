"""What the user asked for, and what opening it gave: the data every opener shares."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine.model import Problem
from ctxtui.engine.packers.base import Packer
from ctxtui.engine.record import Frozen, Record, replace
from ctxtui.engine.sources.ctx_gates import Refusal
from ctxtui.engine.sources.workspace import Workspace

if TYPE_CHECKING:
    from typing import Any


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


class PackRequest(Frozen):
    """Which packer over which sources with which settings, as the user gave them (strings as typed).

    The CLI fills it from its options; the TUI's session keeps one and
    replaces fields as the user switches packers or edits knobs.
    """

    __slots__ = (
        "packer",
        "project",
        "budget",
        "settings",
        "now",
        "root_path",
        "skill",
        "context_dir",
        "ignore_refusal",
        "allow_outside_cwd",
        "tokenizer",
        "db",
        "db_project",
        "query",
        "kind",
        "tags",
        "tags_text",
        "args_json",
        "user",
        "intent",
        "agent",
        "turn",
        "frame",
    )

    packer: str | None  # None: $CTXTUI_PACKER, else the version of the ctx on PATH
    project: str
    budget: str | int | None  # as typed: ctx parses it as pflag does
    settings: tuple[str, ...]  # KEY=VALUE, as --set takes them
    now: str | None  # ISO 8601; None: the clock
    root_path: str | None
    skill: str | None
    context_dir: str | None
    ignore_refusal: bool
    allow_outside_cwd: bool
    tokenizer: str
    db: str | None  # a memory store: a file path or a postgresql:// URL
    db_project: str | None
    query: str | None
    kind: str | None
    tags: tuple[str, ...]
    tags_text: str | None  # shabka-mcp: the `tags` argument, one comma-separated string (--tags)
    args_json: str | None  # shabka-mcp: the tool call's arguments object as an MCP client sends it
    user: str | None
    intent: str | None
    agent: str | None
    turn: str | None
    frame: str | None

    def __init__(
        self,
        packer: str | None = None,
        project: str = ".",
        budget: str | int | None = None,
        settings: tuple[str, ...] = (),
        now: str | None = None,
        root_path: str | None = None,
        skill: str | None = None,
        context_dir: str | None = None,
        ignore_refusal: bool = False,
        allow_outside_cwd: bool = False,
        tokenizer: str = "ctx",
        db: str | None = None,
        db_project: str | None = None,
        query: str | None = None,
        kind: str | None = None,
        tags: tuple[str, ...] = (),
        tags_text: str | None = None,
        args_json: str | None = None,
        user: str | None = None,
        intent: str | None = None,
        agent: str | None = None,
        turn: str | None = None,
        frame: str | None = None,
    ) -> None:
        object.__setattr__(self, "packer", packer)
        object.__setattr__(self, "project", project)
        object.__setattr__(self, "budget", budget)
        object.__setattr__(self, "settings", settings)
        object.__setattr__(self, "now", now)
        object.__setattr__(self, "root_path", root_path)
        object.__setattr__(self, "skill", skill)
        object.__setattr__(self, "context_dir", context_dir)
        object.__setattr__(self, "ignore_refusal", ignore_refusal)
        object.__setattr__(self, "allow_outside_cwd", allow_outside_cwd)
        object.__setattr__(self, "tokenizer", tokenizer)
        object.__setattr__(self, "db", db)
        object.__setattr__(self, "db_project", db_project)
        object.__setattr__(self, "query", query)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tags", tags)
        object.__setattr__(self, "tags_text", tags_text)
        object.__setattr__(self, "args_json", args_json)
        object.__setattr__(self, "user", user)
        object.__setattr__(self, "intent", intent)
        object.__setattr__(self, "agent", agent)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "frame", frame)

    def but(self, **changes: Any) -> PackRequest:
        """The same request with some fields changed."""
        return replace(self, **changes)


class Opened(Record):
    """A packer ready to plan, the budget to plan at, and what the user should be told."""

    __slots__ = ("packer", "budget", "budget_source", "workspace", "refusal", "warnings", "problems", "notices")

    packer: Packer
    budget: int
    budget_source: str  # "flag", "environment", ".ctxrc", "default", "the turn's own"
    workspace: Workspace | None  # the ctx packers' parsed .context/ (memories joined)
    refusal: Refusal | None  # ctx would print this instead of a packet
    warnings: list[str]  # what the user should know before the packet
    problems: list[Problem]  # what could not be read as intended (file, words)
    notices: list[str]  # facts worth knowing (a fallback, a non-hash store)

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
        self.budget_source = budget_source
        self.workspace = workspace
        self.refusal = refusal
        self.warnings = list() if warnings is None else warnings
        self.problems = list() if problems is None else problems
        self.notices = list() if notices is None else notices
