"""The installed `ctxtui` command (`ctxtui.launch`): the same bytes and exit status as `ctxtui.cli.main`.

`pack` leaves with `os._exit` once its packet is flushed, and runs with the
garbage collector paused; every other command gets the collector back. Run
in fresh interpreters, as the command runs.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT

NOW = "2026-11-21T23:56:08Z"


def _workspace(tmp_path):
    (tmp_path / ".context").mkdir()
    (tmp_path / ".context" / "TASKS.md").write_text("- [ ] one task to do\n- [ ] another\n")
    (tmp_path / ".context" / "DECISIONS.md").write_text("# D\n\n## [2026-11-01-120000] Use SQLite\n\nBecause.\n")
    (tmp_path / ".git").mkdir()
    return tmp_path


def _run(code: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "TZ": "UTC", "CTXTUI_PACKER": "ctx-0.8.1"}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, env=env, cwd=ROOT, timeout=120)


LAUNCH = "import sys; from ctxtui.launch import main; sys.argv = ['ctxtui', *sys.argv[1:]]; sys.exit(main())"
IN_PROCESS = "import sys; from ctxtui.cli import main; sys.exit(main(sys.argv[1:]))"


def test_pack_prints_the_same_bytes_and_status(tmp_path):
    project = _workspace(tmp_path)
    args = ("pack", str(project), "--budget", "4000", "--now", NOW)
    launched, direct = _run(LAUNCH, *args), _run(IN_PROCESS, *args)
    assert launched.returncode == direct.returncode == 0, launched.stderr
    assert launched.stdout == direct.stdout
    assert b"Use SQLite" in launched.stdout


def test_a_refusal_keeps_its_exit_status(tmp_path):
    project = _workspace(tmp_path)
    args = ("pack", str(project), "--budget", "abc", "--now", NOW)  # ctx prints its usage and exits 1
    launched, direct = _run(LAUNCH, *args), _run(IN_PROCESS, *args)
    assert launched.returncode == direct.returncode != 0
    assert (launched.stdout, launched.stderr) == (direct.stdout, direct.stderr)


def test_other_commands_run_with_the_collector_on(tmp_path):
    project = _workspace(tmp_path)
    code = (
        "import gc, sys; from ctxtui.launch import main\n"
        "sys.argv = ['ctxtui', 'sweep', sys.argv[1], '--to', '500', '--step', '250']\n"
        "status = main(); sys.stderr.write(f'gc={gc.isenabled()} status={status}')\n"
    )
    done = _run(code, str(project))
    assert done.stderr.decode().endswith("gc=True status=0"), done.stderr


def test_the_installed_command_runs_the_launcher(tmp_path):
    """pip's wrapper for the `[project.scripts]` entry point (what is on PATH) gives `pack`'s exact bytes."""
    project = _workspace(tmp_path)
    env = {**os.environ, "TZ": "UTC", "CTXTUI_PACKER": "ctx-0.8.1"}
    args = ("pack", str(project), "--budget", "4000", "--now", NOW)
    installed = os.path.join(os.path.dirname(sys.executable), "ctxtui")
    done = subprocess.run([installed, *args], capture_output=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == _run(IN_PROCESS, *args).stdout
    with open(installed, encoding="utf-8") as fh:
        wrapper = fh.read()
    assert wrapper.startswith("#!") and "from ctxtui.launch import main" in wrapper
