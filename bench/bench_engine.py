"""Engine benchmarks: cold `ctxtui pack`, recompute per budget, thresholds.

Prints figures; it asserts nothing. Run with `make bench` or
`.venv/bin/python bench/bench_engine.py`. Targets (issue 2): cold pack on
ctx-large at 4000 no slower than Go's ~0.11 s; recompute median ≤ 1 ms on
ctx-large and ≤ 20 ms on 10,000 decisions+learnings with 2,000 tasks;
thresholds for every ctx-large entry ≤ 1 s.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ctxtui.engine.explain.thresholds import thresholds  # noqa: E402
from ctxtui.engine.packers.ctx.assemble import packer_for  # noqa: E402
from ctxtui.engine.sources.workspace import load_workspace  # noqa: E402

CORPUS = Path(os.environ.get("CTXTUI_CORPUS", ROOT.parent / "shared" / "corpus"))
NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)
CTXTUI = Path(sys.executable).parent / "ctxtui"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def git_checkout_of(corpus: str) -> Path:
    """The corpus as ctx 0.8.1 wants it: a git working tree (the shared corpus has no .git/).

    A copy in a temporary folder, since the shared corpus is read in place and never written.
    """
    source = CORPUS / corpus
    if (source / ".git").exists():
        return source
    copy = Path(tempfile.mkdtemp(prefix="ctxtui-bench-")) / corpus
    shutil.copytree(source, copy)
    subprocess.run(["git", "init", "-q", str(copy)], check=True)
    return copy


def cold_pack(corpus: str, runs: int = 15) -> None:
    """Wall time of a whole `ctxtui pack` process, as a user runs it (the packet and its notices thrown away)."""
    args = [str(CTXTUI), "pack", str(git_checkout_of(corpus)), "--budget", "4000"]
    quiet = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    subprocess.run(args, **quiet)  # warm the file cache, as for the Go figure
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, **quiet)
        times.append(time.perf_counter() - start)
    print(
        f"cold pack {corpus:<12} budget 4000: median {statistics.median(times):.3f} s, "
        f"min {min(times):.3f} s over {runs} runs"
    )


def recompute(label: str, project: Path, samples: int = 400) -> None:
    """Assemble at random budgets with everything parsed (the slider's engine cost)."""
    engine = packer_for(load_workspace(project), now=NOW, root_path="/project")
    rng = random.Random(7)
    budgets = [rng.randint(0, 32000) for _ in range(samples)]
    for budget in budgets[:50]:
        engine.plan(budget)  # warm the per-task-count caches, as a slider session does
    plan_times, outcome_times = [], []
    for budget in budgets:
        start = time.perf_counter()
        packet = engine.plan(budget)
        plan_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        packet.outcomes  # noqa: B018 - materialise every entry's Outcome
        outcome_times.append(time.perf_counter() - start)
    cold_engine = packer_for(load_workspace(project), now=NOW, root_path="/project")
    start = time.perf_counter()
    cold_engine.plan(8000)
    first = time.perf_counter() - start
    print(
        f"recompute {label}: median {ms(statistics.median(plan_times))}, p95 "
        f"{ms(sorted(plan_times)[int(len(plan_times) * 0.95)])}; + all outcomes "
        f"{ms(statistics.median(outcome_times))}; first assembly after parse {ms(first)}"
    )


def threshold_time(corpus: str) -> None:
    engine = packer_for(load_workspace(CORPUS / corpus), now=NOW, root_path="/project")
    start = time.perf_counter()
    found = thresholds(engine)
    elapsed = time.perf_counter() - start
    print(f"thresholds {corpus}: {len(found)} entries in {elapsed:.3f} s")


def synthetic(tasks: int, decisions: int, learnings: int) -> Path:
    from tests.factories.workspace import write_workspace

    root = Path(tempfile.mkdtemp(prefix="ctxtui-bench-"))
    write_workspace(
        root, tasks=tasks, conventions=80, decisions=decisions, learnings=learnings, steering=3, seed=1, now=NOW
    )
    return root


def main() -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    if (CORPUS / "ctx-large").is_dir():
        cold_pack("ctx-large")
        cold_pack("ctx-dogfood")
        recompute("ctx-large", CORPUS / "ctx-large")
        threshold_time("ctx-large")
    else:
        print(f"(no corpus at {CORPUS}: corpus figures skipped)")
    start = time.perf_counter()
    root = synthetic(2000, 5000, 5000)
    print(
        f"synthetic workspace (2,000 tasks, 10,000 decisions+learnings) written in {time.perf_counter() - start:.2f} s"
    )
    start = time.perf_counter()
    load_workspace(root)
    print(f"  parsed in {time.perf_counter() - start:.3f} s")
    recompute("10k entries + 2k tasks", root, samples=200)


if __name__ == "__main__":
    main()
