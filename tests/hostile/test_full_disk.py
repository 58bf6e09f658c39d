"""A full disk is named as such, and `memory init` leaves nothing behind (issue 20, item 15).

`memory import` onto a full disk said "cannot rollback - no transaction is
active" (SQLite had rolled the transaction back itself, and the second
ROLLBACK's error replaced the real one); `memory init` left a 0-byte
memory.db. Simulated two ways: a file-size limit in the child (RLIMIT_FSIZE:
writes past it fail with EFBIG, which SQLite reports as an I/O error) and,
where a mount namespace can be had, a real 400 KiB tmpfs (ENOSPC: "database
or disk is full").
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.factories.memory_dbs import build_cortex_db
from tests.memory.conftest import NOW


def ctxtui(*argv: str, fsize: int, cwd: Path) -> subprocess.CompletedProcess:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", *argv],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
    )


def test_memory_init_past_a_file_size_limit_leaves_no_file(tmp_path):
    result = ctxtui("memory", "init", "--db", "mine.db", fsize=4096, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "cannot be created" in result.stderr and "I/O error" in result.stderr, result.stderr
    assert sorted(os.listdir(tmp_path)) == []


def test_memory_import_past_a_file_size_limit_names_the_write_error(tmp_path):
    source = build_cortex_db(tmp_path / "big.db", 3000, seed=3, now=NOW)
    work = tmp_path / "work"
    work.mkdir()
    result = ctxtui("memory", "import", str(source), "--db", "mine.db", fsize=1 << 20, cwd=work)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "cannot rollback" not in result.stderr and "I/O error" in result.stderr, result.stderr


def small_tmpfs_run(folder: Path, script: str) -> subprocess.CompletedProcess:
    """`script` (shell) run with a 400 KiB tmpfs mounted on `folder`, in a private mount namespace."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) to get a mount namespace")
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"no user/mount namespace here: {probe.stderr.decode(errors='replace').strip()}")
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=400k tmpfs '{folder}' && {script}"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_really_full_disk_says_so_for_import_and_init(tmp_path):
    source = build_cortex_db(tmp_path / "big.db", 3000, seed=3, now=NOW)
    disk = tmp_path / "disk"
    disk.mkdir()
    python = sys.executable
    result = small_tmpfs_run(
        disk,
        f"'{python}' -m ctxtui.cli memory import '{source}' --db '{disk}/mine.db'; echo rc=$?; "
        f"dd if=/dev/zero of='{disk}/fill' bs=1k count=400 2>/dev/null; "
        f"'{python}' -m ctxtui.cli memory init --db '{disk}/new.db'; echo rc=$?; ls -a '{disk}'",
    )
    out, err = result.stdout, result.stderr
    assert "Traceback" not in err and "cannot rollback" not in err, err
    assert err.count("database or disk is full") == 2, err
    assert out.count("rc=2") == 2, out
    assert "new.db" not in out, out  # init left nothing behind
