"""Invalid UTF-8 in the user's files: copied, saved, shown and explained without a crash."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from textual.widgets import Input

from tests.app.helpers import make_app, settle, why_text
from tests.conftest import ROOT, write_context

BAD = b"# Decisions\n\n## [2026-02-28-120000] Caf\xe9 \xff\xfe choice\n\nbody \xff with an ESC \x1b[31m here\n"


@pytest.fixture
def project(tmp_path):
    return write_context(tmp_path / "ws", {"DECISIONS.md": BAD, "TASKS.md": "- [ ] a task that is long enough\n"})


@pytest.mark.asyncio
async def test_copy_and_save_keep_the_app_alive(project, tmp_path):
    app = make_app(project)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert app.is_running
        assert "Caf\ufffd \ufffd\ufffd choice" in app.clipboard
        markdown = app.main.view.plan.render("md")
        written = tmp_path / "packet.md"
        await pilot.press("w")
        await pilot.pause()
        app.screen.query_one(Input).value = str(written)
        await pilot.press("enter")
        await settle(pilot)
        # Saved bytes are what `ctxtui pack` prints: invalid bytes pass through unchanged.
        assert written.read_bytes() == markdown.encode("utf-8", "surrogateescape")
        assert b"Caf\xe9 \xff\xfe choice" in written.read_bytes()
        key = next(o.entry.key for o in app.main.view.plan.outcomes if o.entry.section == "decisions")
        from tests.app.helpers import table

        table(app).select_key(key)
        await settle(pilot)
        text = why_text(app)
        assert "\ufffd" in text and "\x1b" not in text and "\udcff" not in text


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_explain_under_a_strict_utf8_stdout(project, fmt):
    env = {"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "explain", str(project), "choice", "--format", fmt],
        cwd=ROOT,
        capture_output=True,
        env=env,
    )
    assert result.returncode == 0, result.stderr.decode()
    assert b"Traceback" not in result.stderr and b"\x1b" not in result.stdout + result.stderr
    if fmt == "json":
        assert json.loads(result.stdout)["fate"] == "included"
