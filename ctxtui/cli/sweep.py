"""`ctxtui sweep`: tokens used and entries per fate over a range of budgets."""

from __future__ import annotations

import argparse
import dataclasses
import json

from ctxtui.cli.common import UsageError, load_packer
from ctxtui.engine.explain.sweep import sweep


def run(args: argparse.Namespace) -> int:
    if args.step <= 0:
        raise UsageError("--step must be positive")
    if args.stop < args.start:
        raise UsageError("--to must not be below --from")
    _, packer, _ = load_packer(args.project, args)
    rows = sweep(packer, range(args.start, args.stop + 1, args.step))
    if args.format == "json":
        print(json.dumps([dataclasses.asdict(row) for row in rows], indent=2))
        return 0
    print(f"{'budget':>9} {'used':>9} {'included':>9} {'summarized':>11} {'dropped':>8}")
    for row in rows:
        print(f"{row.budget:>9,} {row.tokens_used:>9,} {row.included:>9} {row.summarized:>11} {row.dropped:>8}")
    return 0
