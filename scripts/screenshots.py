#!/usr/bin/env python3
"""Regenerate `screenshots/`: the app, headless, in each state the README shows.

Each shot runs `CtxtuiApp` under `App.run_test(size=...)` with a pinned "now"
(2026-11-21T23:56:08Z) and root path (`/project`), waits for every worker
(load, thresholds, real-token count) and writes `App.save_screenshot` SVGs;
where `rsvg-convert` exists (Debian: `apt-get install librsvg2-bin`) a PNG
beside each, after checking that an installed font draws every glyph on
screen (`fc-list :charset=…`). Without the shared corpus only the demo
workspace is shot.

Every workspace is a git working tree, as ctx needs: the demo is one
(`ctxtui demo` makes it so, and opens on its tour: pinned, stepped, an
entry explained), and each corpus is copied into a temporary folder and
`git init`ed there (the shared corpus is never written). The one exception is
the `refusal` shot, whose copy has no `.git`: ctx's refusal banner appears
there and nowhere else.

    .venv/bin/python scripts/screenshots.py            # everything
    .venv/bin/python scripts/screenshots.py demo why   # shots whose name contains "demo" or "why"
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ctxtui.engine.fate import Fate  # noqa: E402
from ctxtui.session import Session  # noqa: E402
from ctxtui.tui.app import CtxtuiApp  # noqa: E402
from ctxtui.tui.tour import DEMO_TOUR  # noqa: E402
from ctxtui.tui.widgets.entries.table import EntriesTable  # noqa: E402

NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)
ROOT_PATH = "/project"
CORPUS = Path(os.environ.get("CTXTUI_CORPUS", ROOT.parent / "shared" / "corpus"))
OUT = ROOT / "screenshots"
WIDE = (160, 45)

Setup = Callable[[CtxtuiApp, object], Awaitable[None]]


@dataclass(frozen=True)
class Shot:
    name: str
    project: str  # a corpus folder name, or "demo"
    budget: int
    theme: str = "ctxtui-dark"
    size: tuple[int, int] = WIDE
    setup: Setup | None = None
    note: str = ""
    git: bool = True  # the workspace is a git working tree (False: ctx refuses it, the banner shows)


async def select_summarized_learning(app: CtxtuiApp, pilot) -> None:
    assert app.main.view is not None
    key = next(
        o.entry.key for o in app.main.view.plan.outcomes if o.entry.section == "learnings" and o.fate is Fate.SUMMARIZED
    )
    table = app.query_one(EntriesTable)
    table.focus()
    if not table.select_key(key):
        raise RuntimeError(f"summarized learning {key} is not in the table")


async def open_preview(app: CtxtuiApp, pilot) -> None:
    await pilot.press("p")


async def _until_screen(app: CtxtuiApp, pilot, name: str) -> None:
    for _ in range(200):
        if type(app.screen).__name__ == name:
            break
        await pilot.pause(0.05)
    app.clear_notifications()


async def pin_then_step(app: CtxtuiApp, pilot) -> None:
    """Pin at the budget, three steps up, then only what differs from the pin (d)."""
    await pilot.press("P")
    await settled(app, pilot)
    await pilot.press("right_square_bracket", "right_square_bracket", "right_square_bracket")
    await settled(app, pilot)
    await pilot.press("d")
    await settled(app, pilot)
    app.clear_notifications()


async def open_knobs(app: CtxtuiApp, pilot) -> None:
    await pilot.press("k")
    await _until_screen(app, pilot, "KnobsScreen")


async def open_coverage(app: CtxtuiApp, pilot) -> None:
    await pilot.press("g")
    await _until_screen(app, pilot, "CoverageScreen")


async def open_pin_diff(app: CtxtuiApp, pilot) -> None:
    await pilot.press("P")
    await settled(app, pilot)
    await pilot.press("right_square_bracket", "right_square_bracket", "right_square_bracket")
    await settled(app, pilot)
    await pilot.press("p")
    await _until_screen(app, pilot, "PreviewScreen")
    await pilot.press("d")
    app.clear_notifications()


async def filter_and_sort(app: CtxtuiApp, pilot) -> None:
    """Only the summarized entries (f), sorted by reason (s cycles to it): the Filter: line says so."""
    while not any(fate is Fate.SUMMARIZED for fate in app.main.row_filter.fates):
        await pilot.press("f")
    app.main.action_sort("reason")
    await settled(app, pilot)
    app.clear_notifications()


async def open_help(app: CtxtuiApp, pilot) -> None:
    await pilot.press("question_mark")
    await _until_screen(app, pilot, "HelpScreen")


async def open_history(app: CtxtuiApp, pilot) -> None:
    """The history view (h), three commits back: the main screen shows that commit's packet."""
    await pilot.press("h")
    await _until_screen(app, pilot, "HistoryScreen")
    for _ in range(3):
        await pilot.press("down")
        await settled(app, pilot)
    app.clear_notifications()


