"""`ctxtui demo` with an unusable cache folder: a temporary folder instead, or one clear line; never a traceback.

Before the fix, `XDG_CACHE_HOME` under a file (or on a read-only file
system) ended `ctxtui demo` with a NotADirectoryError traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime

from tests.conftest import ROOT


def test_cache_under_a_file_falls_back_to_a_temporary_folder(tmp_path, monkeypatch, capsys):
    from ctxtui.cli.tui import write_demo_somewhere

    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file" / "cache"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    project = write_demo_somewhere(datetime(2026, 1, 1).astimezone())
    assert project.parent == tmp_path / "tmp" and (project / ".context" / "TASKS.md").is_file()
    assert "cannot write the cache folder" in capsys.readouterr().err


NO_TEMPORARY_FOLDER = """
import sys, tempfile
def refuse(*args, **kwargs):
    raise PermissionError(13, "Permission denied")
tempfile.mkdtemp = refuse
from ctxtui.cli import main
sys.exit(main(["demo"]))
"""


def test_no_writable_folder_at_all_is_one_clear_line(tmp_path):
    (tmp_path / "file").write_text("x")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "file" / "cache"))
    result = subprocess.run(
        [sys.executable, "-c", NO_TEMPORARY_FOLDER], capture_output=True, text=True, cwd=ROOT, timeout=60, env=env
    )
    assert "Traceback" not in result.stderr
    assert result.returncode == 2
    assert result.stderr.startswith("ctxtui: cannot write the demo:") and len(result.stderr.splitlines()) == 1
    assert "Not a directory" in result.stderr and "Permission denied" in result.stderr
