"""`ctxtui sweep`: tokens used and entries per fate over a range of budgets.

Rows are printed as they are computed, and the sweep stops after
`--max-seconds` (saying at which budget): `--to 99999999999999 --step 1`
once printed nothing for ten minutes while its list of rows grew to 850 MB.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Iterable, Iterator

from ctxtui.cli.common import load_packer
from ctxtui.cli.failures import UsageError, warn
from ctxtui.cli.json_stream import write_list
from ctxtui.engine.explain.sweep import SweepRow, sweep_rows


def run(args: argparse.Namespace) -> int:
    if args.step <= 0:
        raise UsageError("--step must be positive")
    if args.stop < args.start:
        raise UsageError("--to must not be below --from")
    if not args.max_seconds > 0:
        raise UsageError("--max-seconds must be positive")
    deadline = time.perf_counter() + args.max_seconds  # the whole command's bound, the load included
    _, packer, _ = load_packer(args.project, args)
    budgets = range(args.start, args.stop + 1, args.step)
    stopped_at: list[int] = []

    def bounded() -> Iterator[SweepRow]:
        for row in sweep_rows(packer, budgets, by_section=args.by_section):
            yield row
            if time.perf_counter() > deadline and row.budget + args.step <= args.stop:
                stopped_at.append(row.budget + args.step)
                return

    out = sys.stdout
    if args.format == "json":
        write_list(out, (_json(row, args.by_section) for row in bounded()))
        out.write("\n")
    else:
        _table(bounded(), args.by_section)
    if stopped_at:
        out.flush()
        warn(
            f"sweep stopped after --max-seconds {args.max_seconds:g}: budgets from {stopped_at[0]:,} "
            f"to {args.stop:,} not examined"
        )
    return 0


def _json(row: SweepRow, by_section: bool) -> dict[str, object]:
    data = dataclasses.asdict(row)
    if by_section:
        data["sections"] = {
            name: dict(zip(("included", "summarized", "dropped"), counts, strict=True))
            for name, counts in row.sections.items()
        }
    else:
        del data["sections"]
    return data


def _table(rows: Iterable[SweepRow], by_section: bool) -> None:
    names: list[str] = []
    for index, row in enumerate(rows):
        if index == 0:
            names = list(row.sections) if by_section else []
            header = f"{'budget':>9} {'used':>9} {'included':>9} {'summarized':>11} {'dropped':>8}"
            # whole names: a column is as wide as its name (rows stream, so a wider count widens its own row only)
            widths = [max(11, len(name)) for name in names]
            print(header + "".join(f"  {name:>{width}}" for name, width in zip(names, widths, strict=True)))
        line = f"{row.budget:>9,} {row.tokens_used:>9,} {row.included:>9} {row.summarized:>11} {row.dropped:>8}"
        line += "".join(
            f"  {'%d/%d/%d' % row.sections[name]:>{width}}" for name, width in zip(names, widths, strict=True)
        )
        print(line, flush=True)
    print("used: the packet's Used line (the tokens its packer charged)")
    if names:
        print("per section: included (in full) / summarized / dropped")
