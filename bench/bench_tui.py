"""TUI benchmarks: slider step to updated screen, and start-up to the first full screen.

Prints figures; it asserts nothing. Run with `.venv/bin/python bench/bench_tui.py`
(`--quick` for fewer samples, `--skip-tmux`, `--skip-50k`, `--json FILE`). Every
size runs in this one process. Targets (issue 11): a slider step ≤ 16 ms on
ctx-large, ≤ 33 ms at 10,000 entries, ≤ 50 ms with 50,000 memories (p95 ≤ 2×
the median); start-up ≤ 1 s at 10,000 entries, ≤ 1.5 s with 50,000 memories;
peak memory with 50,000 memories ≤ 400 MB (this process's max resident size).
Textual's floor (the same screen repainted with nothing changed) is measured
on ctx-large and 10k, so a step can be read against what Textual itself costs.

How a step is timed, headless (`App.run_test`), on the real app:
- `MainScreen.show_view` is wrapped: its end is when every widget has been given
  the new budget's packet (status, tier bars, table rows, why panel: they follow
  the screen's `view` through data binding, inside that call);
- `App._display` is wrapped: it is called right after the compositor has
  rendered a frame's update, and here the update is also encoded to terminal
  escape codes (what a real driver writes), so "frame" is the first frame
  finished after `show_view`;
- a step starts when the key event is handed to the driver, exactly as a
  terminal's key would be, and its time is `key → show` and `key → frame`.
Between steps all workers (real-token count, thresholds) are let finish, so
each step is measured alone; the real-token count a step starts still runs
during that step's own paint, as in the app.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.corpus import find_corpus  # noqa: E402
from ctxtui.session import Session  # noqa: E402
from ctxtui.tui.app import CtxtuiApp  # noqa: E402
from ctxtui.tui.main_screen import LARGE_WORKSPACE  # noqa: E402
from textual import events  # noqa: E402
from textual._compositor import CompositorUpdate  # noqa: E402

CORPUS = find_corpus()
NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)
NOW_ARG = "2026-11-21T23:56:08Z"
SIZE = (160, 45)
CHARACTERS = {"right_square_bracket": "]"}


class Probe:
    """Timestamps of `show_view` ends and of finished frames, for one app."""

    def __init__(self, app: CtxtuiApp) -> None:
        self.shows: list[tuple[float, int]] = []  # (time, budget shown)
        self.frames: list[float] = []
        self.changed: asyncio.Event | None = None  # set on both; waiting costs the app nothing
        show_view, display = app.main.show_view, app._display

        def timed_show_view(view) -> None:
            show_view(view)
            self.shows.append((time.perf_counter(), view.budget))
            self._notify()

        def timed_display(screen, renderable) -> None:
            if isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)  # the escape codes a terminal driver would write
            display(screen, renderable)
            self.frames.append(time.perf_counter())
            self._notify()

        app.main.show_view = timed_show_view
        app._display = timed_display

    def _notify(self) -> None:
        if self.changed is not None:
            self.changed.set()

    async def until(self, condition, timeout: float = 60.0, what: str = "") -> None:
        """Wait, without polling (a polling loop would take the GIL from the app's workers)."""
        if self.changed is None:
            self.changed = asyncio.Event()
        deadline = time.perf_counter() + timeout
        while not condition():
            self.changed.clear()
            if condition():
                return
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"timed out waiting for {what}")
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except TimeoutError:
                pass

    def show_of(self, budget: int, after: float) -> float | None:
        return next((t for t, b in self.shows if b == budget and t >= after), None)

    def frame_after(self, moment: float) -> float | None:
        return next((t for t in self.frames if t >= moment), None)


def make_app(project: Path, db: Path | None = None, budget: int = 4000, real_tokens: bool = True) -> CtxtuiApp:
    session = Session(project=project, db=db, clock=lambda: NOW, root_path="/project")
    return CtxtuiApp(session, budget=budget, theme_name="ctxtui-dark", watch=False, real_tokens=real_tokens)


@dataclass
class StepTimes:
    show: list[float] = field(default_factory=list)
    frame: list[float] = field(default_factory=list)


@dataclass
class Run:
    startup_show: float
    startup_frame: float
    entries: int
    steps: dict[str, StepTimes]
    floor: dict[str, float] = field(default_factory=dict)


