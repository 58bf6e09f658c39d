"""`ctxtui log`: the packet through the project's history, one record per commit that touched its context.

Newest first, first-parent order; each commit packed at its own time against
its parent at the parent's, every fate change with its cause (the commit's
edit, or the passing of time). Bounded by --limit and --max-seconds.
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING

from ctxtui.cli.common import choose_packer, request_from_args
from ctxtui.cli.failures import UsageError
from ctxtui.engine.fate import Fate
from ctxtui.safe_text import clean_line

if TYPE_CHECKING:
    import argparse

    from ctxtui.engine.explain.history import Change
    from ctxtui.opening.history_log import Log

WORD = {Fate.INCLUDED: "in full", Fate.SUMMARIZED: "summarized", Fate.DROPPED: "dropped", None: "absent"}


def run(args: argparse.Namespace) -> int:
    from ctxtui.engine.packers.registry import CTX_PACKERS
    from ctxtui.opening.history_log import walk_log
    from ctxtui.opening.revision import History, also_read

    name = choose_packer(args)
    if name not in CTX_PACKERS:
        raise UsageError(f"log: the {name} packer reads a memory store alone, which is not in git")
    if args.limit < 1:
        raise UsageError("--limit: at least 1")
    request = request_from_args(args.project, args)
    with History(args.project) as history:
        head = history.resolve(args.rev or "HEAD")
        since = history.resolve(args.since).commit if args.since else None
        commits = history.log(head.commit, since=since, limit=args.limit, also=also_read(request))
        log = walk_log(name, request, history, commits, max_seconds=args.max_seconds, clock=time.monotonic)
        shallow = history.repo.shallow
    if request.db:
        print(
            "ctxtui: notice: the memory store is not in git: every commit's packet joins it as it is now",
            file=sys.stderr,
        )
    if args.format == "json":
        print(json.dumps(log_json(log), indent=2, ensure_ascii=True))
    else:
        print_text(log, name)
    if not log.complete:
        print(
            f"ctxtui: stopped after {args.max_seconds:g} s at {log.stopped[:12]}: {len(log.records)} commits shown "
            "(--max-seconds for more)",
            file=sys.stderr,
        )
    elif shallow and (not log.records or log.records[-1].commit.parent is None):
        print("ctxtui: notice: a shallow clone: the history stops at its oldest fetched commit", file=sys.stderr)
    return 0


def change_json(change: Change) -> dict[str, object]:
    return {
        "key": change.entry.key,
        "title": change.entry.title,
        "section": change.entry.section,
        "from": change.before.value if change.before else None,
        "to": change.after.value if change.after else None,
        "cause": change.cause,
    }


def log_json(log: Log) -> dict[str, object]:
    return {
        "commits": [
            {
                "commit": record.commit.commit,
                "date": record.commit.date,
                "subject": record.commit.subject,
                "budget": record.fates.budget,
                "tokens": record.fates.tokens,
                "counts": record.fates.counts,
                "refusal": record.refusal,
                "context": not record.missing,
                "changed": [change_json(change) for change in record.changed],
            }
            for record in log.records
        ],
        "complete": log.complete,
    }


def print_text(log: Log, packer: str) -> None:
    if not log.records:
        print("no commit touched .context/ or .ctxrc")
        return
    for record in log.records:
        c, f = record.commit, record.fates
        counts = f.counts
        head = (
            f"{c.commit[:10]} {c.date[:10]}  {clean_line(c.subject)[:60]}\n"
            f"    {f.tokens:,} tokens used at {f.budget:,}: {counts['included']:,} in full, "
            f"{counts['summarized']:,} summarized, {counts['dropped']:,} dropped"
        )
        print(head)
        if record.missing:
            print("    no .context/ at this commit")
        if record.refusal:
            print(f"    {packer} would refuse this commit: {clean_line(record.refusal)}")
        for change in record.changed[:50]:
            arrow = "▲" if change.up else "▼"
            move = f"{WORD[change.before]} → {WORD[change.after]}"
            print(
                f"    {arrow} {move:<28} {change.entry.section:<11} {clean_line(change.entry.title)[:56]}  "
                f"({change.cause})"
            )
        if len(record.changed) > 50:
            print(f"    … {len(record.changed) - 50:,} more (--format json lists all)")