SHOTS: tuple[Shot, ...] = (
    Shot("tuning-pinned", "ctx-large", 4100, setup=pin_then_step, note="pinned, stepped: ▲▼◆ marks, d filter"),
    Shot("tuning-knobs", "ctx-large", 4000, setup=open_knobs, note="the knobs dialog (k)"),
    Shot("tuning-coverage", "ctx-large", 4000, setup=open_coverage, note="coverage curves (g)"),
    Shot("tuning-diff", "ctx-large", 4100, setup=open_pin_diff, note="the preview's diff against the pin"),
    Shot("main-dark", "ctx-large", 4000, note="ctx-large at 4,000 tokens"),
    Shot(
        "why-summarized-learning",
        "ctx-large",
        4000,
        setup=select_summarized_learning,
        note="the why panel on a summarized learning",
    ),
    Shot("preview-markdown", "ctx-large", 4000, setup=open_preview, note="the Markdown preview"),
    Shot("dogfood-16000", "ctx-dogfood", 16000, note="ctx-dogfood at 16,000 tokens"),
    Shot("theme-light", "ctx-large", 4000, theme="ctxtui-light"),
    Shot("theme-high-contrast", "ctx-large", 4000, theme="ctxtui-high-contrast"),
    Shot(
        "demo", "demo", 8000, note="`ctxtui demo` as it opens: pinned at 10,000, stepped to 8,000, a memory explained"
    ),
    Shot("small-80x24", "ctx-large", 4000, size=(80, 24), note="an 80×24 terminal"),
    Shot("refusal", "ctx-dogfood", 4000, git=False, note="a workspace ctx refuses (no .git): the banner"),
    Shot("filter-sort", "ctx-large", 4000, setup=filter_and_sort, note="fate filter (f) and sort by reason (s)"),
    Shot("help", "ctx-large", 4000, setup=open_help, note="the help (?): every key, symbol, column and term"),
    Shot("history", "history", 3000, setup=open_history, note="the history view (h): a commit's packet, read-only"),
)


