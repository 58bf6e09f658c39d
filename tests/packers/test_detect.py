"""The default packer is the version of the `ctx` on PATH; anything else falls back to 0.8.1 with a notice."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from ctxtui.detect import detect_ctx

from tests.conftest import ROOT, write_context


def fake_ctx(folder, script: str) -> dict[str, str]:
    folder.mkdir(exist_ok=True)
    path = folder / "ctx"
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return {"PATH": str(folder)}


@pytest.mark.parametrize(
    "printed, packer",
    [("ctx version 0.8.0", "ctx-0.8.0"), ("ctx version 0.8.1", "ctx-0.8.1"), ("ctx version v0.8.0\n", "ctx-0.8.0")],
)
def test_known_versions(tmp_path, printed, packer):
    found = detect_ctx(fake_ctx(tmp_path / "bin", f"echo '{printed}'"))
    assert (found.packer, found.notice) == (packer, None)


@pytest.mark.parametrize(
    "script, words",
    [
        ("echo 'ctx version 0.7.2'", "0.7.2 on PATH is not a version"),
        ("echo 'something else'", "printed no version"),
        ("exit 3", "printed no version"),
        ("/bin/sleep 5", "did not answer"),
    ],
)
def test_fallbacks_say_why(tmp_path, script, words):
    found = detect_ctx(fake_ctx(tmp_path / "bin", script), timeout=0.5)
    assert found.packer == "ctx-0.8.1" and words in (found.notice or "")


def test_missing_binary(tmp_path):
    found = detect_ctx({"PATH": str(tmp_path)})
    assert found.packer == "ctx-0.8.1" and "no ctx on PATH" in (found.notice or "")


def test_pack_uses_the_detected_version(tmp_path):
    project = write_context(tmp_path / "p", {"TASKS.md": "# Tasks\n\n- [ ] One task\n", "DECISIONS.md": "# D\n"})
    env = {**os.environ, **fake_ctx(tmp_path / "bin", "echo 'ctx version 0.8.0'")}
    env["PATH"] += os.pathsep + os.path.dirname(sys.executable)
    env.pop("CTXTUI_PACKER", None)
    result = subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "pack", str(project), "--budget", "4000"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert "1. .context/TASKS.md" in result.stdout and result.stderr == ""  # 0.8.0's relative paths


def test_which_finds_what_shutil_which_finds(tmp_path, monkeypatch):
    """detect's own `which` (no shutil import on the cold pack path) follows shutil.which's rules."""
    import shutil

    from ctxtui.detect import which

    a, b, c = (tmp_path / name for name in ("a", "b", "c"))
    for folder in (a, b, c):
        folder.mkdir()
    (a / "ctx").mkdir()  # a directory named ctx is skipped
    (b / "ctx").write_text("#!/bin/sh\n")  # not executable: skipped
    fake_ctx(c, "echo")
    monkeypatch.chdir(tmp_path)
    for path in (
        os.pathsep.join(map(str, (a, b, c))),
        os.pathsep.join(map(str, (a, b))),
        "",
        os.pathsep + str(c),
        str(c) + os.pathsep + str(c),
    ):
        assert which("ctx", path) == shutil.which("ctx", path=path), path
    monkeypatch.setenv("PATH", str(c))
    assert which("ctx", None) == shutil.which("ctx") == str(c / "ctx")


def test_cold_pack_imports_only_what_it_needs(tmp_path):
    """`ctxtui pack` without --db never imports PyYAML, sqlite3, subprocess, shutil, the TUI, memory records or ctx-mcp (cold start-up)."""
    write_context(
        tmp_path,
        {
            "CONSTITUTION.md": "- [ ] rule\n",
            "TASKS.md": "- [ ] a task\n",
            "steering/a.md": "---\nname: a\ninclusion: always\npriority: 5\n---\nbody\n",
        },
    )
    code = (
        "import sys, io\n"
        "from ctxtui.cli import main\n"
        "sys.stdout = io.TextIOWrapper(io.BytesIO())\n"
        f"main(['pack', {str(tmp_path)!r}, '--budget', '4000', '--now', '2026-11-21T23:56:08Z', '--ignore-refusal'])\n"
        "heavy = ('yaml', 'sqlite3', 'subprocess', 'shutil', 'zoneinfo', 'importlib.resources', 'hashlib', 'json',\n"
        "         'textual', 'rich', 'numpy', 'psycopg', 'tiktoken', 'ctxtui.tui', 'ctxtui.session',\n"
        "         'ctxtui.engine.sources.memory.adapters', 'ctxtui.engine.sources.memory.shared.records',\n"
        "         'ctxtui.engine.packers.ctx.mcp', 'ctxtui.engine.explain')\n"
        "sys.stderr.write(repr(sorted(m for m in heavy if m in sys.modules)))\n"
    )
    env = {**os.environ, "PATH": str(tmp_path), "TZ": "UTC", "CTXTUI_PACKER": ""}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert done.stderr.strip().splitlines()[-1] == "[]"


def _pack_with_fake_ctx(tmp_path, script: str) -> subprocess.CompletedProcess:
    project = write_context(tmp_path / "p", {"TASKS.md": "# Tasks\n\n- [ ] One task\n", "DECISIONS.md": "# D\n"})
    env = {**os.environ, **fake_ctx(tmp_path / "bin", script)}
    env["PATH"] += os.pathsep + os.path.dirname(sys.executable)
    env.pop("CTXTUI_PACKER", None)
    return subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "pack", str(project), "--budget", "4000", "--root-path", "/p"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


@pytest.mark.parametrize(
    "script, words",
    [
        ("/bin/sleep 10", "`ctx --version` did not answer within 2 s: showing ctx 0.8.1"),
        ("echo 'ctx version 0.9.0'", "ctx 0.9.0 on PATH is not a version ctxtui models (0.8.1 and 0.8.0)"),
        ("echo 'ctx: rc.RC: no .context/ at $PWD' >&2; exit 1", "`ctx --version` printed no version"),
    ],
)
def test_pack_falls_back_to_0_8_1_with_a_notice(tmp_path, script, words):
    """A hanging, unknown or broken `ctx` on PATH: the 0.8.1 packet (absolute paths) and one notice line."""
    result = _pack_with_fake_ctx(tmp_path, script)
    assert result.returncode == 0 and "1. /p/.context/TASKS.md" in result.stdout
    assert result.stderr.startswith("ctxtui: notice: ") and words in result.stderr
    assert result.stderr.count("\n") == 1


def test_real_ctx_version_output_is_understood(tmp_path):
    """What the real binaries print (`ctx version 0.8.0`, checked with the oracle builds); the stderr line a
    real ctx prints outside a project (rc.RC's warning) does not get in the way."""
    script = "echo 'ctx: rc.RC: no .context/ at $PWD; defaults applied' >&2; echo 'ctx version 0.8.0'"
    assert detect_ctx(fake_ctx(tmp_path / "bin", script)).packer == "ctx-0.8.0"


def test_the_packer_option_and_variable_beat_detection(tmp_path, monkeypatch):
    from argparse import Namespace

    from ctxtui.cli.common import choose_packer

    monkeypatch.setenv("PATH", fake_ctx(tmp_path / "bin", "echo 'ctx version 0.8.0'")["PATH"])
    monkeypatch.setenv("CTXTUI_PACKER", "ctx-mcp")
    assert choose_packer(Namespace(packer="ctx-0.8.1")) == "ctx-0.8.1"
    assert choose_packer(Namespace(packer=None)) == "ctx-mcp"
    monkeypatch.delenv("CTXTUI_PACKER")
    assert choose_packer(Namespace(packer=None)) == "ctx-0.8.0"
