"""Memory database benchmarks: load 50,000 memories per schema; live-source costs.

Prints figures; it asserts nothing. Run with `.venv/bin/python bench/bench_memory.py`
(optionally `--n 10000 --runs 9`). Target (memory brief): 50,000 memories load
in ≤ 1 s. Each schema's database is built once by `synth`, then loaded `runs`
times with `load_memories` (a one-shot, immutable read: nothing cached
between runs but the OS page cache).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ctxtui.engine.memory import MemorySource, load_memories  # noqa: E402
from ctxtui.engine.memory.synth import build_cortex_db, build_native_db, build_shabka_db  # noqa: E402

NOW = datetime(2026, 5, 1, 12, tzinfo=timezone.utc)
BUILDERS = (("ctxtui", build_native_db, "usage_events"), ("shabka", build_shabka_db, None),
            ("cortex", build_cortex_db, "memory_usage_history"))


def timed(call, runs: int, cpu: list[float] | None = None) -> list[float]:
    """Wall times of `runs` calls; CPU times (immune to other processes) go to `cpu`."""
    times = []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        times.append(time.perf_counter() - start)
        if cpu is not None:
            cpu.append(time.process_time() - start_cpu)
    return times


def count(db: Path, table: str | None) -> int:
    if table is None:
        return 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{'schema':<7} {'memories':>8} {'usage rows':>10} {'MB':>6} {'build s':>8} "
          f"{'load median s':>13} {'min s':>6} {'max s':>6} {'cpu median s':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for schema, build, usage_table in BUILDERS:
            db = Path(tmp) / f"{schema}.db"
            start = time.perf_counter()
            build(db, args.n, seed=1, now=NOW)
            built = time.perf_counter() - start
            loads, cpu = [], []
            times = timed(lambda: loads.append(len(load_memories(db).records)), args.runs, cpu)
            assert loads == [args.n] * args.runs
            print(f"{schema:<7} {args.n:>8} {count(db, usage_table):>10} {db.stat().st_size / 1e6:>6.1f} "
                  f"{built:>8.2f} {statistics.median(times):>13.3f} {min(times):>6.3f} {max(times):>6.3f} "
                  f"{statistics.median(cpu):>12.3f}")
        db = Path(tmp) / "ctxtui.db"
        with MemorySource(db) as source:
            source.load()
            polls = timed(source.changed, 1000)
            reloads = timed(source.load, args.runs)
        print(f"live source on ctxtui: changed() median {statistics.median(polls) * 1e6:.1f} µs; "
              f"full reload median {statistics.median(reloads):.3f} s")


if __name__ == "__main__":
    main()
