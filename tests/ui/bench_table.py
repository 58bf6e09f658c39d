"""Timing of the table's recompute path at 10,000 rows: `python -m tests.ui.bench_table`.

Measures, per simulated slider step: formatting outcomes into rows, `set_rows`
(filter + sort + finding the selected key), and rendering every visible line
through the widget's style cache (what the compositor asks for on a repaint). `frame_cpu` is the CPU time of
the whole next frame under the headless test driver (layout, compositor,
every widget), measured as process time because `pilot.pause` also waits.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from ctxtui.tui.widgets.entries.rows import RowFilter, rows_from_outcomes
from ctxtui.tui.widgets.entries.table import EntriesTable
from textual.geometry import Region

from tests.ui.fakes import many_outcomes
from tests.ui.gallery import Gallery


async def measure(
    n: int = 10_000, steps: int = 20, sort: str | None = "score", row_filter: RowFilter | None = None, size=(160, 50)
) -> dict[str, float]:
    outcome_sets = [many_outcomes(n, budget_shift=step) for step in range(steps)]
    app = Gallery(outcomes=outcome_sets[0])
    timings: dict[str, list[float]] = {
        "rows_from_outcomes": [],
        "set_rows": [],
        "repaint": [],
        "frame_cpu": [],
        "total": [],
    }
    async with app.run_test(size=size) as pilot:
        table = app.query_one(EntriesTable)
        table.sort_by(sort)
        if row_filter is not None:
            table.set_filter(row_filter)
        table.focus()
        await pilot.pause()
        table.select_key(table.view_rows[len(table.view_rows) // 2].key)
        await pilot.pause()
        region = Region(0, 0, table.size.width, table.size.height)
        for step, outcomes in enumerate(outcome_sets[1:], start=1):
            t0 = time.perf_counter()
            rows = rows_from_outcomes(outcomes)
            t1 = time.perf_counter()
            table.set_rows(rows, version=("bench", step))
            t2 = time.perf_counter()
            table.render_lines(region)
            t3 = time.perf_counter()
            c3 = time.process_time()
            await pilot.pause()  # the real frame: layout, compositor, headless driver
            c4 = time.process_time()
            timings["rows_from_outcomes"].append(t1 - t0)
            timings["set_rows"].append(t2 - t1)
            timings["repaint"].append(t3 - t2)
            timings["frame_cpu"].append(c4 - c3)
            timings["total"].append(t3 - t1)
    return {name: statistics.median(values) * 1000 for name, values in timings.items()}


def main() -> None:
    for label, kwargs in [
        ("10k rows, packet order", {"sort": None}),
        ("10k rows, sorted by score", {"sort": "score"}),
        ("10k rows, sorted by title + text filter", {"sort": "title", "row_filter": RowFilter(text="token")}),
    ]:
        result = asyncio.run(measure(**kwargs))
        print(f"{label:42s} " + "  ".join(f"{k} {v:6.2f} ms" for k, v in result.items()))


if __name__ == "__main__":
    main()
