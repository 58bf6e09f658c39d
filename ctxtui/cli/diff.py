"""`ctxtui diff`: which entries change fate between two states (budget, settings, packer), and the tokens.

The state given by --budget/--set/--packer is compared against the one given
by --against/--against-set/--against-packer (each defaulting to the first):
"from" is the --against state, "to" the other.
"""

from __future__ import annotations

import argparse
import copy
import json

from ctxtui.cli.common import load_packer
from ctxtui.cli.failures import UsageError
from ctxtui.engine.explain.diff import diff_plans
from ctxtui.engine.fate import Fate
from ctxtui.safe_text import clean_line

_WORD = {Fate.INCLUDED: "in full", Fate.SUMMARIZED: "summarized", Fate.DROPPED: "dropped", None: "not a candidate"}


def run(args: argparse.Namespace) -> int:
    if args.against is None and not args.against_settings and not args.against_packer:
        raise UsageError(
            "diff needs something to compare against: --against BUDGET, --against-set KEY=VALUE "
            "or --against-packer NAME"
        )
    _, packer, budget = load_packer(args.project, args)
    other = copy.copy(args)
    other.settings = [*args.settings, *args.against_settings]
    other.packer = args.against_packer or packer.name
    other.budget = args.against if args.against is not None else budget
    _, against_packer, against_budget = load_packer(args.project, other)
    before, after = against_packer.plan(against_budget), packer.plan(budget)
    diff = diff_plans(before, after)
    if args.format == "json":
        print(
            json.dumps(
                {
                    "from": {"packer": against_packer.name, "budget": against_budget, "settings": other.settings},
                    "to": {"packer": packer.name, "budget": budget, "settings": args.settings},
                    "changed": [
                        {
                            "key": c.entry.key,
                            "location": c.entry.location,
                            "title": c.entry.title,
                            "section": c.entry.section,
                            "source": c.entry.source,
                            "from": c.before.value if c.before else None,
                            "to": c.after.value if c.after else None,
                        }
                        for c in diff.changed
                    ],
                    "tokens": {
                        "used": {
                            "from": diff.tokens_used.before,
                            "to": diff.tokens_used.after,
                            "delta": diff.tokens_used.delta,
                        },
                        "buckets": {
                            name: {"from": s.before, "to": s.after, "delta": s.delta}
                            for name, s in diff.buckets.items()
                        },
                    },
                },
                indent=2,
                ensure_ascii=True,
            )
        )
        return 0
    used = diff.tokens_used
    print(
        f"{packer.name} at {budget:,} tokens against {against_packer.name} at {against_budget:,}: "
        f"{len(diff.changed):,} entr{'y changes' if len(diff.changed) == 1 else 'ies change'} fate; "
        f"used {used.before:,} → {used.after:,} tokens ({used.delta:+,})"
    )
    for change in diff.changed:
        up = change.after is Fate.INCLUDED or (change.after is Fate.SUMMARIZED and change.before is not Fate.INCLUDED)
        print(
            f"  {'▲' if up else '▼'} {_WORD[change.before] + ' → ' + _WORD[change.after]:<24} {change.entry.section:<11} "
            f"{clean_line(change.entry.title)[:60]}  ({clean_line(change.entry.source)})"
        )
    moved = [(name, shift) for name, shift in diff.buckets.items() if shift.delta]
    if moved:
        print(
            "tokens by bucket: " + "; ".join(f"{name} {s.before:,} → {s.after:,} ({s.delta:+,})" for name, s in moved)
        )
    return 0
