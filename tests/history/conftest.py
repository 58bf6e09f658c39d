"""Shared fixtures: generated histories, a checkout made the test's way, the CLI run in-process."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.factories.history import git, make_history


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("history") / "project"
    return root, make_history(root, commits=24, seed=int(os.environ.get("CTXTUI_HISTORY_SEED", "3")))


def checkout(root: Path, commit: str, into: Path) -> Path:
    """The commit's files in a new folder (git archive: the tests' own checkout), with a .git as a work tree has."""
    data = subprocess.run(["git", "archive", "--format=tar", commit], cwd=root, check=True, capture_output=True).stdout
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="tar")
    (into / ".git").mkdir()
    return into


def commit_date(root: Path, commit: str) -> str:
    return git(root, "show", "-s", "--format=%cI", commit, capture=True).strip()


def run_cli(argv: list[str], capsysbinary) -> tuple[bytes, bytes, int]:
    from ctxtui.cli import main

    capsysbinary.readouterr()
    code = main(argv)
    out, err = capsysbinary.readouterr()
    return out, err, code


def repo_state(root: Path) -> dict[str, str]:
    """Every file of the work tree and of .git (index, refs, HEAD, objects), by content hash and mtime."""
    state: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() or path.is_symlink():
            info = path.lstat()
            digest = hashlib.sha256(path.read_bytes() if path.is_file() else os.readlink(path).encode()).hexdigest()
            state[str(path.relative_to(root))] = f"{digest}:{info.st_mtime_ns}:{info.st_mode}"
        elif path.is_dir():
            state[str(path.relative_to(root)) + "/"] = str(path.lstat().st_mode)
    return state


@pytest.fixture(autouse=True)
def _as_ctx(monkeypatch):
    """Refusals as ctx prints them (the suite's default ignores them), no budget or context dir from outside."""
    for name in ("CTXTUI_IGNORE_REFUSAL", "CTX_TOKEN_BUDGET", "CTX_DIR"):
        monkeypatch.delenv(name, raising=False)
