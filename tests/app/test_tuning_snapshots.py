"""SVG snapshots of the tuning loop's views: knobs, coverage, the .ctxrc confirm, the diff tab, a pinned table.

Update with `pytest tests/app/test_tuning_snapshots.py --snapshot-update` (only for an intended change of picture).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.widgets import Input, TextArea

from tests.app.helpers import SIZE, make_app, settle, small_workspace, snapshot_ready
from tests.conftest import corpus_path, needs_corpus

# The confirm dialog names the file it will write: a fixed place keeps the picture stable.
CONFIRM_PROJECT = Path("/tmp/ctxtui-snapshot-confirm/project")


async def _wait_for_screen(pilot, name: str) -> None:
    for _ in range(100):
        if type(pilot.app.screen).__name__ == name:
            break
        await pilot.pause(0.05)
    await settle(pilot)
    pilot.app.clear_notifications()  # a toast that times out mid-snapshot would make it flaky
    for area in pilot.app.screen.query(TextArea):
        area.cursor_blink = False
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


@needs_corpus
def test_knobs_screen(snap_compare):
    async def run_before(pilot) -> None:
        await snapshot_ready(pilot)
        await pilot.press("k")
        await _wait_for_screen(pilot, "KnobsScreen")

    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


@needs_corpus
def test_coverage_screen(snap_compare):
    async def run_before(pilot) -> None:
        await snapshot_ready(pilot)
        await pilot.press("g")
        await _wait_for_screen(pilot, "CoverageScreen")

    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_confirm_ctxrc_screen(snap_compare):
    shutil.rmtree(CONFIRM_PROJECT.parent, ignore_errors=True)
    root = small_workspace(CONFIRM_PROJECT)
    (root / ".ctxrc").write_text("# my settings\ntoken_budget: 8000  # the agent's window\nunknown_key: keep me\n")

    async def run_before(pilot) -> None:
        await snapshot_ready(pilot)
        pilot.app.main.apply_knob("task_budget_pct", 0.25)
        await settle(pilot)
        pilot.app.main.action_save_ctxrc()
        await _wait_for_screen(pilot, "ConfirmWriteScreen")

    try:
        assert snap_compare(make_app(root, budget=3000, real_tokens=False), terminal_size=SIZE, run_before=run_before)
    finally:
        shutil.rmtree(CONFIRM_PROJECT.parent, ignore_errors=True)


@needs_corpus
def test_pinned_table_with_marks(snap_compare):
    async def run_before(pilot) -> None:
        await snapshot_ready(pilot)
        await pilot.press("P")
        await settle(pilot)
        await pilot.press("right_square_bracket", "right_square_bracket", "right_square_bracket")
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    app = make_app(corpus_path("ctx-large"), budget=4100, real_tokens=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


@needs_corpus
def test_preview_diff_against_the_pin(snap_compare):
    async def run_before(pilot) -> None:
        await snapshot_ready(pilot)
        await pilot.press("P")
        await settle(pilot)
        await pilot.press("right_square_bracket", "right_square_bracket", "right_square_bracket")
        await settle(pilot)
        await pilot.press("p")
        await _wait_for_screen(pilot, "PreviewScreen")
        await pilot.press("d")
        await _wait_for_screen(pilot, "PreviewScreen")

    app = make_app(corpus_path("ctx-large"), budget=4100, real_tokens=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
