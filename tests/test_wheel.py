"""The wheel holds the product and only the product: every file under ctxtui/ (not only .py),
the built-in themes from the top-level themes/, the demo's content; never tests/, bench/ or scripts/.
Run from the unpacked wheel, ctxtui finds its themes and its demo content."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

THEMES = ("ctxtui-dark.toml", "ctxtui-high-contrast.toml", "ctxtui-light.toml")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    assert done.returncode == 0, done.stderr
    (found,) = out.glob("ctxtui-*.whl")
    return found


@pytest.fixture(scope="module")
def names(wheel) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_every_file_of_the_package_is_in_the_wheel(names):
    on_disk = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "ctxtui").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert on_disk - names == set()
    assert {n for n in on_disk if not n.endswith(".py")} >= {
        "ctxtui/demo/content/decisions.toml",
        "ctxtui/demo/content/context/CONVENTIONS.md",
    }


def test_the_wheel_holds_nothing_but_the_package(names):
    outside = {n for n in names if not n.startswith(("ctxtui/", "ctxtui-0.1.0.dist-info/"))}
    assert outside == set()  # the command is an entry point (pip writes its wrapper), no script of ours
    inside = names - outside
    assert not any("/tests/" in n or "/bench/" in n or "/scripts/" in n or "__pycache__" in n for n in inside)


def test_the_built_in_themes_are_the_top_level_ones(wheel, names):
    assert {n for n in names if n.startswith("ctxtui/themes/")} == {f"ctxtui/themes/{t}" for t in THEMES}
    with zipfile.ZipFile(wheel) as archive:
        for name in THEMES:
            assert archive.read(f"ctxtui/themes/{name}") == (ROOT / "themes" / name).read_bytes()


def test_the_command_is_the_standard_entry_point(wheel, names):
    """`ctxtui` is a `[project.scripts]` entry point to the launcher (issue 24, part 5: no script of our own)."""
    with zipfile.ZipFile(wheel) as archive:
        entry_points = archive.read("ctxtui-0.1.0.dist-info/entry_points.txt").decode()
    assert "[console_scripts]\nctxtui = ctxtui.launch:main" in entry_points
    assert not any(n.startswith("ctxtui-0.1.0.data/") for n in names)


def test_the_metadata_has_an_spdx_license(wheel):
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read("ctxtui-0.1.0.dist-info/METADATA").decode()
    assert "License-Expression: Apache-2.0" in metadata.splitlines()


def test_the_unpacked_wheel_finds_its_themes_and_demo(wheel, tmp_path):
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from datetime import datetime, timezone\n"
        "from pathlib import Path\n"
        "import ctxtui, ctxtui.paths, ctxtui.demo\n"
        "assert Path(ctxtui.__file__).is_relative_to(sys.argv[1]), ctxtui.__file__\n"
        "themes = ctxtui.paths.builtin_themes_dir()\n"
        "assert Path(str(themes)).is_relative_to(sys.argv[1]), themes\n"
        "print(sorted(f.name for f in themes.iterdir()))\n"
        "files = ctxtui.demo.demo_files(datetime(2026, 11, 21, tzinfo=timezone.utc))\n"
        "assert len(files) == 10 and len(ctxtui.demo.demo_memories(datetime(2026, 11, 21))) > 280\n"
    )
    done = subprocess.run([sys.executable, "-I", "-c", code, str(site)], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(sorted(THEMES))


def test_the_package_never_imports_test_or_bench_code():
    import ast

    offenders = []
    for path in sorted((ROOT / "ctxtui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in ("tests", "bench")]
    assert offenders == []
