"""What every headless command shares: the one-line failure, the clock, source options, loading.

Expected failures raise `UsageError`: one line on stderr, exit status 2,
never a traceback. Untrusted text (titles, paths, problems) is printed
through the one sanitiser.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime, timezone
from pathlib import Path

from ctxtui.engine.packers.base import Packer
from ctxtui.engine.packers.registry import CTX_PACKERS, PACKERS, PEER_PACKERS
from ctxtui.engine.sources.ctxrc import resolve_budget
from ctxtui.engine.sources.workspace import Workspace
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
        value = value.replace(tzinfo=timezone.utc)
    return value


def warn(message: str) -> None:
    print(f"ctxtui: warning: {clean_line(message)}", file=sys.stderr)


PACKER_HELP = ("which packet to reproduce: ctx-0.8.1 (ctx's main), ctx-0.8.0 (the newest release), ctx-mcp "
               "(ctx's MCP resource), shabka, cortex or nous (these three read --db alone); "
               "default: the version of the ctx on PATH, else ctx-0.8.1")


def add_source_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--packer", choices=PACKERS, help=PACKER_HELP)
    parser.add_argument("--skill", metavar="NAME",
                        help="ctx 0.8.1's tier 7: add .context/skills/NAME/SKILL.md whole if it fits "
                             "(tier 8, the ctx Hub, needs a hub server and is not modelled)")
    parser.add_argument("--context-dir", metavar="DIR",
                        help="ctx 0.8.0 only: the context directory (default: $CTX_DIR, .ctxrc context_dir, .context)")
    parser.add_argument("--budget", type=int, help="token budget (default: $CTX_TOKEN_BUDGET, .ctxrc, 8000)")
    parser.add_argument("--now", help="pin the clock, ISO 8601 (e.g. 2026-11-21T23:56:08Z)")
    parser.add_argument("--root-path", help="project path printed under 'Read These Files'")
    parser.add_argument("--tokenizer", choices=TOKENIZERS, default="ctx", help="tokenizer used for budgeting")
    parser.add_argument("--db", help="memory database: joined to ctx packets (ctxtui, Shabka, Cortex, nous); "
                                     "the whole input of the shabka, cortex and nous packers")
    parser.add_argument("--project", dest="db_project", help="only memories of this project (where the store has one)")
    peers = parser.add_argument_group("shabka, cortex and nous packers")
    peers.add_argument("--query", help="shabka: the query (default *); cortex: the focus")
    peers.add_argument("--kind", help="shabka: only memories of this kind")
    peers.add_argument("--tag", action="append", default=[], help="shabka: only memories with this tag (repeatable)")
    peers.add_argument("--user", help="shabka: the user whose private memories are visible")
    peers.add_argument("--intent", help="cortex: the intent (default understand_code)")
    peers.add_argument("--agent", help="nous: the agent id (default: nous-default, or the only agent)")
    peers.add_argument("--turn", help="nous: the logged turn to rebuild: its key from `ctxtui turns` (a retrieval_log "
                                      "id), a context_log id or SESSION#TURN (nous leaves trace_id NULL); default: "
                                      "the newest turn with logged candidates")
    peers.add_argument("--frame", help="nous: the frame whose section budgets apply (default: the turn's own)")


PACKER_ENV = "CTXTUI_PACKER"


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


def load_packer(project: str, args: argparse.Namespace) -> tuple[Workspace | None, Packer, int]:
    """Workspace (None for a peer packer), memories and packer for a headless command; problems print as warnings."""
    from ctxtui.engine.packers.ctx.memories import attach_memories
    from ctxtui.engine.packers.registry import build_ctx_packer
    from ctxtui.engine.sources.context import ContextMissing, SkillError, read_skill
    from ctxtui.engine.sources.ctxrc import read_ctxrc
    from ctxtui.engine.sources.workspace import load_workspace

    name = choose_packer(args)
    if name in PEER_PACKERS:
        from ctxtui.cli.peers import load_peer

        packer, budget = load_peer(name, args)
        return None, packer, budget
    root = Path(project).absolute()
    context_dir = context_dir_for(name, root, args, read_ctxrc(root).context_dir)
    skill = None
    if getattr(args, "skill", None):
        if name != "ctx-0.8.1":
            raise UsageError("--skill exists only in ctx 0.8.1 (use --packer ctx-0.8.1)")
        try:
            skill = read_skill(root, args.skill)
        except SkillError as exc:
            raise UsageError(str(exc)) from None
    try:
        workspace = load_workspace(project, context_dir)
    except ContextMissing as exc:
        raise UsageError(str(exc)) from None
    now = parse_now(args.now)
    if getattr(args, "db", None):
        from ctxtui.engine.sources.memory.urls import is_db_url

        db = args.db if is_db_url(args.db) else Path(args.db)  # a nous postgresql:// URL is not a path
        attach_memories(workspace, db, project=args.db_project, now=now, agent=getattr(args, "agent", None))
    budget, _, budget_problems = resolve_budget(args.budget, os.environ, workspace.config)
    for problem in [*workspace.problems, *budget_problems]:
        warn(str(problem))
    count = None
    if args.tokenizer != "ctx":
        from ctxtui.engine.text.tokenizers import TokenizerUnavailable, get_tokenizer

        try:
            count = get_tokenizer(args.tokenizer).count
        except TokenizerUnavailable as exc:
            raise UsageError(str(exc)) from None
    packer = build_ctx_packer(name, workspace, now=now, root_path=args.root_path, count=count, skill=skill)
    return workspace, packer, budget
