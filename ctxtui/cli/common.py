"""What every headless command shares: the one-line failure, the clock, source options, loading.

Expected failures raise `UsageError` (`failures`): one line on stderr, exit
status 2, never a traceback. Untrusted text (titles, paths, problems) is
printed through the one sanitiser.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ctxtui.cli.commands import TOKENIZERS
from ctxtui.cli.failures import Refused, UsageError, warn
from ctxtui.engine.packers.base import Packer
from ctxtui.engine.packers.registry import PACKERS
from ctxtui.engine.sources.workspace import Workspace
from ctxtui.opening.clock import parse_now
from ctxtui.opening.request import PackRequest
from ctxtui.safe_text import clean_line

if TYPE_CHECKING:
    import argparse

    from ctxtui.cli.commands import Options
    from ctxtui.opening.choose import Choice
    from ctxtui.opening.request import Opened

__all__ = ["Refused", "UsageError", "add_source_args", "load_packer", "parse_now", "request_from_args", "warn"]


PACKER_HELP = (
    "which packet to reproduce: ctx-0.8.1 (ctx's main), ctx-0.8.0 (the newest release), ctx-mcp "
    "(ctx's MCP resource), shabka (context-pack), shabka-mcp (Shabka's MCP get_context), cortex or nous "
    "(these four read --db alone); "
    "default: the version of the ctx on PATH, else ctx-0.8.1"
)


def add_source_args(parser: argparse.ArgumentParser, *, budget: bool = True, tokenizer: bool = True) -> None:
    """The options every packet-building command shares: which packer, which inputs, which settings."""
    parser.add_argument("--packer", choices=PACKERS, metavar="NAME", help=PACKER_HELP)
    if budget:
        parser.add_argument(
            "--budget",
            metavar="N",
            help="token budget (default: $CTX_TOKEN_BUDGET, .ctxrc token_budget, 8000; shabka and cortex: 2000)",
        )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="settings",
        help="override a setting for this run (repeatable): task_budget_pct, convention_budget_pct, "
        "tool (ctx 0.8.1), token_budget; `ctxtui tune` saves them to .ctxrc",
    )
    parser.add_argument(
        "--now",
        help="pin the clock, ISO 8601, e.g. 2026-11-21T23:56:08Z (default: the current time; with --rev, "
        "the commit's date)",
    )
    from ctxtui.cli.revision import add_rev_arg

    add_rev_arg(parser)
    parser.add_argument(
        "--root-path",
        metavar="PATH",
        help="the project path ctx 0.8.1 prints under 'Read These Files' (default: the project's absolute path)",
    )
    parser.add_argument(
        "--skill",
        metavar="NAME",
        help="ctx 0.8.1's tier 7: add .context/skills/NAME/SKILL.md whole if it fits (tier 8, the "
        "ctx Hub, needs a hub server and is not modelled)",
    )
    parser.add_argument(
        "--context-dir",
        metavar="DIR",
        help="ctx 0.8.0 only: the context directory (default: $CTX_DIR, .ctxrc context_dir, .context)",
    )
    parser.add_argument(
        "--ignore-refusal",
        action="store_true",
        help="build the packet even where ctx would refuse to (no .git, a missing file, a symbolic "
        "link...; also $CTXTUI_IGNORE_REFUSAL=1) (default: pack fails as ctx does; the other "
        "commands warn)",
    )
    parser.add_argument(
        "--allow-outside-cwd",
        action="store_true",
        help="ctx 0.8.0 only: allow a context directory outside the project (as ctx's flag)",
    )
    if tokenizer:
        parser.add_argument(
            "--tokenizer",
            choices=TOKENIZERS,
            default="ctx",
            help="what budgeting counts with: ctx's estimate (what ctx does) or a real vocabulary (default: ctx)",
        )
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help="a memory store: joined to ctx packets (ctxtui, Shabka, Cortex, nous), or the whole "
        "input of the shabka, cortex and nous packers (default: none)",
    )
    parser.add_argument(
        "--project", dest="db_project", help="only memories of this project, where the store has one (default: all)"
    )
    peers = parser.add_argument_group("shabka, cortex and nous packers")
    peers.add_argument("--query", help="shabka: the query (default: *); cortex: the focus")
    peers.add_argument("--kind", help="shabka: only memories of this kind (default: all)")
    peers.add_argument("--tag", action="append", default=[], help="shabka: only memories with this tag (repeatable)")
    peers.add_argument(
        "--tags",
        dest="tags_text",
        metavar="'A,B'",
        help="shabka-mcp: the tool's tags argument, one comma-separated string (default: absent)",
    )
    peers.add_argument(
        "--args-json",
        metavar="JSON",
        help="shabka-mcp: the get_context arguments object exactly as an MCP client sends it, or null; "
        "a flag given beside it replaces that key (default: the flags alone)",
    )
    peers.add_argument(
        "--user", help="shabka, shabka-mcp: whose private memories are visible (default: as shabka finds it)"
    )
    peers.add_argument("--intent", help="cortex: the intent (default: understand_code)")
    peers.add_argument("--agent", help="nous: the agent id (default: nous-default, or the only agent)")
    peers.add_argument(
        "--turn",
        help="nous: the logged turn to rebuild: its key from `ctxtui turns` (a retrieval_log "
        "id), a context_log id or SESSION#TURN (nous leaves trace_id NULL); default: "
        "the newest turn with logged candidates",
    )
    peers.add_argument("--frame", help="nous: the frame whose section budgets apply (default: the turn's own)")


def request_from_args(project: str, args: Options) -> PackRequest:
    """The parsed options as a `PackRequest` (commands without an option leave its default)."""

    def get(name: str, default=None):
        value = getattr(args, name, default)
        return default if value is None else value

    return PackRequest(
        packer=get("packer"),
        project=project,
        budget=get("budget"),
        settings=tuple(get("settings", ())),
        now=get("now"),
        root_path=get("root_path"),
        skill=get("skill"),
        context_dir=get("context_dir"),
        ignore_refusal=bool(get("ignore_refusal", False)),
        allow_outside_cwd=bool(get("allow_outside_cwd", False)),
        tokenizer=get("tokenizer", "ctx"),
        db=get("db"),
        db_project=get("db_project"),
        query=get("query"),
        kind=get("kind"),
        tags=tuple(get("tag", ())),
        tags_text=get("tags_text"),
        args_json=get("args_json"),
        user=get("user"),
        intent=get("intent"),
        agent=get("agent"),
        turn=get("turn"),
        frame=get("frame"),
    )


def choose_packer(args: Options) -> str:
    """--packer, else $CTXTUI_PACKER, else the version of the ctx on PATH (tune: the notice would change nothing)."""
    return _choose(args).name


def _choose(args: Options) -> Choice:
    from ctxtui.opening.choose import choose_packer as choose

    return choose(getattr(args, "packer", None))


_SAID: set[str] = set()  # notices already printed by this process (`diff` loads twice)


def notice(text: str) -> None:
    """One `ctxtui: notice:` line on stderr, once per process."""
    if text not in _SAID:
        _SAID.add(text)
        print(f"ctxtui: notice: {clean_line(text)}", file=sys.stderr)


def missing_db(db: str | None) -> str | None:
    """A `--db` file that does not exist: ctxtui's one line naming it (a URL is the server's to judge)."""
    from ctxtui.engine.sources.conninfo import is_db_url

    if not db or is_db_url(db):  # a URL or key=value conninfo: libpq's to judge (and it may hold a password)
        return None
    import os

    if os.path.lexists(db):
        return None
    return f"--db {db}: no such file (a memory store ctxtui reads; `ctxtui memory init` creates one)"


def budget_words(value: object) -> str:
    """ctxtui's own words for a --budget nobody can read."""
    return f"--budget {value!r}: not a whole number of tokens (e.g. 4000; ctx also reads 0x200, 010 and 1_000)"


