"""`ctxtui sweep`: tokens used and entries per fate over a range of budgets."""

from __future__ import annotations

import argparse
import dataclasses
import json

from ctxtui.cli.common import load_packer
from ctxtui.cli.failures import UsageError
from ctxtui.engine.explain.sweep import sweep


def run(args: argparse.Namespace) -> int:
    if args.step <= 0:
        raise UsageError("--step must be positive")
    if args.stop < args.start:
        raise UsageError("--to must not be below --from")
    _, packer, _ = load_packer(args.project, args)
    rows = sweep(packer, range(args.start, args.stop + 1, args.step), by_section=args.by_section)
    if args.format == "json":
        out = []
        for row in rows:
            data = dataclasses.asdict(row)
            if args.by_section:
                data["sections"] = {
                    name: dict(zip(("included", "summarized", "dropped"), counts, strict=True))
                    for name, counts in row.sections.items()
                }
            else:
                del data["sections"]
            out.append(data)
        print(json.dumps(out, indent=2))
        return 0
    names = list(rows[0].sections) if rows and args.by_section else []
    header = f"{'budget':>9} {'used':>9} {'included':>9} {'summarized':>11} {'dropped':>8}"
    cells = [["%d/%d/%d" % row.sections[name] for name in names] for row in rows]
    widths = [max(11, len(name), *(len(line[i]) for line in cells)) for i, name in enumerate(names)]
    print(header + "".join(f"  {name:>{width}}" for name, width in zip(names, widths, strict=True)))
    for row, line_cells in zip(rows, cells, strict=True):
        line = f"{row.budget:>9,} {row.tokens_used:>9,} {row.included:>9} {row.summarized:>11} {row.dropped:>8}"
        line += "".join(f"  {cell:>{width}}" for cell, width in zip(line_cells, widths, strict=True))
        print(line)
    print("used: the packet's Used line (the tokens its packer charged)")
    if names:
        print("per section: included (in full) / summarized / dropped")
    return 0
