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


WORKTREE = "WORKTREE"  # --against-rev WORKTREE: the working tree


def run(args: argparse.Namespace) -> int:
    against_rev = getattr(args, "against_rev", None)
    if args.against is None and not args.against_settings and not args.against_packer and against_rev is None:
        raise UsageError(
            "diff needs something to compare against: --against BUDGET, --against-set KEY=VALUE, "
            "--against-packer NAME or --against-rev REV"
        )
    _, packer, budget = load_packer(args.project, args)
    other = copy.copy(args)
    other.settings = [*args.settings, *args.against_settings]
    other.packer = args.against_packer or packer.name
    if against_rev is not None:
        other.rev = None if against_rev == WORKTREE else against_rev
        other.budget = args.against if args.against is not None else args.budget  # each side its own .ctxrc's
    else:
        other.budget = args.against if args.against is not None else budget
    _, against_packer, against_budget = load_packer(args.project, other)
    before, after = against_packer.plan(against_budget), packer.plan(budget)
    diff = diff_plans(before, after)
    if args.format == "md":
        from ctxtui.cli.diff_md import pull_request_summary

        print(pull_request_summary(diff, before, after, _side(other), _side(args)), end="")
        return 0
    if args.format == "json":
        print(
            json.dumps(
                {
                    "from": {
                        "packer": against_packer.name,
                        "budget": against_budget,
                        "settings": other.settings,
                        "rev": _side(other),
                    },
                    "to": {"packer": packer.name, "budget": budget, "settings": args.settings, "rev": _side(args)},
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
                    # The same entry (key) whose own text differs between the two states (two loads of a workspace).
                    "edited": [{"key": e.key, "location": e.location, "title": e.title} for e in diff.edited],
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
    where = f" at {_side(args) or 'the working tree'}" if against_rev is not None else ""
    against_where = f" at {_side(other) or 'the working tree'}" if against_rev is not None else ""
    print(
        f"{packer.name}{clean_line(where)} at {budget:,} tokens against {against_packer.name}"
        f"{clean_line(against_where)} at {against_budget:,}: "
        f"{len(diff.changed):,} entr{'y changes' if len(diff.changed) == 1 else 'ies change'} fate; "
        f"used (the packet's Used line) {used.before:,} → {used.after:,} tokens ({used.delta:+,})"
    )
    for change in diff.changed:
        up = change.after is Fate.INCLUDED or (change.after is Fate.SUMMARIZED and change.before is not Fate.INCLUDED)
        print(
            f"  {'▲' if up else '▼'} {_WORD[change.before] + ' → ' + _WORD[change.after]:<24} {change.entry.section:<11} "
            f"{clean_line(change.entry.title)[:60]}  ({clean_line(change.entry.source)})"
        )
    for entry in diff.edited:
        print(f"  ✎ edited{'':<17} {entry.section:<11} {clean_line(entry.title)[:60]}  ({clean_line(entry.location)})")
    moved = [(name, shift) for name, shift in diff.buckets.items() if shift.delta]
    if moved:
        print(
            "tokens by bucket: " + "; ".join(f"{name} {s.before:,} → {s.after:,} ({s.delta:+,})" for name, s in moved)
        )
    return 0


def _side(args: argparse.Namespace) -> str | None:
    """The revision a side was packed at (None: the working tree)."""
    return getattr(args, "rev", None)