async def run_app(
    project: Path, db: Path | None, keys: dict[str, int], steps: int, real_tokens: bool = True, floor: bool = False
) -> Run:
    """Start the app, time its first screen, then time `steps` presses of each key (and Textual's floor).

    `keys`: key → budget step (0: one slider cell, where the slider's → goes).
    """
    started = time.perf_counter()
    app = make_app(project, db, real_tokens=real_tokens)
    probe = Probe(app)
    async with app.run_test(size=SIZE) as pilot:
        await probe.until(lambda: probe.shows, what="the first screen")
        first_show = probe.shows[0][0]
        await probe.until(lambda: probe.frame_after(first_show) is not None, what="the first frame")
        startup = (first_show - started, probe.frame_after(first_show) - started)
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.query_one("#slider").focus()
        await pilot.pause()
        results: dict[str, StepTimes] = {}
        for key, delta in keys.items():
            times = results.setdefault(key, StepTimes())
            for _ in range(steps):
                slider = app.query_one("#slider")
                target = app.session.budget + delta if delta else slider.step_target(1)
                t0 = time.perf_counter()
                app._driver.send_message(events.Key(key, CHARACTERS.get(key)))
                await probe.until(lambda t=target, s=t0: probe.show_of(t, s) is not None, what=f"budget {target}")
                shown = probe.show_of(target, t0)
                await probe.until(lambda s=shown: probe.frame_after(s) is not None, what="the frame")
                times.show.append(shown - t0)
                times.frame.append(probe.frame_after(shown) - t0)
                await app.workers.wait_for_complete()
                await pilot.pause()
        floors = await textual_floor(app, pilot, probe, max(steps, 10)) if floor else {}
        return Run(*startup, app.session.entry_count, results, floors)


async def textual_floor(app: CtxtuiApp, pilot, probe: Probe, samples: int) -> dict[str, float]:
    """Textual's own cost for this screen: nothing changed, the whole screen repainted (and re-laid-out).

    `screen.refresh()` marks every widget dirty, so the compositor renders and
    the driver encodes the full 160×45 screen: no step can paint for less.
    """
    figures = {}
    for name, layout in (("floor_repaint_ms", False), ("floor_relayout_ms", True)):
        times = []
        for _ in range(samples):
            t0 = time.perf_counter()
            app.screen.refresh(layout=layout)
            for widget in app.screen.walk_children():
                widget.refresh(layout=layout)
            await probe.until(lambda s=t0: probe.frame_after(s) is not None, what="the repaint")
            times.append(probe.frame_after(t0) - t0)
            await pilot.pause()
        figures[name] = round(statistics.median(times) * 1000, 2)
    return figures


VARIANTS = {  # issue 21, part 4: every filter and sort within the step target, beside the plain step
    "no filter, packet order": {},
    "text filter 'release'": {"text": "release"},
    "text filter 'cap' (a reason's label too)": {"text": "cap"},
    "fate filter (summarized)": {"fates": "summarized"},
    "section filter (memories)": {"sections": "memories"},
    "sort by score": {"sort": "score"},
    "sort by relevance": {"sort": "relevance"},
    "sort by tokens": {"sort": "tokens"},
    "sort by title": {"sort": "title"},
    "sort by reason": {"sort": "reason"},
    "text filter + sort by score": {"text": "task", "sort": "score"},
    "text filter 'full' (a reason) + sort by reason": {"text": "full", "sort": "reason"},
    "keys filter (200 entries, as the pin's)": {"keys": 200},
    "sort by fate": {"sort": "fate"},
    "sort by section": {"sort": "section"},
    "sort by age": {"sort": "age"},
    "sort by recency": {"sort": "recency"},
    "sort by importance": {"sort": "importance"},
    "sort by usage": {"sort": "usage"},
    "no filter, packet order (again, last)": {},  # the machine's drift over the run, beside the first
}


