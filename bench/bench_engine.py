"""Engine benchmarks: cold `ctxtui pack` against Go ctx, start-up, a slider step's engine cost, thresholds.

Prints figures; it asserts nothing. `.venv/bin/python bench/bench_engine.py`
(`--quick`, `--json FILE`, `--ctx-bin PATH`, `--skip-cold`, `--skip-50k`).
Every size runs in this one process, so their ratios are meaningful.

- cold pack: see `bench/coldpack.py` (a non-editable `pip install .` in a
  throwaway venv, alternating runs with the Go `ctx agent`).
- start-up: what the app does before its first screen, on the engine side:
  read `.context/` (and the memory database, through the same live join the
  app uses), build the packer, plan the first budget, and every outcome and
  bucket that screen shows. Repeated; the median is reported.
- step: the engine's part of one slider step, as the app makes it: the plan
  at the new budget, its outcomes and its buckets. The walk is the TUI bench's:
  40 steps of +1 from 4,000, then 40 of +100 (budgets near each other).
- peak_mb (50,000 memories): the largest resident size of this process
  (`ru_maxrss`) after the 50,000-memory start-up, and tracemalloc's peak of
  Python allocations for one start-up.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.coldpack import cold_pack  # noqa: E402
from bench.corpus import find_corpus  # noqa: E402
from ctxtui.engine.explain.thresholds import thresholds  # noqa: E402
from ctxtui.engine.packers.ctx.assemble import packer_for  # noqa: E402
from ctxtui.engine.packers.ctx.memories import MemoryJoin  # noqa: E402
from ctxtui.engine.sources.workspace import load_workspace  # noqa: E402

CORPUS = find_corpus()
NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)
START_BUDGET = 4000


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def start(project: Path, db: Path | None, budget: int = START_BUDGET):
    """The engine's start-up as the app does it; returns the packer and the first plan."""
    workspace = load_workspace(project)
    if db is not None:
        join = MemoryJoin(db, None, live=True)
        joined = join.load(NOW)
        workspace.memories, workspace.memory_problems = joined.entries, joined.problems
        join.close()
    packer = packer_for(workspace, now=NOW, root_path="/project")
    plan = packer.plan(budget)
    plan.outcomes  # noqa: B018 - the first screen's table
    plan.buckets  # noqa: B018 - and its bars
    return packer, plan


def step_walk(packer, steps: int) -> list[float]:
    """Engine time per slider step: plan, outcomes, buckets at each budget of the TUI bench's walk."""
    budgets = [START_BUDGET + i for i in range(1, steps + 1)]
    budgets += [budgets[-1] + 100 * i for i in range(1, steps + 1)]
    times = []
    previous = packer.plan(START_BUDGET)
    previous.outcomes  # noqa: B018
    for budget in budgets:
        began = time.perf_counter()
        plan = packer.plan(budget)
        plan.outcomes  # noqa: B018
        plan.buckets  # noqa: B018
        times.append(time.perf_counter() - began)
        previous = plan  # the app drops the previous screen's plan after drawing the next one
    del previous
    return times


def bench_size(label: str, key: str, project: Path, db: Path | None, starts: int, steps: int) -> dict[str, float]:
    startups = []
    packer = _first = None
    for _ in range(starts):
        packer = _first = None  # the previous start-up's packer is gone before the next one starts
        gc.collect()
        began = time.perf_counter()
        packer, _first = start(project, db)
        startups.append(time.perf_counter() - began)
    assert packer is not None
    entries = len(packer.candidates())
    times = step_walk(packer, steps)
    figures = {
        "entries": entries,
        "step_ms": round(statistics.median(times) * 1000, 3),
        "step_p95_ms": round(p95(times) * 1000, 3),
        "startup_ms": round(statistics.median(startups) * 1000, 1),
    }
    print(
        f"{label}: {entries:,} entries; start-up median {figures['startup_ms']:.0f} ms "
        f"(min {min(startups) * 1000:.0f}, max {max(startups) * 1000:.0f}, n={starts}); "
        f"step (plan+outcomes+buckets) median {figures['step_ms']:.2f} ms, p95 {figures['step_p95_ms']:.2f} ms, "
        f"max {max(times) * 1000:.2f} ms (n={len(times)})"
    )
    return figures


def peak_memory(project: Path, db: Path) -> dict[str, float]:
    gc.collect()
    tracemalloc.start()
    packer, plan = start(project, db)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del packer, plan
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(
        f"  peak memory: this process's max resident {rss:.0f} MB; tracemalloc peak of one start-up {peak / 2**20:.0f} MB"
    )
    return {"peak_mb": round(rss, 1), "tracemalloc_peak_mb": round(peak / 2**20, 1)}


def threshold_time(project: Path) -> float:
    engine = packer_for(load_workspace(project), now=NOW, root_path="/project")
    began = time.perf_counter()
    found = thresholds(engine)
    elapsed = time.perf_counter() - began
    print(f"thresholds ctx-large: {len(found)} entries in {elapsed:.3f} s")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write the figures as JSON")
    parser.add_argument("--ctx-bin", help="the Go ctx to race (default: $CTX_BIN, else ctx on PATH)")
    parser.add_argument("--skip-cold", action="store_true", help="no cold-pack race")
    parser.add_argument("--skip-50k", action="store_true")
    args = parser.parse_args()
    quick = args.quick
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()}")
    out: dict[str, object] = {"load_average_start": os.getloadavg()}
    large = CORPUS / "ctx-large"
    have_corpus = (large / ".context").is_dir()
    if not have_corpus:
        print(f"(no corpus at {CORPUS}: corpus figures skipped; set CTXTUI_CORPUS)")
    if have_corpus and not args.skip_cold:
        out["cold_pack"] = cold_pack(CORPUS, 11 if quick else 31, args.ctx_bin)
    if have_corpus:
        out["ctx_large"] = bench_size("ctx-large", "ctx_large", large, None, 5 if quick else 11, 40)
        out["ctx_large"]["thresholds_s"] = round(threshold_time(large), 3)  # type: ignore[index]

    from tests.factories.workspace import write_workspace

    with tempfile.TemporaryDirectory(prefix="ctxtui-bench-") as scratch:
        synth = write_workspace(
            Path(scratch) / "synth10k",
            tasks=2000,
            conventions=80,
            decisions=5000,
            learnings=5000,
            steering=3,
            seed=1,
            now=NOW,
        )
        out["entries_10k"] = bench_size(
            "synthetic 10k (2,000 tasks, 5,000 decisions, 5,000 learnings)",
            "entries_10k",
            synth,
            None,
            3 if quick else 7,
            40,
        )
        if not args.skip_50k:
            from tests.factories.memory_dbs import build_native_db

            db = Path(scratch) / "memories-50k.db"
            began = time.perf_counter()
            build_native_db(db, 50_000, 1, NOW)
            base = large if have_corpus else synth
            print(f"(50,000-memory database built in {time.perf_counter() - began:.1f} s, joined to {base.name})")
            figures = bench_size(f"{base.name} + 50,000 memories", "memories_50k", base, db, 3 if quick else 5, 40)
            figures.update(peak_memory(base, db))
            out["memories_50k"] = figures
    out["load_average_end"] = os.getloadavg()
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
        print(f"(figures written to {args.json})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
