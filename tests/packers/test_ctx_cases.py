"""Recorded ctx runs, replayed through `ctxtui pack`: stdout and exit status byte for byte, refusals' stderr too.

Each case in tests/packers/ctx_cases/ is a workspace and what the real ctx
0.8.1, ctx 0.8.0 and ctx's MCP agent packet (0.8.1's `readAgentPacket`)
printed on it (`record.py` made them with the binaries built from ctx's
source; none is needed here). The workspace is rebuilt at a path exactly as
long as the recorded `/tmp/ctx-case`, ctxtui runs there as ctx ran (same
working directory, `$PWD`, `TZ`, environment, arguments, `--now` for the
pinned clock) and every occurrence of the path is swapped back before the
comparison — the path's length is part of tier 1's cost, so it must match.

stderr is compared when ctx fails: then ctxtui prints ctx's words. On
success ctxtui's warnings are its own (ctx's warnings are not part of the
packet).
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from ctxtui.cli import main as cli_main

from tests.packers.ctx_cases.casefile import PACKERS, RECORDED_LINK, RECORDED_ROOT, Case, Run, all_cases

CASES = all_cases()
MCP_ERROR = b"error -32603: "
_built: dict[str, tuple[Path, Path]] = {}


def _build(case: Case) -> tuple[Path, Path]:
    """The case's workspace at /tmp/XXXXXXXX (as long as /tmp/ctx-case), built once per session."""
    if case.name not in _built:
        base = tempfile.mkdtemp(prefix="", dir="/tmp")
        if len(base) != len(RECORDED_ROOT) or os.path.realpath(base) != base:
            shutil.rmtree(base)
            pytest.skip("needs /tmp as a real folder (paths of /tmp/ctx-case's length)")
        os.rmdir(base)
        root = Path(base)
        cwd = case.build(root)
        if case.env.get("PWD") == "LINK":
            os.symlink(base, base + "-link")
        _built[case.name] = (root, cwd)
    return _built[case.name]


@pytest.fixture(scope="module", autouse=True)
def _remove_workspaces():
    yield
    for root, _ in _built.values():
        shutil.rmtree(root, ignore_errors=True)
        if os.path.islink(f"{root}-link"):
            os.unlink(f"{root}-link")
    _built.clear()


def _params():
    for case in CASES:
        for index, run in enumerate(case.runs):
            marks = [pytest.mark.xfail(reason=run.xfail, strict=True)] if run.xfail else []
            yield pytest.param(case, run, id=f"{case.name}[{index}] {run.label}", marks=marks)


def ctxtui_argv(case: Case, run: Run) -> list[str]:
    argv = ["pack", ".", "--packer", PACKERS[run.version], "--now", case.now]
    if run.budget is not None:
        argv.append(f"--budget={run.budget}")
    if run.format is not None:
        argv.append(f"--format={run.format}")
    return argv + run.extra


def run_ctxtui(case: Case, run: Run, monkeypatch) -> tuple[bytes, bytes, int]:
    root, cwd = _build(case)
    for name in list(os.environ):
        if name.startswith(("CTX_", "CTXTUI_")) or name in ("TZ", "PWD"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("TZ", case.tz)
    monkeypatch.setenv("PWD", str(cwd))
    for name, value in {**case.env, **run.env}.items():
        if name == "PWD" and value == "LINK":
            value = f"{root}-link" + (f"/{case.cwd}" if case.cwd else "")
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(cwd)
    out, err = io.BytesIO(), io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape"))
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(err, encoding="utf-8", errors="surrogateescape"))
    code = cli_main(ctxtui_argv(case, run))
    sys.stdout.flush()
    sys.stderr.flush()
    swap = [(f"{root}-link".encode(), RECORDED_LINK.encode()), (str(root).encode(), RECORDED_ROOT.encode())]
    stdout, stderr = out.getvalue(), err.getvalue()
    for actual, recorded in swap:
        stdout, stderr = stdout.replace(actual, recorded), stderr.replace(actual, recorded)
    return stdout, stderr, code


@pytest.mark.parametrize("case, run", list(_params()))
def test_ctxtui_prints_what_ctx_printed(case, run, monkeypatch):
    stdout, stderr, code = run_ctxtui(case, run, monkeypatch)
    assert (code, stdout) == (run.exit, run.stdout), f"{case.name}: {case.note}"
    if run.exit != 0 and run.version != "mcp":
        assert stderr == run.stderr
    elif run.exit != 0:  # the oracle prints the JSON-RPC error its own way; the message is ctx's
        assert run.stderr.split(MCP_ERROR)[-1].removeprefix(b"Error: ") in stderr


def test_every_run_is_recorded_and_the_fixtures_stay_small():
    assert len(CASES) >= 150
    assert all(case.runs for case in CASES)
    versions = {run.version for case in CASES for run in case.runs}
    assert versions == {"0.8.1", "0.8.0", "mcp"}
    size = sum(path.stat().st_size for path in CASES[0].path.parent.iterdir() if path.is_file())
    assert size < 2 * 1024 * 1024
