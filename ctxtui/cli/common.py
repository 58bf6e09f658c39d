"""What every headless command shares: the one-line failure, the clock, source options, loading.

Expected failures raise `UsageError`: one line on stderr, exit status 2,
never a traceback. Untrusted text (titles, paths, problems) is printed
through the one sanitiser.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ctxtui.engine.packers.base import Packer
from ctxtui.engine.packers.registry import CTX_PACKERS, PACKERS, PEER_PACKERS
from ctxtui.engine.sources.ctx_gates import Refusal, refusal_0_8_0, refusal_0_8_1, refusal_mcp, usage
from ctxtui.engine.sources.ctxrc import resolve_budget
from ctxtui.engine.sources.workspace import Workspace
from ctxtui.engine.text.go import go_join
from ctxtui.engine.text.go_strconv import GoNumError, parse_int
from ctxtui.safe_text import clean_line

TOKENIZERS = ("ctx", "o200k_base", "cl100k_base")


class UsageError(Exception):
    """A failure the user can fix; printed as one line, exit status 2."""


def parse_now(text: str | None) -> datetime:
    """--now as ISO 8601 (a bare date-time is taken as UTC); default: the local clock."""
    if text is None:
        return datetime.now().astimezone()
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--now: not an ISO 8601 date-time: {text!r}") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        value.astimezone(UTC)  # 0001-01-01T00:00:00+14:00 lies before the first representable UTC time
        value + timedelta(days=1)
    except OverflowError:
        raise UsageError(
            f"--now: {text!r} is outside the range of dates ctxtui can compute with (years 1 to 9999, in UTC)"
        ) from None
    return value


def warn(message: str) -> None:
    print(f"ctxtui: warning: {clean_line(message)}", file=sys.stderr)


PACKER_HELP = (
    "which packet to reproduce: ctx-0.8.1 (ctx's main), ctx-0.8.0 (the newest release), ctx-mcp "
    "(ctx's MCP resource), shabka, cortex or nous (these three read --db alone); "
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
    parser.add_argument("--now", help="pin the clock, ISO 8601, e.g. 2026-11-21T23:56:08Z (default: the current time)")
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
    peers.add_argument("--user", help="shabka: whose private memories are visible (default: as shabka finds it)")
    peers.add_argument("--intent", help="cortex: the intent (default: understand_code)")
    peers.add_argument("--agent", help="nous: the agent id (default: nous-default, or the only agent)")
    peers.add_argument(
        "--turn",
        help="nous: the logged turn to rebuild: its key from `ctxtui turns` (a retrieval_log "
        "id), a context_log id or SESSION#TURN (nous leaves trace_id NULL); default: "
        "the newest turn with logged candidates",
    )
    peers.add_argument("--frame", help="nous: the frame whose section budgets apply (default: the turn's own)")


PACKER_ENV = "CTXTUI_PACKER"
IGNORE_REFUSAL_ENV = "CTXTUI_IGNORE_REFUSAL"  # as --ignore-refusal, for scripts


def choose_packer(args: argparse.Namespace) -> str:
    """--packer, else $CTXTUI_PACKER, else the version of the ctx on PATH (a notice when that falls back)."""
    if getattr(args, "packer", None):
        return str(args.packer)
    chosen = os.environ.get(PACKER_ENV, "").strip()
    if chosen:
        if chosen not in CTX_PACKERS:
            raise UsageError(f"${PACKER_ENV}: unknown packer {chosen!r} (one of {', '.join(CTX_PACKERS)})")
        return chosen
    from ctxtui.detect import detect_ctx

    detected = detect_ctx()
    if detected.notice:
        print(f"ctxtui: notice: {clean_line(detected.notice)}", file=sys.stderr)
    return detected.packer


def context_dir_for(packer: str, project: Path, args: argparse.Namespace, config_dir: str | None) -> str:
    """ctx 0.8.0 reads --context-dir, then $CTX_DIR, then .ctxrc context_dir; 0.8.1 always `.context`."""
    given = getattr(args, "context_dir", None)
    if packer != "ctx-0.8.0":
        if given:
            raise UsageError("--context-dir exists only in ctx 0.8.0 (use --packer ctx-0.8.0)")
        return ".context"
    return given or os.environ.get("CTX_DIR") or config_dir or ".context"


class Refused(Exception):
    """ctx would not build a packet here: `pack` prints what ctx prints and exits as ctx does."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal


def working_path(project: str) -> str:
    """The project's path as ctx, run in it, would print it: `$PWD` when it names the working directory.

    Go's os.Getwd returns $PWD when it is absolute and is the same directory as
    "." (a path through a symbolic link stays one); ctx prints paths under it.
    """
    cwd = os.getcwd()
    pwd = os.environ.get("PWD", "")
    base = cwd
    if pwd.startswith("/"):
        try:
            if os.path.samefile(pwd, cwd):
                base = pwd
        except OSError:
            pass
    return go_join(base, project) if not os.path.isabs(project) else go_join(project)


def parse_budget(text: str | int | None, packer: str) -> int | None:
    """--budget as the tool parses it: ctx with pflag (`strconv.ParseInt(s, 0, 64)`: 0x200, 010, 1_000)."""
    if text is None or isinstance(text, int):
        return text
    if packer in CTX_PACKERS and packer != "ctx-mcp":
        try:
            return parse_int(text, 0)
        except GoNumError as exc:
            version = packer.removeprefix("ctx-")
            message = f'invalid argument "{text}" for "--budget" flag: {exc}'
            stderr = f"Error: {message}\n" + (f"Error:  {message}\n" if version == "0.8.0" else "")
            raise Refused(Refusal(message, usage(version), stderr)) from None
    try:
        return int(text.strip())
    except ValueError:
        raise UsageError(f"--budget: not a whole number: {text!r}") from None