async def run_variants(
    project: Path, db: Path | None, steps: int, only: set[str] | None = None
) -> dict[str, StepTimes]:
    """One app: for each variant (filter, sort), set it, then time `steps` slider steps (→, one cell).

    The why panel's advice is switched off here. A filter or sort selects another entry, often a memory
    not in full, and its advice tries every task and convention share 1% apart, each on a whole new
    packer (50,000 memories scored again): minutes of a worker per step (`explain/advice.py` `_settings`),
    which the wait for every worker between steps then waited out ("waited for ever for a frame" in an
    earlier round was this, not the probe), and which would share the CPU with the steps timed. That cost
    is not the table's (docs/performance.md gives it).
    """
    from dataclasses import replace

    from ctxtui.engine.fate import Fate
    from ctxtui.tui.widgets.entries.table import EntriesTable
    from ctxtui.tui.widgets.why.panel import WhyPanel

    app = make_app(project, db)
    probe = Probe(app)
    results: dict[str, StepTimes] = {}
    async with app.run_test(size=SIZE) as pilot:
        await probe.until(lambda: probe.shows, what="the first screen")
        app.main.query_one(WhyPanel)._ask_advice = lambda *args: None  # type: ignore[method-assign]
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.query_one(EntriesTable)
        for name, variant in VARIANTS.items():
            if only and name not in only:
                continue
            spec = replace(
                app.main.row_filter,
                text=variant.get("text", ""),
                fates=frozenset({Fate(variant["fates"])}) if "fates" in variant else frozenset(),
                sections=frozenset({variant["sections"]}) if "sections" in variant else frozenset(),
                keys=frozenset(e.key for e in app.session.loaded.packer.candidates()[::250])
                if "keys" in variant
                else None,
            )
            app.main.row_filter = spec
            table.sort_by(variant.get("sort"), None if variant.get("sort") else False)
            await app.workers.wait_for_complete()
            await pilot.pause()
            app.query_one("#slider").focus()
            await pilot.pause()
            times = results[name] = StepTimes()
            for index in range(steps):
                key = "right" if index % 2 == 0 else "left"
                slider = app.query_one("#slider")
                target = slider.step_target(1 if key == "right" else -1)
                t0 = time.perf_counter()
                app._driver.send_message(events.Key(key, None))
                await probe.until(lambda t=target, s=t0: probe.show_of(t, s) is not None, what=f"budget {target}")
                shown = probe.show_of(target, t0)
                await probe.until(lambda s=shown: probe.frame_after(s) is not None, what="the frame")
                times.show.append(shown - t0)
                times.frame.append(probe.frame_after(shown) - t0)
                await app.workers.wait_for_complete()
                await pilot.pause()
    return results


def report_variants(results: dict[str, StepTimes], target_ms: float) -> dict[str, dict[str, float]]:
    figures = {}
    for name, times in results.items():
        median, high = statistics.median(times.frame), p95(times.frame)
        print(
            f"  slider step (→/←, one cell) with {name:42s} key→frame median {ms(median)}  p95 {ms(high)}  "
            f"(n={len(times.frame)}, target ≤ {target_ms:.0f} ms)"
        )
        figures[name] = {"step_ms": round(median * 1000, 2), "step_p95_ms": round(high * 1000, 2)}
    return figures


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def report_steps(label: str, run: Run, target_ms: float, note: str = "") -> None:
    for key, times in run.steps.items():
        name = {"right": "→ (cell)", "shift+right": "⇧→ (+1)", "right_square_bracket": "] (+100)"}.get(key, key)
        print(
            f"  {note}slider step {name:9s} key→show  median {ms(statistics.median(times.show))}  "
            f"p95 {ms(p95(times.show))}   key→frame  median {ms(statistics.median(times.frame))}  "
            f"p95 {ms(p95(times.frame))}  max {ms(max(times.frame))}  (n={len(times.frame)}, "
            f"target ≤ {target_ms:.0f} ms)"
        )


