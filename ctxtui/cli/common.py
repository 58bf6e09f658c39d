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

from ctxtui.engine.packers.ctx.assemble import CtxPacker, packer_for
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


def add_source_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--budget", type=int, help="token budget (default: $CTX_TOKEN_BUDGET, .ctxrc, 8000)")
    parser.add_argument("--now", help="pin the clock, ISO 8601 (e.g. 2026-11-21T23:56:08Z)")
    parser.add_argument("--root-path", help="project path printed under 'Read These Files'")
    parser.add_argument("--tokenizer", choices=TOKENIZERS, default="ctx", help="tokenizer used for budgeting")
    parser.add_argument("--db", help="memory database to join (ctxtui, Shabka or Cortex)")
    parser.add_argument("--project", dest="db_project", help="only memories of this project (where the store has one)")


def load_packer(project: str, args: argparse.Namespace) -> tuple[Workspace, CtxPacker, int]:
    """Workspace, memories and packer for a headless command; problems are printed as warnings."""
    from ctxtui.engine.packers.ctx.memories import attach_memories
    from ctxtui.engine.sources.context import ContextMissing
    from ctxtui.engine.sources.workspace import load_workspace

    try:
        workspace = load_workspace(project)
    except ContextMissing as exc:
        raise UsageError(str(exc)) from None
    now = parse_now(args.now)
    if getattr(args, "db", None):
        attach_memories(workspace, Path(args.db), project=args.db_project, now=now)
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
    return workspace, packer_for(workspace, now=now, root_path=args.root_path, count=count), budget
