"""`ctxtui coverage`: per section, what is in at a budget, what can be in full at all, and which budget buys what."""

from __future__ import annotations

import argparse
import json
import time

from ctxtui.cli.common import load_packer
from ctxtui.deadline import stop_after
from ctxtui.engine.explain.coverage import SHARES, coverage, never_full_summary
from ctxtui.engine.explain.reasons import describe
from ctxtui.safe_text import clean_line


def _budget(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()  # the whole command's bound, the load included
    _, packer, budget = load_packer(args.project, args)
    found = coverage(packer, budget, should_stop=stop_after(args.max_seconds - (time.perf_counter() - started)))
    if args.format == "json":
        print(
            json.dumps(
                {
                    "packer": packer.name,
                    "budget": budget,
                    "settles_at": found.settles_at,
                    "scanned_to": found.scanned_to,
                    "sections": [
                        {
                            "section": s.section,
                            "entries": s.total,
                            "now": {"full": s.full_now, "title": s.title_now, "dropped": s.dropped_now},
                            "can_be_full": s.can_be_full,
                            "most_in_full_at_once": s.most_at_once,
                            "budget_for": {f"{round(share * 100)}%": s.budget_for[share] for share in SHARES},
                            "never_full": [
                                {
                                    "key": o.entry.key,
                                    "location": o.entry.location,
                                    "title": o.entry.title,
                                    "source": o.entry.source,
                                    "reason": o.reason.value,
                                    "why": describe(o),
                                }
                                for o in s.never_full
                            ],
                            "curve": [[p.budget, p.full, p.shown] for p in s.curve],
                        }
                        for s in found.sections
                    ],
                },
                indent=2,
                ensure_ascii=True,
            )
        )
        return 0
    settle = (
        f"the packet stops changing at {found.settles_at:,} tokens"
        if found.settles_at is not None
        else f"budgets above {found.scanned_to or 0:,} not examined (the scan stopped at --max-seconds "
        f"{args.max_seconds:g}: too many change points to look at in that time)"
    )
    print(f"{packer.name} at {budget:,} tokens; {settle}")
    print(
        f"{'section':<12} {'full':>6} {'title':>6} {'dropped':>8}  {'can be full':>12}  "
        + "  ".join(f"{round(share * 100):>3}% at" for share in SHARES)
    )
    for s in found.sections:
        shares = []
        for share in SHARES:
            value = s.budget_for[share]
            shares.append(f"{_budget(value):>7}" if value is not None or s.can_be_full == 0 else f"{'never':>7}")
        print(
            f"{s.section:<12} {s.full_now:>6} {s.title_now:>6} {s.dropped_now:>8}  "
            f"{f'{s.can_be_full} of {s.total}':>12}  " + "  ".join(shares)
        )
        if s.can_be_full and s.budget_for[1.0] is None:
            print(f"  all {s.can_be_full} are never in full at once: at most {s.most_at_once} at any budget")
        summary = never_full_summary(s)
        if summary:
            print(f"  {summary}")
            if args.verbose:
                for outcome in s.never_full:
                    print(
                        f"    {clean_line(outcome.entry.title)[:60]} ({clean_line(outcome.entry.source)}): "
                        f"{clean_line(describe(outcome))}"
                    )
    return 0
