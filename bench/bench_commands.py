"""The analysis commands at 50,000 memories: wall time, CPU time and peak memory of each (issue 21, part 4).

Prints figures; asserts nothing. Each command runs in a fresh process on
ctx-large joined to a generated 50,000-memory database, with its time bound
(`--max-seconds`) as given, so a figure reads "bounded at S, ended after T".
Run `.venv/bin/python bench/bench_commands.py [--max-seconds S] [--json FILE]`
(`--root DIR` runs another checkout's code, for a before/after pair).
Wall times on a shared machine depend on its load (printed); CPU time less so.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.corpus import find_corpus  # noqa: E402

NOW = "2026-11-21T23:56:08+00:00"


# The coverage screen's scan as the TUI's worker runs it (`tui.tuning._compute_coverage`), after a load.
SCREEN = """
import sys, time
from datetime import datetime
from pathlib import Path
from ctxtui.deadline import stop_after
from ctxtui.engine.explain.coverage import coverage
from ctxtui.session import Session
from ctxtui.tui.tuning import COVERAGE_SECONDS
now = datetime.fromisoformat(sys.argv[3])
session = Session(project=Path(sys.argv[1]), db=Path(sys.argv[2]), clock=lambda: now, root_path="/project")
session.load(4000)
loaded = session.loaded
started = time.perf_counter()
found = coverage(loaded.packer, 4000, should_stop=stop_after(COVERAGE_SECONDS, lambda: loaded.stale))
print(f"scan {time.perf_counter() - started:.2f} s (bound {COVERAGE_SECONDS:g} s); budgets above "
      f"{found.scanned_to} not examined", file=sys.stderr)
"""


def run(root: Path, args: list[str]) -> dict[str, float]:
    """One command in a fresh process: wall seconds, CPU seconds, peak resident MB (wait4's ru_maxrss)."""
    command = [sys.executable, "-m", "ctxtui.cli", *args, "--now", NOW]
    if args[0] == "screen":
        command = [sys.executable, "-c", SCREEN, *args[1:], NOW]
    started = time.perf_counter()
    with open(os.devnull, "w") as sink:
        process = subprocess.Popen(command, cwd=root, stdout=sink, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    stderr = process.stderr.read() if process.stderr else ""
    return {
        "wall_s": round(wall, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_mb": round(usage.ru_maxrss / 1024, 1),
        "status": os.waitstatus_to_exitcode(status),
        "note": " | ".join(
            line.removeprefix("ctxtui: warning: ")
            for line in stderr.splitlines()
            if "not examined" in line or "explained" in line or "Error" in line
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-seconds", type=float, default=2.0)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose ctxtui runs (default: this one)")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--packer",
        help="pass --packer (e.g. ctx-0.8.1): without it and with no ctx on PATH, every command also plans "
        "ctx 0.8.0 over the same memories to decide its notice",
    )
    args = parser.parse_args()
    corpus = find_corpus() / "ctx-large"
    figures: dict[str, object] = {"load_average_start": os.getloadavg(), "root": str(args.root)}
    with tempfile.TemporaryDirectory(prefix="ctxtui-bench-") as scratch:
        project = Path(scratch) / "ctx-large"
        shutil.copytree(corpus, project)
        subprocess.run(["git", "init", "-q", str(project)], check=True)  # ctx packs a git working tree only
        db = Path(scratch) / "m50k.db"
        build = (
            "import sys; from datetime import datetime; from tests.factories.memory_dbs import build_native_db; "
            "build_native_db(sys.argv[1], 50000, 1, datetime.fromisoformat(sys.argv[2]))"
        )
        subprocess.run([sys.executable, "-c", build, str(db), NOW], cwd=ROOT, check=True)
        common = [str(project), "--db", str(db), *(["--packer", args.packer] if args.packer else [])]
        bound = ["--max-seconds", f"{args.max_seconds:g}"]
        commands = {
            "pack (for scale: load and one plan)": ["pack", *common, "--budget", "4000"],
            "explain --all --format json": [
                "explain",
                *common,
                "--all",
                "--format",
                "json",
                "--budget",
                "4000",
                *bound,
            ],
            "explain --all --format json, bound 120 s": [
                "explain",
                *common,
                "--all",
                "--format",
                "json",
                "--budget",
                "4000",
                "--max-seconds",
                "120",
            ],
            "coverage": ["coverage", *common, "--budget", "4000", *bound],
            "the coverage screen (g), its own bound": ["screen", str(project), str(db)],
            "sweep (0 to 16,000 by 1,000)": ["sweep", *common, *bound],
            "sweep --step 1 --to 99999999999999": ["sweep", *common, "--step", "1", "--to", "99999999999999", *bound],
        }
        print(
            f"ctx-large + 50,000 memories, --max-seconds {args.max_seconds:g}, --packer {args.packer or '(none)'}, "
            f"code from {args.root}"
        )
        for name, command in commands.items():
            if "sweep" in name and "max_seconds" not in (args.root / "ctxtui/cli/sweep.py").read_text():
                command = [c for c in command if c not in bound]  # that checkout's sweep has no bound
                if "99999999999999" in command:
                    print(f"  {name:40s} skipped (no bound in that checkout: it runs for hours)")
                    continue
            found = run(args.root, command)
            figures[name] = found
            print(
                f"  {name:40s} wall {found['wall_s']:6.2f} s  cpu {found['cpu_s']:6.2f} s  "
                f"peak {found['peak_mb']:6.0f} MB  exit {found['status']}  {found['note'][:200]}"
            )
    figures["load_average_end"] = os.getloadavg()
    print(f"load average: start {figures['load_average_start'][0]:.1f}, end {os.getloadavg()[0]:.1f}")  # type: ignore[index]
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
