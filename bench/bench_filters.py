"""The table's filter and sort work per slider step at 50,000 memories, without Textual (issue 21, part 4).

For each budget of a walk (one new plan per step, as the slider makes), the
time from the new view to the rows shown: `rows_of(view)`, the filter
(`RowFilter.apply`) and the sort (`sorted_indices`), beside the same with no
filter and packet order. Prints medians; asserts nothing. `--root DIR` runs
another checkout's code (a before/after pair). The whole step, with Textual's
frame, is `bench_tui.py --filters-only`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)
VARIANTS = {
    "no filter, packet order": ({}, None),
    "text 'release'": ({"text": "release"}, None),
    "text 'cap' (a reason's label too)": ({"text": "cap"}, None),
    "fate summarized": ({"fates": "summarized"}, None),
    "section memories": ({"sections": "memories"}, None),
    "sort score": ({}, "score"),
    "sort relevance": ({}, "relevance"),
    "sort tokens": ({}, "tokens"),
    "sort title": ({}, "title"),
    "sort reason": ({}, "reason"),
    "text 'task' + sort score": ({"text": "task"}, "score"),
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--db", type=Path, help="a 50,000-memory database (built when not given)")
    parser.add_argument("--steps", type=int, default=15)
    args = parser.parse_args()
    sys.path.insert(0, str(args.root))
    from bench.corpus import find_corpus
    from ctxtui.engine.fate import Fate
    from ctxtui.session import Session
    from ctxtui.tui.widgets.entries.columns import columns_for
    from ctxtui.tui.widgets.entries.rows import RowFilter, rows_of, sorted_indices

    with tempfile.TemporaryDirectory(prefix="ctxtui-bench-") as scratch:
        db = args.db
        if db is None:
            db = Path(scratch) / "m50k.db"
            build = (
                "import sys; from datetime import datetime; from tests.factories.memory_dbs import build_native_db; "
                "build_native_db(sys.argv[1], 50000, 1, datetime.fromisoformat(sys.argv[2]))"
            )
            subprocess.run([sys.executable, "-c", build, str(db), NOW.isoformat()], cwd=args.root, check=True)
        session = Session(project=find_corpus() / "ctx-large", db=db, clock=lambda: NOW, root_path="/project")
        session.load(4000)
        print(f"code from {args.root}; {session.entry_count:,} entries; load average {os.getloadavg()[0]:.1f}")
        budget = 4000
        for name, (spec, sort) in VARIANTS.items():
            row_filter = RowFilter(
                text=spec.get("text", ""),
                fates=frozenset({Fate(spec["fates"])}) if "fates" in spec else frozenset(),
                sections=frozenset({spec["sections"]}) if "sections" in spec else frozenset(),
            )
            times = []
            for _ in range(args.steps):
                budget += 37  # a new plan each step, as a slider step makes
                session.set_budget(budget)
                view = session.view()
                started = time.perf_counter()
                rows = rows_of(view)
                indices = row_filter.apply(rows)
                if sort is not None:
                    indices = sorted_indices(rows, indices, sort, True, columns_for(view.packer_name))
                times.append(time.perf_counter() - started)
            print(
                f"  {name:36s} median {statistics.median(times) * 1000:8.1f} ms  max {max(times) * 1000:8.1f} ms "
                f"({len(indices):,} rows shown)"
            )
        print(f"(load average at the end {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
