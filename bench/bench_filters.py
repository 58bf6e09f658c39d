"""The table's filter and sort work per slider step at 50,000 memories, for every packer, without Textual
(issue 21, part 4).

For each packer over 50,000 memories (ctx 0.8.1 and 0.8.0 on ctx-large joined to a native store, Shabka,
Cortex, and nous with a synthetic turn of 50,000 candidates), a walk of budgets, one new plan a step as
the slider makes. A step's time here is the engine's plan, the rows (`ViewRows`), the filter
(`RowFilter.apply`), the sort (`sorted_indices`) and the cells of the 40 rows a screen shows; each
variant is timed beside the plain step (no filter, packet order), alternating, so the two see the same
machine. Variants: every filter kind (a title's text, a reason's label, each fate, a section, a set of
keys, text with a fate) and a sort by every column of that packer's table. Prints medians; asserts
nothing. `--root DIR` runs another checkout's code (a before/after pair); `--packers` picks some. The
budgets go on rising from variant to variant (for ctx the first variants meet budgets where every step
brings another packet task count, so a new ranking, order and score vector, the later ones budgets where
it stays); `--each-from BUDGET` starts every variant's walk there instead, so each meets the same
budgets (`--each-from 4000`: the changing task counts, the worst case for what a sort keeps). The
whole step, with Textual's frame, is `bench_tui.py --filters-only` (ctx).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)
PACKERS = ("ctx-0.8.1", "ctx-0.8.0", "shabka", "cortex", "nous")
SHOWN = 40  # rows a screen draws


def build_db(root: Path, scratch: Path, kind: str, n: int) -> Path:
    """A generated store in a child process (the factories' memory is not this process's)."""
    db = scratch / f"{kind}.db"
    build = (
        f"import sys; from datetime import datetime; from tests.factories.memory_dbs import build_{kind}_db; "
        f"build_{kind}_db(sys.argv[1], {n}, 1, datetime.fromisoformat(sys.argv[2]))"
    )
    subprocess.run([sys.executable, "-c", build, str(db), NOW.isoformat()], cwd=root, check=True)
    return db


def nous_packer(n: int):
    """A nous turn with `n` candidates of every memory type (tests/packers/nous/helpers: no database)."""
    from tests.packers.nous.helpers import cand, packer, row

    kinds = ("decision", "fact", "procedure", "episode")
    fields = {"decision": "description", "fact": "content", "procedure": "description", "episode": "summary"}
    rows, cands = [], []
    for i in range(n):
        kind = kinds[i % 4]
        words = f"item {i} " + " ".join(f"w{(i * 7 + k) % 997}" for k in range(8 + i % 30))
        extra = {"name": f"proc{i}", "domain": "ops"} if kind == "procedure" else {}
        r = row(kind, i, **{fields[kind]: words}, **extra)
        rows.append(r)
        disposition = "rendered" if i % 5 else "sliced_off"
        cands.append(cand(r, disposition, final_rank=i + 1 if disposition == "rendered" else None, entry_rank=i % 50))
    return packer(cands, rows)


def open_packer(name: str, root: Path, scratch: Path, n: int, dbs: dict[str, Path]):
    from bench.corpus import find_corpus
    from ctxtui.opening.packer import open_named
    from ctxtui.opening.request import PackRequest

    if name == "nous":
        return nous_packer(n)
    kind = {"shabka": "shabka", "cortex": "cortex"}.get(name, "native")
    if kind not in dbs:
        dbs[kind] = build_db(root, scratch, kind, n)
    db, now = str(dbs[kind]), NOW.isoformat()
    if name.startswith("ctx"):
        request = PackRequest(packer=name, project=str(find_corpus() / "ctx-large"), db=db, now=now, root_path="/p")
    else:
        request = PackRequest(packer=name, db=db, now=now, query="cache release")
    return open_named(name, request).packer


def variants(packer, budget: int) -> dict[str, tuple[object, str | None]]:
    """Every filter kind and a sort by every column of the packer's table."""
    from ctxtui.engine.explain.reasons import REASON_SHORT
    from ctxtui.engine.fate import Fate
    from ctxtui.tui.widgets.entries.columns import columns_for
    from ctxtui.tui.widgets.entries.rows import RowFilter

    plan = packer.plan(budget)
    order = list(plan.order)
    entries = packer.candidates()
    first, last = plan.outcome_at(order[0]), plan.outcome_at(order[-1])
    word = next((w for w in first.entry.title.split() if len(w) > 3), "task").casefold()
    sections = sorted({entries[i].section for i in order[:: max(1, len(order) // 50)]})
    keys = frozenset(entries[i].key for i in order[:: max(1, len(order) // 200)])
    found: dict[str, tuple[object, str | None]] = {"plain": (RowFilter(), None)}
    found[f"text {word!r} (a title)"] = (RowFilter(text=word), None)
    for outcome in (first, last):
        label = REASON_SHORT.get(outcome.reason, "")
        if label:
            found[f"text {label!r} (a reason)"] = (RowFilter(text=label), None)
    for fate in Fate:
        found[f"fate {fate.value}"] = (RowFilter(fates=frozenset({fate})), None)
    found[f"section {sections[-1]}"] = (RowFilter(sections=frozenset(sections[-1:])), None)
    found[f"keys ({len(keys)}, as moved/pin)"] = (RowFilter(keys=keys, keys_label="moved"), None)
    found[f"text {word!r} + fate dropped"] = (RowFilter(text=word, fates=frozenset({Fate.DROPPED})), None)
    for column in columns_for(packer.name).columns:
        found[f"sort {column.id}"] = (RowFilter(), column.id)
    found[f"text {word!r} + sort reason"] = (RowFilter(text=word), "reason")
    return found


def step(packer, budget: int, row_filter, sort: str | None) -> tuple[float, int, float]:
    """One slider step's table work, timed: the plan, the rows, the filter, the sort, the cells shown.
    (wall seconds, rows shown, this thread's CPU seconds: on a loaded machine the CPU time is the nearer
    to what a quiet one's wall time would be, as waiting for a core is left out)."""
    from ctxtui.tui.widgets.entries.columns import columns_for
    from ctxtui.tui.widgets.entries.rows import ViewRows, sorted_indices

    columns = columns_for(packer.name)
    started, cpu = time.perf_counter(), time.thread_time()
    plan = packer.plan(budget)
    rows = ViewRows(plan, columns)
    indices = row_filter.apply(rows)
    if sort is not None:
        indices = sorted_indices(rows, indices, sort, True, columns)
    for k in indices[:SHOWN]:
        rows[k].cells()
    return time.perf_counter() - started, len(indices), time.thread_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--packers", default=",".join(PACKERS))
    parser.add_argument("--memories", type=int, default=50_000)
    parser.add_argument("--steps", type=int, default=11)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--each-from", type=int, help="start every variant's walk at this budget")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root))
    figures: dict[str, object] = {"load_average_start": os.getloadavg()[0]}
    walk = "rising on" if args.each_from is None else f"each from {args.each_from:,}"
    print(f"code from {args.root}; {args.memories:,} memories; budgets {walk}; load average {os.getloadavg()[0]:.1f}")
    print(
        "medians of each step's table work (plan, rows, filter, sort, 40 rows' cells), wall and this thread's CPU time; "
        "plain = no filter, packet order, timed alternately with each variant"
    )
    with tempfile.TemporaryDirectory(prefix="ctxtui-bench-") as scratch:
        dbs: dict[str, Path] = {}
        for name in args.packers.split(","):
            packer = open_packer(name, args.root, Path(scratch), args.memories, dbs)
            count = len(packer.candidates())
            budget = 4000
            print(f"\n{name}: {count:,} candidates")
            per: dict[str, object] = {}
            for label, (row_filter, sort) in variants(packer, budget).items():
                if args.each_from is not None:
                    budget = args.each_from
                times, plain, cpu, plain_cpu = [], [], [], []
                shown = 0
                for _ in range(args.steps):
                    budget += 37  # a new plan each step, as a slider step makes
                    took, _, used = step(packer, budget, variants_plain(), None)
                    plain.append(took)
                    plain_cpu.append(used)
                    budget += 37
                    took, shown, used = step(packer, budget, row_filter, sort)
                    times.append(took)
                    cpu.append(used)
                median, base = statistics.median(times) * 1000, statistics.median(plain) * 1000
                median_cpu, base_cpu = statistics.median(cpu) * 1000, statistics.median(plain_cpu) * 1000
                per[label] = {
                    "median_ms": round(median, 2),
                    "plain_ms": round(base, 2),
                    "cpu_ms": round(median_cpu, 2),
                    "plain_cpu_ms": round(base_cpu, 2),
                    "rows": shown,
                }
                print(
                    f"  {label:42s} wall {median:7.1f} ms (plain {base:6.1f})  cpu {median_cpu:7.1f} ms "
                    f"(plain {base_cpu:6.1f})  ({shown:,} rows)"
                )
            figures[name] = per
    figures["load_average_end"] = os.getloadavg()[0]
    print(f"\n(load average at the end {os.getloadavg()[0]:.1f})")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


def variants_plain():
    from ctxtui.tui.widgets.entries.rows import RowFilter

    return RowFilter()


if __name__ == "__main__":
    sys.exit(main())
