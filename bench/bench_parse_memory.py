"""Peak memory of `ctxtui pack` on huge context files, as a multiple of the file's size (issue 20, medium 17).

Three attack files: TASKS.md with 1,000,000 tasks (54 MB), CONVENTIONS.md of
10 MB of "-" lines (2.5 million bullets) and a steering file whose front
matter has 100,000 keys. Each is packed by `ctxtui pack` in a fresh process;
the figure is that process's peak resident memory less the peak of the same
command on a project with empty files (the interpreter and the imports), over
the file's size (the peak is VmHWM, which exec resets). `--trace` adds tracemalloc's peak (Python objects only; about
twice as slow). `--small` divides every file by 10; `--only WORD` packs only the cases whose label
holds WORD (`--only steering`).

Prints figures; asserts nothing (tests/hostile/test_parse_memory.py bounds a
small case).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from itertools import chain, repeat
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import io, os, sys, tracemalloc
trace = sys.argv[2] == "1"
if trace:
    tracemalloc.start()
from ctxtui.cli import main
out = io.TextIOWrapper(io.BytesIO())
sys.stdout = out
main(["pack", sys.argv[1]])
peak = tracemalloc.get_traced_memory()[1] if trace else 0
sys.stdout = sys.__stdout__
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across exec.
hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(int(hwm.split()[1]) * 1024, peak)
"""


def project(root: Path, name: str, files: dict[str, Iterable[str]]) -> tuple[Path, int]:
    """A ctx project with `files` in .context/ (ctx's three required files exist); (path, bytes of `files`).

    Each file is written piece by piece: this process stays small, as the
    children's figures must not include its memory."""
    path = root / name
    (path / ".git").mkdir(parents=True)
    context = path / ".context"
    context.mkdir()
    for required in ("CONSTITUTION.md", "TASKS.md", "DECISIONS.md"):
        (context / required).write_text(f"# {required[:-3].title()}\n")
    size = 0
    for rel, pieces in files.items():
        (context / rel).parent.mkdir(parents=True, exist_ok=True)
        with open(context / rel, "w", encoding="utf-8") as out:
            for piece in pieces:
                out.write(piece)
                size += len(piece.encode())
    return path, size


def measure(path: Path, trace: bool) -> tuple[int, int, float]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), "1" if trace else "0"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    rss, peak = map(int, done.stdout.split()[-2:])
    return rss, peak, time.perf_counter() - start


def main() -> None:
    trace = "--trace" in sys.argv
    scale = 10 if "--small" in sys.argv else 1
    tasks = 1_000_000 // scale
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cases = {
            f"TASKS.md, {tasks:,} tasks": project(
                root,
                "tasks",
                {
                    "TASKS.md": chain(
                        ["# Tasks\n\n"], (f"- [ ] Task {i:07d}: refactor the parser\n" for i in range(tasks))
                    )
                },
            ),
            f"CONVENTIONS.md, {10 // scale or 1} MB of '-' lines": project(
                root, "conventions", {"CONVENTIONS.md": repeat("-\n" * 1000, 5_000 // scale)}
            ),
            f"steering front matter, {100_000 // scale:,} keys": project(
                root,
                "steering",
                {
                    "steering/big.md": chain(
                        ["---\nname: big\ninclusion: always\n"],
                        (f"k{i}: 'v{i}'\n" for i in range(100_000 // scale)),
                        ["---\nBe brief.\n"],
                    )
                },
            ),
        }
        empty, _ = project(root, "empty", {})
        base_rss, base_peak, _ = measure(empty, trace)
        print(f"{'case':<44} {'file':>8} {'RSS over base':>14} {'÷ file':>7} {'traced':>9} {'÷ file':>7} {'wall':>7}")
        only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
        for label, (path, size) in cases.items():
            if only not in label:
                continue
            rss, peak, wall = measure(path, trace)
            grown = rss - base_rss
            traced = f"{(peak - base_peak) / 2**20:7.1f} MB {(peak - base_peak) / size:6.1f}x" if trace else " " * 17
            print(
                f"{label:<44} {size / 2**20:5.1f} MB {grown / 2**20:11.1f} MB {grown / size:6.1f}x {traced} {wall:6.1f} s"
            )


if __name__ == "__main__":
    main()