def load_packer(
    project: str, args: argparse.Namespace, *, strict: bool = False
) -> tuple[Workspace | None, Packer, int]:
    """Workspace (None for a peer packer), memories and packer for a headless command.

    Problems print as warnings. When ctx would refuse the workspace, `strict`
    (pack) raises `Refused` so the command fails as ctx does; otherwise a
    warning says so and the packet is still built.
    """
    from ctxtui.engine.packers.registry import build_ctx_packer
    from ctxtui.engine.sources.context import ContextMissing
    from ctxtui.engine.sources.ctxrc import read_ctxrc
    from ctxtui.engine.sources.steering import SkillError, is_dangerous, read_skill
    from ctxtui.engine.sources.workspace import load_workspace, unreadable_workspace

    name = choose_packer(args)
    if name in PEER_PACKERS:
        from ctxtui.cli.peers import load_peer

        if hasattr(args, "budget"):
            args.budget = parse_budget(args.budget, name)
        packer, budget = load_peer(name, args)
        return None, packer, budget
    root = Path(project).absolute()
    shown_root = args.root_path if getattr(args, "root_path", None) is not None else working_path(project)
    config_080 = read_ctxrc(root, "0.8.0")
    context_dir = context_dir_for(name, root, args, config_080.context_dir)
    explicit = parse_budget(getattr(args, "budget", None), name)
    refusal = ctx_refusal(
        name,
        root,
        shown_root,
        context_dir,
        allow_outside=bool(getattr(args, "allow_outside_cwd", False) or config_080.allow_outside_cwd),
    )
    ignore = getattr(args, "ignore_refusal", False) or os.environ.get(IGNORE_REFUSAL_ENV, "") not in ("", "0")
    if refusal is not None and not ignore:
        if strict:
            raise Refused(refusal)
        warn(
            f"{name.replace('-', ' ', 1)} would refuse this workspace ({refusal.reason}); the packet below is "
            "what it would build otherwise"
        )
    skill = None
    if getattr(args, "skill", None):
        if name != "ctx-0.8.1":
            raise UsageError("--skill exists only in ctx 0.8.1 (use --packer ctx-0.8.1)")
        try:
            skill = read_skill(root, args.skill)
        except SkillError as exc:
            if strict:
                message = str(exc)
                raise Refused(Refusal(message, usage("0.8.1"), f"Error: {message}\n")) from None
            raise UsageError(str(exc)) from None
    try:
        if name in ("ctx-0.8.1", "ctx-mcp") and is_dangerous(go_join(shown_root, ".context") + "/"):
            from ctxtui.engine.model import Problem

            workspace = unreadable_workspace(
                project,
                Problem(
                    go_join(shown_root, ".context"),
                    ("lies under a system folder ctx 0.8.1 will not read from: its packet has none of the files"),
                ),
            )
        else:
            workspace = load_workspace(project, context_dir)
    except ContextMissing as exc:
        raise UsageError(str(exc)) from None
    now = parse_now(args.now)
    if getattr(args, "db", None):
        from ctxtui.engine.packers.ctx.memories import attach_memories
        from ctxtui.engine.sources.memory.urls import is_db_url

        db = args.db if is_db_url(args.db) else Path(args.db)  # a nous postgresql:// URL is not a path
        attach_memories(workspace, db, project=args.db_project, now=now, agent=getattr(args, "agent", None))
    from ctxtui.engine.packers.ctx.knobs import BUDGET_KEY, CtxKnobs, KnobError, parse_settings

    try:
        settings = parse_settings(name, list(getattr(args, "settings", None) or []))
    except KnobError as exc:
        raise UsageError(f"--set: {exc}") from None
    version_number = name.removeprefix("ctx-") if name != "ctx-mcp" else "0.8.1"
    config = workspace.config_for(version_number)
    if explicit is None and BUDGET_KEY in settings:
        explicit = int(settings.pop(BUDGET_KEY))
    settings.pop(BUDGET_KEY, None)
    knobs = CtxKnobs.from_config(config).with_values(settings) if settings else None
    budget, _, budget_problems = resolve_budget(explicit, os.environ, config)
    for problem in [*workspace.problems, *budget_problems]:
        warn(str(problem))
    count = None
    if getattr(args, "tokenizer", "ctx") != "ctx":
        from ctxtui.engine.text.tokenizers import TokenizerUnavailable, get_tokenizer

        try:
            count = get_tokenizer(args.tokenizer).count
        except TokenizerUnavailable as exc:
            raise UsageError(str(exc)) from None
    from ctxtui.engine.sources.zone import local_zone

    packer = build_ctx_packer(
        name, workspace, now=now, root_path=shown_root, count=count, knobs=knobs, skill=skill, zone=local_zone()
    )
    return workspace, packer, budget


def ctx_refusal(name: str, project: Path, shown_root: str, context_dir: str, *, allow_outside: bool) -> Refusal | None:
    """What ctx `name` would print instead of a packet for this workspace, or None."""
    if name == "ctx-0.8.1":
        return refusal_0_8_1(project, shown_root)
    if name == "ctx-0.8.0":
        return refusal_0_8_0(project, context_dir, allow_outside=allow_outside)
    if name == "ctx-mcp":
        return refusal_mcp(project, shown_root)
    return None
