"""Every packer's recompute at 50,000 memories, side by side (issue 9 part 7: target ≤ 30 ms median).

Prints figures; it asserts nothing. `.venv/bin/python bench/bench_recompute.py`
(`--json FILE`, `--n 50000`). Each packer has its own bench, which builds its
own 50,000-memory store and times `packer.plan(b)` at random budgets after a
warm-up; this runs them one after another (never in parallel: the machine has
two cores), reads each one's recompute line and prints one table:

- ctx: `bench_memory.py`, 50,000 ctxtui-schema memories joined to ctx-large;
- shabka: `bench_shabka.py`, 50,000 hash-embedded memories;
- cortex: `bench_cortex.py`, a 50,000-memory store;
- nous: `bench_nous.py`, 50,000 memories in a throwaway PostgreSQL, a
  synthetic turn with all of them as candidates (skipped without PostgreSQL).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 30.0

# packer → (script, the line's pattern: median and p95 in ms, what is timed)
BENCHES = {
    "ctx": (
        "bench_memory.py",
        r"recompute engine\.plan\(b\).*?median ([\d.]+) ms, p95 ([\d.]+) ms",
        "engine.plan(b), 200 random budgets 0-200,000, ctx-large + 50,000 memories",
    ),
    "shabka": (
        "bench_shabka.py",
        r"recompute: plan\(budget\)\s+median\s+([\d.]+) ms\s+p95\s+([\d.]+) ms",
        "packer.plan(b), 300 random budgets 0-3,000",
    ),
    "cortex": (
        "bench_cortex.py",
        r"^\s+plan\(b\)\s+median\s+([\d.]+) ms\s+p95\s+([\d.]+) ms",
        "packer.plan(b), 500 random budgets 0-3,000",
    ),
    "nous": (
        "bench_nous.py",
        r"all memories as candidates.*\n\s+plan\(b\), \d+ random budgets: median ([\d.]+) ms, p95 ([\d.]+) ms",
        "packer.plan(b), 200 random budgets, a turn with all 50,000 memories as candidates",
    ),
}


def run(packer: str, n: int) -> dict[str, object]:
    script, pattern, what = BENCHES[packer]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), "--n", str(n)], capture_output=True, text=True, cwd=ROOT
    )
    found = re.search(pattern, done.stdout, re.MULTILINE)
    if found is None:
        tail = (done.stdout + done.stderr).strip().splitlines()[-1:] or ["no output"]
        return {"what": what, "skipped": tail[0]}
    median, p95 = float(found.group(1)), float(found.group(2))
    return {"what": what, "median_ms": median, "p95_ms": p95, "met": median <= TARGET_MS}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write the figures as JSON")
    parser.add_argument("--only", choices=sorted(BENCHES), action="append", help="one packer (repeatable)")
    args = parser.parse_args()
    figures = {}
    for packer in args.only or list(BENCHES):
        figures[packer] = got = run(packer, args.n)
        if "skipped" in got:
            print(f"{packer:<7} skipped: {got['skipped']}")
        else:
            verdict = "met" if got["met"] else "MISSED"
            print(
                f"{packer:<7} recompute median {got['median_ms']:9.4f} ms  p95 {got['p95_ms']:9.4f} ms  "
                f"(target ≤ {TARGET_MS:.0f} ms: {verdict}) — {got['what']}"
            )
        sys.stdout.flush()
    if args.json:
        args.json.write_text(json.dumps({"recompute_50k": figures}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
