"""Escape sequences hidden in the inputs never reach the terminal, on any screen.

An OSC 52 in one TASKS.md line used to overwrite the user's clipboard from the
preview. Every payload kind (OSC 52/0/2/8, CSI, DCS, C1, BEL-terminated) is
planted in a task, a decision, a steering body, a memory, a file name and the
project folder's name; the app is walked through every screen, and what a
terminal would receive is checked.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ctxtui.engine.sources.memory.native import schema

from tests.app.helpers import decision, make_app, settle, small_workspace
from tests.hostile.terminal_capture import HOSTILE, PAYLOADS, TerminalCapture

# A folder name cannot hold "/": leave out the payloads with a URL or ST ("\\" is fine, "/" is not).
FOLDER_SAFE = "".join(p for p in PAYLOADS.values() if "/" not in p)


def hostile_project(tmp_path: Path) -> tuple[Path, Path]:
    project = small_workspace(
        tmp_path / f"proj{FOLDER_SAFE}",
        **{
            "TASKS.md": f"# Tasks\n\n- [ ] Innocent looking task {HOSTILE} end\n- [ ] Second task\n",
            "DECISIONS.md": "# Decisions\n" + decision("2026-11-20-120000", f"Title {HOSTILE}", body=f"Body {HOSTILE}"),
            "steering__evil.md": f"---\nname: evil {PAYLOADS['csi']}\ninclusion: always\n---\nSteer {HOSTILE}\n",
        },
    )
    # A file name the banner will report (a symbolic link ctx does not read).
    os.symlink("TASKS.md", project / ".context" / f"LINK{FOLDER_SAFE}.md")
    db = tmp_path / "memory.db"
    schema.init_db(db)
    schema.add_memory(
        db,
        kind="fact",
        title=f"Memory {HOSTILE}",
        body=f"Memory body {HOSTILE}",
        importance=0.9,
        tags=[],
        project=None,
        created_at="2026-11-20T10:00:00Z",
    )
    return project, db


def assert_clean(capture: TerminalCapture, where: str) -> None:
    problems = capture.problems()
    assert not problems, f"{where}: {problems}"


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(160, 45), (90, 30)])
async def test_no_payload_reaches_the_terminal_on_any_screen(tmp_path, size):
    project, db = hostile_project(tmp_path)
    app = make_app(project, real_tokens=False)
    app.session.db = db
    capture = TerminalCapture(app)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert len(capture.text) > 1000, "the capture saw no frames"
        assert any(HOSTILE in o.entry.text for o in app.main.view.plan.outcomes), "payloads did not load"
        assert_clean(capture, "main screen")

        # Select every entry in turn: the why panel (or, when narrow, its dialog) shows each.
        await pilot.press("tab")
        for _ in range(len(app.main.view.plan.outcomes)):
            await pilot.press("down")
            if size[0] < 110:
                await pilot.press("enter")
                await pilot.pause()
                await pilot.press("escape")
        await settle(pilot)
        assert_clean(capture, "table and why panel")

        for keys, where in (
            (["p"], "preview (Markdown)"),
            (["j"], "preview (JSON)"),
            (["escape"], "back"),
            (["exclamation_mark"], "quirks"),
            (["escape"], "back"),
            (["question_mark"], "help"),
            (["escape"], "back"),
        ):
            await pilot.press(*keys)
            await settle(pilot)
            assert_clean(capture, where)


@pytest.mark.asyncio
async def test_copy_keeps_the_exact_bytes(tmp_path):
    """The sanitiser is for the screen only: the clipboard gets the packet as `ctxtui pack` prints it."""
    project, _ = hostile_project(tmp_path)
    app = make_app(project, real_tokens=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert PAYLOADS["osc52"] in app.clipboard