def bench_workspace(
    label: str,
    project: Path,
    db: Path | None,
    steps: int,
    target_ms: float,
    startups: int = 1,
    diagnose: bool = False,
    startup_target_s: float = 1.0,
) -> dict[str, float]:
    """Print a size's figures; return them for the JSON (step: key → frame over every key's steps)."""
    keys = {"shift+right": 1, "right": 0, "right_square_bracket": 100}
    first = asyncio.run(run_app(project, db, keys, steps, floor=diagnose))
    path = "worker" if first.entries > LARGE_WORKSPACE else "UI thread"
    print(f"{label}: {first.entries:,} entries (recompute on the {path})")
    report_steps(label, first, target_ms)
    if diagnose:  # how much of a frame's wait is the o200k_base count a step starts (a thread, sharing the GIL)
        report_steps(
            label,
            asyncio.run(run_app(project, db, keys, steps, real_tokens=False)),
            target_ms,
            note="[diagnostic, real-token count off] ",
        )
    starts = [first] + [asyncio.run(run_app(project, db, {}, 0)) for _ in range(startups - 1)]
    later = starts[1:]
    line = (
        f"  start-up headless (app constructed → first show_view / first frame): first run "
        f"{ms(first.startup_show)} / {ms(first.startup_frame)}"
    )
    if later:
        line += (
            f"; later runs median {ms(statistics.median(r.startup_show for r in later))} / "
            f"{ms(statistics.median(r.startup_frame for r in later))} (n={len(later)})"
        )
    print(line + f"  (target ≤ {startup_target_s:g} s)")
    frames = [t for times in first.steps.values() for t in times.frame]
    figures = {
        "entries": first.entries,
        "step_ms": round(statistics.median(frames) * 1000, 2),
        "step_p95_ms": round(p95(frames) * 1000, 2),
        "startup_ms": round(statistics.median(r.startup_frame for r in starts) * 1000, 1),
        "show_ms": round(statistics.median(t for times in first.steps.values() for t in times.show) * 1000, 2),
    }
    if first.floor:
        figures.update(first.floor)
        print(
            f"  Textual's floor on this screen: repaint unchanged (refresh) median {first.floor['floor_repaint_ms']:.1f} ms, "
            f"with a layout (refresh(layout=True)) {first.floor['floor_relayout_ms']:.1f} ms"
        )
    return figures


def bench_tmux_startup(project: Path, runs: int, extra: list[str] | None = None) -> None:
    """A real process in a real terminal: spawn → status line on screen (capture-pane polling)."""
    from tests.e2e.terminal import CTXTUI, TMUX, Terminal

    if TMUX is None:
        print("  start-up in tmux: skipped (tmux not installed)")
        return
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="ctxtui-bench-") as work, Terminal(Path(work), *SIZE) as term:
            start = time.perf_counter()
            term.start([str(CTXTUI), str(project), "--budget", "4000", "--now", NOW_ARG, *(extra or [])])
            term.wait_for(
                lambda s: "budget 4,000" in s and "●" in s, "the status line", timeout=60, settle=False, interval=0.005
            )
            times.append(time.perf_counter() - start)
            term.send("q")
            try:
                term.wait_until_ended(timeout=10)
            except AssertionError:
                pass
    print(
        f"  start-up in tmux (spawn → status line visible, capture-pane every ~5 ms): median "
        f"{ms(statistics.median(times))}, min {ms(min(times))}, max {ms(max(times))} (n={runs}, target ≤ 1 s)"
    )