def load_packer(project: str, args: Options, *, strict: bool = False) -> tuple[Workspace | None, Packer, int]:
    """Workspace (None for a peer packer), memories and packer for a headless command.

    Problems print as warnings. When ctx would refuse the workspace, `strict`
    (pack) raises `Refused` so the command fails as ctx does, with ctxtui's
    hint (a folder that holds .context/, a readable --budget) for after ctx's
    words; otherwise a warning says so and the packet is still built. A bad
    --budget is ctx's refusal only where ctx's output is reproduced (pack).
    """
    from ctxtui.cli.projects import missing_project, suggest_project
    from ctxtui.engine.sources.context import ContextMissing
    from ctxtui.opening.packer import open_named

    command = getattr(args, "command", "")
    choice = _choose(args)
    db = getattr(args, "db", None) if choice.name != "nous" else None  # nous: its own "give a URL" is the help
    for problem in (missing_project(project, command), missing_db(db)):
        if problem is not None:
            raise UsageError(problem)
    request = request_from_args(project, args)
    rev = getattr(args, "rev", None)
    try:
        if rev is not None:
            from ctxtui.cli.revision import open_rev

            opened = open_rev(choice.name, request, rev, strict=strict)
        else:
            opened = open_named(choice.name, request, strict=strict)
    except ContextMissing as exc:
        hint = suggest_project(project, command)
        raise UsageError(f"{exc}; {hint}" if hint else str(exc)) from None
    except Refused as exc:
        about_budget = '"--budget" flag' in exc.refusal.reason
        if about_budget and not strict:
            raise UsageError(budget_words(request.budget)) from None
        exc.hint = budget_words(request.budget) if about_budget else suggest_project(project, command)
        raise
    if choice.notice and (strict or _answer_differs(choice.name, request, opened)):
        # pack: the bytes are 0.8.1's, and 0.8.0's always differ (its read-order paths are relative)
        notice(choice.notice if strict else f"{choice.notice}; ctx 0.8.0 answers differently here (--packer ctx-0.8.0)")
    for text in opened.notices:
        notice(text)
    for warning in [*opened.warnings, *map(str, opened.problems)]:
        warn(warning)
    return opened.workspace, opened.packer, opened.budget


