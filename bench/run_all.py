"""Run every benchmark script in turn and print their figures (`make bench`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = (
    "bench_engine.py",
    "bench_parse.py",
    "bench_memory.py",
    "bench_shabka.py",
    "bench_cortex.py",
    "bench_nous.py",
    "bench_tui.py",
)

if __name__ == "__main__":
    failed = 0
    for script in SCRIPTS:
        print(f"\n== {script}", flush=True)
        failed |= subprocess.run(
            [sys.executable, str(HERE / script), *sys.argv[1:]]
            if script == "bench_tui.py"
            else [sys.executable, str(HERE / script)]
        ).returncode
    sys.exit(1 if failed else 0)
