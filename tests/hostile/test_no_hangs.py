"""Nothing in .context/ or --db can hang ctxtui: a FIFO, /dev/zero through a link, a directory named TASKS.md.

Only regular files are read, opened without blocking, up to a size cap.
Each case runs the real CLI in a subprocess with a timeout: before the fix
the FIFO cases never returned.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import NOW, ROOT, write_context

TASKS = "# Tasks\n\n- [ ] Keep me\n"


def pack(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "pack", *args, "--now", NOW.isoformat()],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,
    )


@pytest.fixture
def project(tmp_path):
    return write_context(
        tmp_path / "p",
        {
            "TASKS.md": TASKS,
            "DECISIONS.md": "# Decisions\n",
            "steering/a.md": "---\nname: a\ninclusion: always\n---\nBe kind.\n",
        },
    )


def test_fifo_in_steering(project):
    os.mkfifo(project / ".context" / "steering" / "b.md")
    result = pack(str(project))
    assert result.returncode == 0 and "- [ ] Keep me" in result.stdout
    assert "b.md" in result.stderr and "FIFO" in result.stderr
    assert "Be kind." not in result.stdout  # ctx includes no steering when one file fails


def test_dev_zero_linked_in_steering(project):
    os.symlink("/dev/zero", project / ".context" / "steering" / "z.md")
    result = pack(str(project))
    assert result.returncode == 0 and "z.md" in result.stderr and "device" in result.stderr


def test_fifo_and_directory_named_like_context_files(project):
    os.remove(project / ".context" / "DECISIONS.md")
    os.mkfifo(project / ".context" / "DECISIONS.md")
    (project / ".context" / "LEARNINGS.md").mkdir()
    result = pack(str(project))
    assert result.returncode == 0 and "- [ ] Keep me" in result.stdout
    assert "DECISIONS.md: is a FIFO" in result.stderr and "LEARNINGS.md: is a directory" in result.stderr


def test_fifo_as_db(project, tmp_path):
    fifo = tmp_path / "memory.db"
    os.mkfifo(fifo)
    result = pack(str(project), "--db", str(fifo))
    assert result.returncode == 0 and "- [ ] Keep me" in result.stdout
    assert "FIFO" in result.stderr