def git_init(folder: Path) -> None:
    """Make `folder` a git working tree (no user configuration read: the same on every machine)."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "--quiet", "--template=", str(folder)], check=True, env=env, timeout=60)


def project_for(shot: Shot, scratch: Path) -> tuple[Path, Path | None]:
    """(project folder, memory database or None) for a shot: a copy of the corpus, in a git working tree
    unless the shot is about ctx refusing one."""
    if shot.project == "history":  # a generated git history (tests/factories/history.py), the same on each run
        from tests.factories.history import make_history

        project = scratch / "history" / "project"
        if not project.exists():
            make_history(project, commits=30, seed=3)
        return project, None
    if shot.project != "demo":
        copy = scratch / shot.name / shot.project  # the status line shows the folder's name: the corpus's
        if not copy.exists():
            shutil.copytree(CORPUS / shot.project / ".context", copy / ".context", symlinks=True)
            if shot.git:
                git_init(copy)
        return copy, None
    from ctxtui.demo import demo_memory_db_path, write_demo

    notes: list[str] = []
    project = write_demo(scratch / "demo", NOW, notes=notes)  # as `ctxtui demo` does, at the pinned "now"
    if notes:
        raise RuntimeError(f"the demo is not as `ctxtui demo` shows it: {'; '.join(notes)}")
    db = demo_memory_db_path(project)
    return project, db if db.exists() else None


def missing_glyphs(svg: Path) -> list[str]:
    """The characters on screen no installed font draws (rsvg-convert would paint an empty box for them)."""
    import html
    import re

    text = html.unescape(" ".join(re.findall(r">([^<]*)</text>", svg.read_text(encoding="utf-8"))))
    missing = []
    for char in sorted({c for c in text if ord(c) > 0x7F and not c.isspace()}):
        found = subprocess.run(
            ["fc-list", f":charset={ord(char):x}", "family"], capture_output=True, text=True, timeout=30
        ).stdout
        if not found.strip():
            missing.append(f"{char} (U+{ord(char):04X})")
    return missing


async def settled(app: CtxtuiApp, pilot, rounds: int = 100) -> None:
    """Until no worker runs and two frames in a row are identical.

    A finished worker may start another, and the table's `Selected` reaches the
    why panel a message later than the rows, so "workers done" alone is not enough.
    """
    from textual.worker import WorkerCancelled

    previous = None
    for _ in range(rounds):
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:  # a newer job replaced it (a step during the first load's scans)
            previous = None
            continue
        await pilot.pause()
        if app.main.view is None or any(w.is_running for w in app.workers):
            previous = None
            continue
        frame = app.export_screenshot()
        if frame == previous:
            return
        previous = frame
    raise RuntimeError("the app did not settle")


def stale_why_layout(app: CtxtuiApp) -> str | None:
    """A known app bug: the why panel sometimes keeps the one-line height of its first
    text ("Select an entry…") after the full explanation arrives, until the next resize.
    Returns a description when the shot caught it."""
    from textual.widgets import Static

    try:
        body = app.screen.query_one("#why-body", Static)
    except Exception:  # another screen (the preview) is showing
        return None
    if not body.size.width:  # hidden: a narrow terminal shows the why panel as a dialog instead
        return None
    needed = body.visual.get_height(body.styles, body.size.width)
    if body.size.height < needed:
        return f"why panel laid out {body.size.height} line(s) high for {needed} lines of text"
    return None


async def take(shot: Shot, out: Path, scratch: Path, attempts: int = 3) -> Path:
    for attempt in range(1, attempts + 1):
        project, db = project_for(shot, scratch)
        session = Session(project=project, db=db, clock=lambda: NOW, root_path=ROOT_PATH)
        if shot.project == "demo":  # as `ctxtui demo` opens: its tour sets the budget
            app = CtxtuiApp(session, theme_name=shot.theme, watch=False, tour=DEMO_TOUR)
        else:
            app = CtxtuiApp(session, budget=shot.budget, theme_name=shot.theme, watch=False)
        async with app.run_test(size=shot.size) as pilot:
            await settled(app, pilot)
            if shot.setup is not None:
                await shot.setup(app, pilot)
                await settled(app, pilot)
            if app.theme != shot.theme:
                raise RuntimeError(f"theme {shot.theme} not applied (got {app.theme})")
            problem = stale_why_layout(app)
            if problem is None or attempt == attempts:
                app.save_screenshot(f"{shot.name}.svg", str(out))
                if problem:
                    print(f"warn  {shot.name}: {problem} (kept after {attempts} attempts)", file=sys.stderr)
                return out / f"{shot.name}.svg"
        print(f"warn  {shot.name}: {problem}; shooting again", file=sys.stderr)
    raise AssertionError("unreachable")


def to_png(svg: Path, converter: str) -> Path:
    """Rasterise for the README. Rich writes runs of spaces as NBSP in `textLength`-fitted
    `<text>` runs; rsvg-convert then drops a leading NBSP and the run starts a cell early
    (headers and " ⚠ over budget" shift left). Plain spaces with `xml:space="preserve"` draw true.
    """
    png = svg.with_suffix(".png")
    text = svg.read_text(encoding="utf-8").replace("&#160;", " ")
    text = text.replace("<svg ", '<svg xml:space="preserve" ', 1)
    with tempfile.NamedTemporaryFile("w", suffix=".svg", encoding="utf-8", delete=False) as plain:
        plain.write(text)
    try:
        subprocess.run([converter, "--format=png", "--output", str(png), plain.name], check=True, timeout=60)
    finally:
        os.unlink(plain.name)
    return png


@contextlib.contextmanager
def stable_scratch() -> Iterator[str]:
    """A work folder with the same name on every run (`$TMPDIR/ctxtui-shots`): the pictures show project
    paths, and a random folder name made every picture differ from the last for nothing. Made fresh,
    only by this user, and never through a link left there by someone else; removed afterwards."""
    path = Path(tempfile.gettempdir()) / "ctxtui-shots"
    if path.is_symlink() or (path.exists() and path.stat().st_uid != os.getuid()):
        raise SystemExit(f"{path} exists and is not this user's folder: remove it first")
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(mode=0o700)
    try:
        yield str(path)
    finally:
        shutil.rmtree(path, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("only", nargs="*", help="only shots whose name contains one of these")
    parser.add_argument("--out", type=Path, default=OUT, help=f"output folder (default: {OUT})")
    parser.add_argument("--no-png", action="store_true", help="SVG only")
    args = parser.parse_args(argv)

    have_corpus = (CORPUS / "ctx-large" / ".context").is_dir()
    if not have_corpus:
        print(f"corpus not found at {CORPUS} (set CTXTUI_CORPUS): only the demo is shot", file=sys.stderr)
    converter = None if args.no_png else shutil.which("rsvg-convert")
    if converter is None and not args.no_png:
        print("rsvg-convert not found (apt-get install librsvg2-bin): SVG only", file=sys.stderr)
    args.out.mkdir(parents=True, exist_ok=True)

    with stable_scratch() as scratch:
        # Built-in themes only: a user's theme file of the same name must not change the pictures.
        os.environ["XDG_CONFIG_HOME"] = str(Path(scratch) / "config")
        for shot in SHOTS:
            if args.only and not any(word in shot.name for word in args.only):
                continue
            if shot.project not in ("demo", "history") and not (CORPUS / shot.project / ".context").is_dir():
                print(f"skip  {shot.name}: {CORPUS / shot.project} not found")
                continue
            started = time.perf_counter()
            svg = asyncio.run(take(shot, args.out, Path(scratch)))
            made = [svg.name]
            if converter:
                if shutil.which("fc-list") and (missing := missing_glyphs(svg)):
                    print(f"warn  {shot.name}: no installed font draws {', '.join(missing)}", file=sys.stderr)
                made.append(to_png(svg, converter).name)
            print(
                f"wrote {' + '.join(made)} ({shot.size[0]}×{shot.size[1]}, {shot.theme}"
                f"{', ' + shot.note if shot.note else ''}) in {time.perf_counter() - started:.1f} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
