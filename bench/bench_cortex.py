"""Cortex packer benchmark: a recompute (`packer.plan(b)` at a random budget) over a 50,000-memory store.

Prints figures; asserts nothing. `.venv/bin/python bench/bench_cortex.py [--n 50000 --samples 500]`.
Target (issue 9): ≤ 30 ms per plan. The store is a Cortex v1 database built
by `tests.factories.cortex_v1` (varied types and fields, 30% never read);
the packer reads it once (`read_cortex_store`, read-only) and ranks its
candidates once per settings; each slider step is then `plan(b)` — the
two-pass fit over at most 20 memories — plus whatever the screen asks of
the plan: the fate vector (one byte per memory: 50,000), the outcomes (the
table), the packet text. `thresholds` walks every change point.
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

from ctxtui.engine.explain.thresholds import thresholds  # noqa: E402
from ctxtui.engine.packers.cortex import CortexPacker  # noqa: E402
from ctxtui.engine.sources.memory.cortex.v1_store import read_cortex_store  # noqa: E402
from tests.factories.cortex_v1 import NOW, build_v1_db, random_memory  # noqa: E402

TARGET_S = 0.030


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.3f} ms"


def summary(label: str, times: list[float]) -> None:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    verdict = "ok" if statistics.median(times) <= TARGET_S else "OVER TARGET"
    print(f"  {label:<44} median {ms(statistics.median(times))}  p95 {ms(p95)}  max {ms(times[-1])}  [{verdict}]")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--samples", type=int, default=500)
    args = parser.parse_args()
    rng = random.Random(9)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        rows = [random_memory(rng, k, chaos=False) for k in range(args.n)]
        db = build_v1_db(Path(tmp) / "cortex.db", rows)
        print(f"built {args.n:,} memories in {time.perf_counter() - started:.1f} s ({db.stat().st_size / 1e6:.1f} MB)")
        started = time.perf_counter()
        store = read_cortex_store(db)
        read = time.perf_counter() - started
        started = time.perf_counter()
        packer = CortexPacker(store, focus="auth cache", intent="fix_bug", now=NOW, retrieval_time=3)
        built = time.perf_counter() - started
        print(f"  read the store (read-only)                   {ms(read)}")
        print(
            f"  build the packer (gather, score, rank, entries) {ms(built)}  "
            f"({len(packer.candidates()):,} entries, {packer.total_candidates} candidates)"
        )
        budgets = [rng.randint(0, 3000) for _ in range(args.samples)]
        for budget in budgets[:50]:  # warm-up
            packer.plan(budget)

        def run(step) -> list[float]:
            times = []
            for budget in budgets:
                t = time.perf_counter()
                step(budget)
                times.append(time.perf_counter() - t)
            return times

        print(f"recompute at {args.samples} random budgets (target ≤ {TARGET_S * 1000:.0f} ms per plan):")
        summary("plan(b)", run(packer.plan))
        summary("plan(b) + fate vector", run(lambda b: packer.fate_vector(packer.plan(b))))
        summary("plan(b) + every outcome", run(lambda b: packer.plan(b).outcomes))
        summary(
            "plan(b) + packet (text) + packet (json)",
            run(lambda b: (packer.plan(b).render("md"), packer.plan(b).render("json"))),
        )
        started = time.perf_counter()
        found = thresholds(packer)
        print(f"  thresholds of all {len(found):,} entries (every change point) {ms(time.perf_counter() - started)}")
        started = time.perf_counter()
        packer.with_settings(focus="redis")
        print(f"  a new focus (knob change: re-rank, same store)   {ms(time.perf_counter() - started)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
