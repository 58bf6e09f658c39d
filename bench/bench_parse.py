"""Parsing speed on pathological files: TASKS.md full of blank lines, 100 KB and 10 MB.

Prints figures; asserts nothing. The old backtracking pattern is timed on the
100 KB file only (it takes tens of seconds); the linear scanner on both.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ctxtui.engine.sources.context import parse_constitution, parse_conventions, parse_tasks, task_pattern


def timed(label: str, work) -> float:
    start = time.perf_counter()
    work()
    elapsed = time.perf_counter() - start
    print(f"{label:<58} {elapsed:8.3f} s")
    return elapsed


def main() -> None:
    # Blank lines followed by text that is not a task: every line start scans to the end, then fails.
    blank_100k = "# Tasks\n" + "\n" * 100_000 + "no task here\n"
    blank_10m = "# Tasks\n" + "\n" * 10_000_000 + "no task here\n"
    tasks_10m = ("- [ ] a task with a few words in it\n\n \n\t\n" * 250_000)[:10_000_000]
    timed("linear scanner, TASKS.md 100 KB of blank lines", lambda: parse_tasks(blank_100k))
    timed("linear scanner, TASKS.md 10 MB of blank lines", lambda: parse_tasks(blank_10m))
    timed("linear scanner, CONSTITUTION.md 10 MB of blank lines", lambda: parse_constitution(blank_10m))
    timed("linear scanner, TASKS.md 10 MB, 250,000 tasks", lambda: parse_tasks(tasks_10m))
    # One 10 MB line of " -": each " -" is a candidate dash line, all on the same line.
    one_line = " -" * 5_000_000
    timed("linear scanner, TASKS.md one 10 MB line of ' -'", lambda: parse_tasks(one_line))
    timed("linear scanner, CONVENTIONS.md one 10 MB line of ' -'", lambda: parse_conventions(one_line))
    if "--skip-regex" not in sys.argv:
        for size in (5_000, 10_000, 20_000):
            sample = "# Tasks\n" + "\n" * size + "no task here\n"
            timed(
                f"old backtracking pattern, {size // 1000} KB of blank lines (quadratic)",
                lambda sample=sample: list(task_pattern().finditer(sample)),
            )


if __name__ == "__main__":
    main()
