"""The README's commands exist: every `make TARGET` it names is a Makefile target; `make demo` installs the
app's dependencies only and `make test` adds the test and lint tools; make echoes no recipe comment."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return {m.group(1) for m in re.finditer(r"^([A-Za-z][\w-]*):", text, re.MULTILINE)}


def dry_run(target: str, tmp_path: Path) -> str:
    """What `make TARGET` would run in a fresh clone (a venv that does not exist yet), without running it."""
    venv = tmp_path / "venv"
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", target, f"VENV={venv}", "UV="],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.replace(str(venv), "$VENV")


def test_every_make_target_the_readme_names_exists():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\bmake ([a-z][\w-]*)", readme))
    assert {"demo", "test"} <= named
    assert named <= targets(), f"README names make targets the Makefile lacks: {sorted(named - targets())}"


@needs_make
def test_make_demo_installs_the_app_alone_and_make_test_adds_the_tools(tmp_path):
    demo = dry_run("demo", tmp_path)
    assert "-e ." in demo and "ctxtui demo" in demo
    assert "[test" not in demo and "pytest" not in demo and "lint" not in demo
    test = dry_run("test", tmp_path)
    assert "'.[test,lint]'" in test and "pytest" in test


@needs_make
@pytest.mark.parametrize("target", ["demo", "test", "lint", "setup", "screenshots"])
def test_make_echoes_no_recipe_comment(target, tmp_path):
    for line in dry_run(target, tmp_path).splitlines():
        assert not line.lstrip().startswith("#"), line
