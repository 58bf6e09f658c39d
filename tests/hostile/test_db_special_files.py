"""A memory store that is a FIFO or a device is named as such, never read (issue 20, items 11 and 18).

`--packer cortex --db FIFO` hung (the other packers refuse a FIFO);
`--packer cortex --db /dev/zero` printed drift's `Error: Error: …` line and
exited 0; a FIFO `.context/memory.db` was called "No .context/memory.db" in
the TUI. A regular file that is not SQLite still gets drift's own line
(that is what `drift memory why` prints, exit status 0 included), now with
a warning saying so.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import NOW, ROOT, write_context


def cortex(db: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "pack", "--packer", "cortex", "--db", db, "--query", "x"],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=20,
    )


def test_cortex_refuses_a_fifo_without_hanging(tmp_path):
    os.mkfifo(tmp_path / "cortex.db")
    result = cortex("cortex.db", tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "ctxtui: cortex.db: is a FIFO (named pipe), not a database file\n"


def test_cortex_refuses_a_device(tmp_path):
    result = cortex("/dev/zero", tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "ctxtui: /dev/zero: is a device, not a database file\n"


def test_a_regular_file_that_is_not_sqlite_gets_drifts_line_and_a_warning(tmp_path):
    (tmp_path / "notes.db").write_text("hello\n")
    result = cortex("notes.db", tmp_path)
    assert result.returncode == 0
    assert result.stdout == "Error: Error: Failed to initialize Cortex: SqliteError: file is not a database\n"
    assert "drift's own error line" in result.stderr


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["fifo", "dangling link"])
async def test_the_tui_names_a_fifo_memory_db_instead_of_calling_it_missing(tmp_path, kind):
    from ctxtui.session import Session
    from ctxtui.tui.app import CtxtuiApp

    from tests.app.helpers import SIZE, settle

    root = write_context(tmp_path, {"TASKS.md": "- [ ] one\n"})
    if kind == "fifo":
        os.mkfifo(root / ".context" / "memory.db")
        expected = ".context/memory.db is a FIFO (named pipe), not a database file: not joined"
    else:
        os.symlink("elsewhere.db", root / ".context" / "memory.db")
        expected = ".context/memory.db is a symbolic link to nothing"
    app = CtxtuiApp(Session(project=root, clock=lambda: NOW), theme_name="ctxtui-dark", watch=False, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        shown = [n.message for n in app._notifications]
        assert any(expected in message for message in shown), shown
        assert not any(message.startswith("No .context/memory.db") for message in shown), shown
        assert app.session.db is None
