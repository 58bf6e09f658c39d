"""Shabka packer benchmark: 50,000 memories; the one-off read, KNN and ranking; the per-budget recompute.

Prints figures; it asserts nothing. Run with `.venv/bin/python bench/bench_shabka.py`
(optionally `--n 10000 --runs 9 --samples 500`). Target (issue 9): a budget
recompute — `packer.plan(b)` at a random budget, the slider's cost — takes
≤ 30 ms at the median with 50,000 memories. The store is written once by
`tests.factories.shabka_dbs.bulk_store` (hash-embedded, as Shabka writes
them); the one-off figures are the store read (`read_shabka_store`, an
immutable read-only open) and the packer's construction (embed the query,
L2 over every vector, the 50 nearest, read and rank the survivors), each
over `runs` fresh runs. The recompute is timed alone, with the fate vector
(what thresholds and sweeps use), and with the packet rendered and every
candidate's outcome materialised (what the TUI shows).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ctxtui.engine.packers.shabka.dates import parse_rfc3339  # noqa: E402
from ctxtui.engine.packers.shabka.knobs import ShabkaSettings  # noqa: E402
from ctxtui.engine.packers.shabka.packer import ShabkaPacker  # noqa: E402
from ctxtui.engine.sources.memory.shabka.store import read_shabka_store  # noqa: E402
from tests.factories.shabka_dbs import bulk_store  # noqa: E402

NOW = parse_rfc3339("2025-06-01T12:00:00Z")
TARGET_MS = 30.0


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"median {statistics.median(values) * 1e3:9.4f} ms   p95 {p95 * 1e3:9.4f} ms   max {max(values) * 1e3:9.4f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--samples", type=int, default=300)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "shabka.db"
        start = time.perf_counter()
        bulk_store(db, opts.n, seed=7)
        print(f"store of {opts.n:,} memories written in {time.perf_counter() - start:.1f} s (not timed below)")

        reads, builds = [], []
        store = packer = None
        for run in range(opts.runs):
            start = time.perf_counter()
            store = read_shabka_store(db)
            reads.append(time.perf_counter() - start)
            settings = ShabkaSettings(now=NOW, query=["postgres cache", "", "flaky tests ci"][run % 3], user="alice")
            start = time.perf_counter()
            packer = ShabkaPacker(store, settings)
            builds.append(time.perf_counter() - start)
        assert packer is not None
        print(f"read the store (one-off)          {ms(reads)}")
        print(f"KNN + ranking (one-off)           {ms(builds)}   ({len(packer.ranked)} ranked)")

        rng = random.Random(3)
        budgets = [rng.randint(0, 3000) for _ in range(opts.samples)]
        start = time.perf_counter()
        packer.candidates()
        print(
            f"candidate entries (once, lazily)  {(time.perf_counter() - start) * 1e3:8.1f} ms   "
            f"({len(packer.candidates()):,} entries)"
        )
        plans = []
        for budget in budgets:
            start = time.perf_counter()
            packer.plan(budget)
            plans.append(time.perf_counter() - start)
        with_fates = []
        for budget in budgets:
            start = time.perf_counter()
            packer.fate_vector(packer.plan(budget))
            with_fates.append(time.perf_counter() - start)
        shown = []
        for budget in budgets:
            start = time.perf_counter()
            plan = packer.plan(budget)
            plan.render("md")
            _ = plan.outcomes
            shown.append(time.perf_counter() - start)
        median = statistics.median(plans) * 1e3
        print(
            f"recompute: plan(budget)           {ms(plans)}   target ≤ {TARGET_MS:.0f} ms: "
            f"{'met' if median <= TARGET_MS else 'MISSED'}"
        )
        print(f"recompute + fate vector           {ms(with_fates)}")
        print(f"recompute + packet + outcomes     {ms(shown)}")


if __name__ == "__main__":
    main()