def peak_in_child(project: Path, db: Path, steps: int) -> float:
    """The app's own peak resident size (MB), in a fresh process that runs it through `steps` steps."""
    out = subprocess.run(
        [sys.executable, str(Path(__file__)), "--peak-child", str(project), str(db), str(steps)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


async def _peak_child(project: Path, db: Path, steps: int) -> None:
    app = make_app(project, db)
    probe = Probe(app)
    async with app.run_test(size=SIZE) as pilot:
        await probe.until(lambda: probe.shows, what="the first screen")
        await app.workers.wait_for_complete()
        app.query_one("#slider").focus()
        for index in range(steps):
            await pilot.press(("right", "shift+right", "right_square_bracket")[index % 3])
            await app.workers.wait_for_complete()
            await pilot.pause()
    # VmHWM, not ru_maxrss: Linux carries a parent's ru_maxrss over fork and exec into the child.
    status = Path("/proc/self/status").read_text() if Path("/proc/self/status").exists() else ""
    peak_kb = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), None)
    print(round((peak_kb or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024, 1))


def filters_only(args: argparse.Namespace) -> int:
    """Issue 21, part 4's figures alone: each filter and sort beside the plain step, at 50,000 memories."""
    large = CORPUS / "ctx-large"
    steps = 8 if args.quick else 20
    with tempfile.TemporaryDirectory(prefix="ctxtui-bench-") as scratch:
        db = Path(scratch) / "memories-50k.db"
        build = (
            "import sys; from datetime import datetime; from tests.factories.memory_dbs import build_native_db; "
            "build_native_db(sys.argv[1], 50000, 1, datetime.fromisoformat(sys.argv[2]))"
        )
        subprocess.run([sys.executable, "-c", build, str(db), NOW.isoformat()], cwd=ROOT, check=True)
        print(f"ctx-large + 50,000 memories, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        figures = report_variants(asyncio.run(run_variants(large, db, steps)), 50)
        print(f"(load average at the end {os.getloadavg()[0]:.1f})")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--peak-child":
        asyncio.run(_peak_child(Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4])))
        return 0
    parser = argparse.ArgumentParser(description="TUI latency benchmarks (prints figures, asserts nothing).")
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--skip-tmux", action="store_true")
    parser.add_argument("--skip-50k", action="store_true")
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write the figures as JSON")
    parser.add_argument("--filters-only", action="store_true", help="only the filter and sort steps at 50,000 memories")
    args = parser.parse_args()
    if args.filters_only:
        return filters_only(args)
    out: dict[str, object] = {"load_average_start": os.getloadavg(), "size": list(SIZE)}
    steps = 15 if args.quick else 40
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, terminal {SIZE[0]}×{SIZE[1]}")

    large = CORPUS / "ctx-large"
    if (large / ".context").is_dir():
        out["ctx_large"] = bench_workspace(
            "ctx-large (real corpus)", large, None, steps, 16, startups=1 if args.quick else 6, diagnose=True
        )
        if not args.skip_tmux:
            bench_tmux_startup(large, 3 if args.quick else 8)
    else:
        print(f"ctx-large: skipped (no corpus at {CORPUS}; set CTXTUI_CORPUS)")

    from tests.factories.workspace import write_workspace

    with tempfile.TemporaryDirectory(prefix="ctxtui-bench-") as scratch:
        synth = write_workspace(
            Path(scratch) / "synth10k",
            tasks=2000,
            decisions=5000,
            learnings=5000,
            conventions=80,
            steering=3,
            seed=1,
            now=NOW,
        )
        out["entries_10k"] = bench_workspace(
            "synthetic 10k (2,000 tasks, 5,000 decisions, 5,000 learnings)",
            synth,
            None,
            max(10, steps // 2),
            33,
            startups=1 if args.quick else 4,
            diagnose=True,
        )

        if not args.skip_50k:
            db = Path(scratch) / "memories-50k.db"
            started = time.perf_counter()
            # In a child process: building 50,000 memories in Python must not count in this process's peak.
            build = (
                "import sys; from datetime import datetime; from tests.factories.memory_dbs import build_native_db; "
                "build_native_db(sys.argv[1], 50000, 1, datetime.fromisoformat(sys.argv[2]))"
            )
            subprocess.run([sys.executable, "-c", build, str(db), NOW.isoformat()], cwd=ROOT, check=True)
            base = large if (large / ".context").is_dir() else synth
            print(f"(50,000-memory database built in {time.perf_counter() - started:.1f} s, joined to {base.name})")
            figures = bench_workspace(
                f"{base.name} + 50,000 memories",
                base,
                db,
                max(8, steps // 4),
                50,
                startups=1 if args.quick else 3,
                startup_target_s=1.5,
            )
            figures["bench_process_peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
            figures["peak_mb"] = peak_in_child(base, db, max(8, steps // 4) * 3)
            print(
                f"  peak memory: the app alone in a fresh process (start, first screen, thresholds and the real-token "
                f"count, {max(8, steps // 4) * 3} slider steps): max resident size {figures['peak_mb']:.0f} MB "
                f"(target ≤ 400 MB); this bench process, every size so far: "
                f"{figures['bench_process_peak_mb']:.0f} MB"
            )
            variants = run_variants(base, db, max(6, steps // 4))
            figures["filters_and_sorts"] = report_variants(asyncio.run(variants), 50)
            out["memories_50k"] = figures
            if not args.skip_tmux:
                bench_tmux_startup(base, 2 if args.quick else 3, ["--db", str(db)])
    out["load_average_end"] = os.getloadavg()
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
        print(f"(figures written to {args.json})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
