"""`ctxtui explain QUERY --history`: the commits at which one entry's fate changed, and why, in numbers."""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING

from ctxtui.cli.common import choose_packer, request_from_args
from ctxtui.cli.failures import UsageError
from ctxtui.engine.explain.history_reasons import move_words
from ctxtui.safe_text import clean_line

if TYPE_CHECKING:
    import argparse

    from ctxtui.engine.model import Outcome


def explain_history(project: str, args: argparse.Namespace, outcome: Outcome) -> int:
    from ctxtui.engine.packers.registry import CTX_PACKERS
    from ctxtui.opening.history_log import entry_history
    from ctxtui.opening.revision import History, also_read

    name = choose_packer(args)
    if name not in CTX_PACKERS:
        raise UsageError(f"--history: the {name} packer reads a memory store alone, which is not in git")
    request = request_from_args(project, args).but(now=args.now)
    key = outcome.entry.key
    with History(project) as history:
        head = history.resolve(args.rev or "HEAD")
        commits = history.log(head.commit, limit=max(1, args.limit), also=also_read(request))
        # the time bound: --max-seconds bounds the walk here (explain's threshold scan is not run)
        moves, log = entry_history(
            name, request, history, commits, key, max_seconds=max(args.max_seconds, 1.0), clock=time.monotonic
        )
    if args.format == "json":
        print(
            json.dumps(
                {
                    "key": key,
                    "title": outcome.entry.title,
                    "section": outcome.entry.section,
                    "history": [
                        {
                            "commit": m.commit.commit,
                            "date": m.commit.date,
                            "subject": m.commit.subject,
                            "from": m.change.before.value if m.change.before else None,
                            "to": m.change.after.value if m.change.after else None,
                            "cause": m.change.cause,
                            "reasons": m.reasons,
                        }
                        for m in moves
                    ],
                    "commits_looked_at": len(log.records),
                    "complete": log.complete,
                },
                indent=2,
                ensure_ascii=True,
            )
        )
        return 0
    print(clean_line(outcome.entry.title))
    print(f"  key:     {clean_line(key)}")
    print(f"  now:     {outcome.fate.value} ({'at ' + clean_line(args.rev) if args.rev else 'the working tree'})")
    if not moves:
        looked = "the commit" if len(log.records) == 1 else f"the {len(log.records):,} commits"
        print(f"  history: its fate did not change in {looked} that touched .context/")
    for move in moves:
        c = move.commit
        why = "; ".join(move.reasons) or "no count changed: the order of scores did"
        print(
            f"  {c.commit[:10]} {c.date[:10]}  {move_words(move.change.before, move.change.after)} "
            f"({move.change.cause}): {clean_line(why)}"
        )
        print(f"             {clean_line(c.subject)[:70]}")
    if not log.complete:
        print(f"ctxtui: stopped after {args.max_seconds:g} s: {len(log.records)} commits looked at", file=sys.stderr)
    return 0
