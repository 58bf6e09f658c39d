"""`ctxtui pack` to a terminal never executes the control sequences a packet carries; pipes get exact bytes."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

from tests.conftest import NOW, ROOT, write_context
from tests.hostile.terminal_capture import PAYLOADS


def test_pack_to_a_terminal_warns_and_shows_controls_visibly(tmp_path):
    project = write_context(tmp_path / "proj", {"TASKS.md": f"# Tasks\n\n- [ ] task {PAYLOADS['osc52']} end\n"})
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "ctxtui.cli", "pack", str(project), "--now", NOW.isoformat()],
            stdout=follower,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the other side closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        stderr = process.stderr.read().decode()
        assert process.wait(timeout=60) == 0
    finally:
        os.close(leader)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert "\x1b]52" not in shown and "\x07" not in shown
    assert "␛]52;c;" in shown
    assert "terminal control character" in stderr


def test_pack_to_a_pipe_keeps_the_exact_bytes(tmp_path):
    project = write_context(tmp_path / "proj", {"TASKS.md": f"# Tasks\n\n- [ ] task {PAYLOADS['osc52']} end\n"})
    result = subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "pack", str(project), "--now", NOW.isoformat()],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert PAYLOADS["osc52"].encode() in result.stdout
    assert result.stderr == b""