def _reusable(request: PackRequest, opened: Opened) -> Workspace | None:
    """0.8.1's workspace (files parsed, memories joined) for 0.8.0 when both read the same context folder.

    A version switch reuses it the same way (`Session.switch_packer`): reading the files and a large
    memory store a second time only to decide on a notice doubled the command's load.
    """
    import os

    from ctxtui.opening.ctx import context_dir_of

    workspace = opened.workspace
    if workspace is None or workspace.revision:  # a commit's ("" is the working tree's): read it again
        return None
    if context_dir_of("ctx-0.8.0", request, os.environ) != context_dir_of("ctx-0.8.1", request, os.environ):
        return None
    copy = Workspace(workspace.project, workspace.config, workspace.parsed)
    copy.memories, copy.memory_problems = workspace.memories, workspace.memory_problems
    return copy


def _answer_differs(name: str, request: PackRequest, opened: Opened) -> bool:
    """Would ctx 0.8.0 (the newest release, what most users run) give another packet at this budget?"""
    from ctxtui.engine.explain.diff import diff_plans
    from ctxtui.opening.ctx import open_ctx
    from ctxtui.opening.packer import open_named

    if name != "ctx-0.8.1":
        return True
    try:
        reused = _reusable(request, opened)
        if reused is None:
            other = open_named("ctx-0.8.0", request, strict=False)
        else:
            other = open_ctx("ctx-0.8.0", request, workspace=reused)
    except Exception:  # 0.8.0 cannot even read this workspace: that is another answer
        return True
    mine, theirs = opened.packer.plan(opened.budget), other.packer.plan(opened.budget)
    return bool(diff_plans(theirs, mine).changed)
