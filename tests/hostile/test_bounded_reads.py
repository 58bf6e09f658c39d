"""Every file ctxtui reads is read the way `.context/` files are: regular files only, never blocking, bounded.

`.ctxrc` (for `pack`, `tune` and the TUI), the user's `config.toml` and
themes, Shabka's config and a `TZ` zone file all go through
`read_bytes_safely`. Before the fix a FIFO `.ctxrc` hung `pack` and `tune`,
a FIFO `config.toml` hung start-up, a link to /dev/zero read until memory ran
out and a 1 GB `.ctxrc` was read whole. The hanging cases run in a
subprocess (or a thread) with a deadline, so a regression fails instead of
hanging the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import NOW, ROOT, write_context

TASKS = "# Tasks\n\n- [ ] Keep me\n"


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,
        env=env,
    )


def within(seconds: float, fn, *args):
    """fn(*args) in a daemon thread; fails (instead of hanging) when it has not returned in time."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # handed to the test
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{getattr(fn, '__name__', fn)} still running after {seconds} s"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box.get("value")


@pytest.fixture
def project(tmp_path):
    return write_context(tmp_path / "p", {"TASKS.md": TASKS})


def test_fifo_ctxrc_does_not_hang_pack(project):
    os.mkfifo(project / ".ctxrc")
    result = run_cli("pack", str(project), "--now", NOW.isoformat())
    assert result.returncode == 0 and "- [ ] Keep me" in result.stdout
    assert ".ctxrc" in result.stderr and "FIFO" in result.stderr


def test_fifo_ctxrc_does_not_hang_tune(project):
    os.mkfifo(project / ".ctxrc")
    result = run_cli("tune", str(project), "--set", "token_budget=9000", "--write")
    assert "FIFO" in result.stdout + result.stderr and "Traceback" not in result.stderr
    assert result.returncode != 0  # nothing written over a FIFO
    assert (project / ".ctxrc").is_fifo()


def test_ctxrc_linked_to_dev_zero_is_refused(project):
    from ctxtui.engine.sources.ctxrc import read_ctxrc

    os.symlink("/dev/zero", project / ".ctxrc")
    config = within(10, read_ctxrc, project)
    assert config.problems and "device" in config.problems[0].message


def test_ctxrc_linked_to_tty_does_not_wait_for_the_keyboard(project):
    """Run with a pseudo-terminal as the controlling terminal, so /dev/tty is one that would wait for keys."""
    os.symlink("/dev/tty", project / ".ctxrc")
    leader, follower = os.openpty()

    def own_terminal() -> None:
        os.setsid()
        os.close(os.open(os.ttyname(follower), os.O_RDWR))  # the first terminal a session leader opens is its own

    code = "import sys; from ctxtui.engine.sources.ctxrc import read_ctxrc; print(read_ctxrc(sys.argv[1]).problems)"
    try:
        result = subprocess.run(
            [sys.executable, "-c", code, str(project)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=30,
            preexec_fn=own_terminal,
        )
    finally:
        os.close(leader)
        os.close(follower)
    assert "device" in result.stdout, result.stderr


def test_huge_ctxrc_is_not_read_whole(project):
    from ctxtui.engine.sources.ctxrc import read_ctxrc

    with open(project / ".ctxrc", "wb") as fh:  # sparse: 1 GB on paper, nothing on disk
        fh.write(b"token_budget: 9000\n")
        fh.truncate(1 << 30)
    config = within(10, read_ctxrc, project)
    assert config.token_budget is None
    assert config.problems and "limit" in config.problems[0].message


def test_linked_ctxrc_is_still_read(project, tmp_path):
    """Dotfile managers link `.ctxrc`: a link to a regular file is read, as ctx reads it."""
    from ctxtui.engine.sources.ctxrc import read_ctxrc

    target = tmp_path / "dotfiles-ctxrc"
    target.write_text("token_budget: 1234\n")
    os.symlink(target, project / ".ctxrc")
    assert read_ctxrc(project).token_budget == 1234


def test_fifo_config_toml_does_not_hang_start_up(tmp_path):
    from ctxtui.user_config import read_user_config

    path = tmp_path / "config.toml"
    os.mkfifo(path)
    config = within(10, read_user_config, path)
    assert config.problems and "FIFO" in config.problems[0]


def test_config_toml_linked_to_dev_zero(tmp_path):
    from ctxtui.user_config import read_user_config

    path = tmp_path / "config.toml"
    os.symlink("/dev/zero", path)
    config = within(10, read_user_config, path)
    assert config.problems and "device" in config.problems[0]


def test_user_theme_over_the_limit_is_refused(tmp_path):
    from ctxtui.tui.themes import load_themes

    folder = tmp_path / "themes"
    folder.mkdir()
    with open(folder / "big.toml", "wb") as fh:
        fh.truncate(1 << 30)
    loaded = within(10, load_themes, None, folder)
    assert any("big.toml" in p.path and "limit" in p.message for p in loaded.problems)


def test_tz_naming_a_fifo_does_not_hang(tmp_path):
    from ctxtui.engine.sources.zone import local_zone

    fifo = tmp_path / "zone"
    os.mkfifo(fifo)
    zone = within(10, local_zone, {"TZ": str(fifo)})
    assert zone is not None


def test_shabka_config_fifo_does_not_hang(tmp_path, monkeypatch):
    from ctxtui.opening import shabka

    project = tmp_path / "p"
    (project / ".shabka").mkdir(parents=True)
    target = project / ".shabka" / "config.toml"
    target.write_text('[sharing]\nuser_id = "me"\n')
    monkeypatch.setattr(shabka, "config_dir", lambda: tmp_path / "nothing")
    assert shabka.shabka_config(project)["sharing"]["user_id"] == "me"
    os.remove(target)
    os.mkfifo(target)
    # is_file() is False for a FIFO, but one swapped in after that check must not block either
    real_is_file = Path.is_file
    monkeypatch.setattr(Path, "is_file", lambda self: self == target or real_is_file(self))
    assert within(10, shabka.shabka_config, project) == {}
