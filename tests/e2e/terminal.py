"""A program in a private tmux server, read back as text: the e2e tests' terminal.

Each `Terminal` runs its own tmux server on a unique `-L` socket, with no user
configuration (`-f` points at a file written here), so it never touches a
user's tmux sessions and their settings cannot change what the test sees.
The program runs under `sh`, which prints its exit status when it ends, and
`remain-on-exit` keeps the pane, so that line and the last output can be
read. Used by `test_tmux.py` and `bench/bench_tui.py`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

TMUX = shutil.which("tmux")
CTXTUI = Path(sys.executable).parent / "ctxtui"
# Variables that would change what the app does or how the terminal behaves.
_DROPPED_PREFIXES = ("TMUX", "CTX_", "TEXTUAL", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES")
EXIT_MARK = "[ctxtui-e2e: exited with status]"
_CONFIG = """\
set -g remain-on-exit on
set -g status off
set -sg escape-time 0
set -g history-limit 2000
"""


class TimedOut(AssertionError):
    """A wait ran out; the message ends with the last screen."""


class Terminal:
    """One tmux server with one session `main` of `width`×`height` cells."""

    def __init__(self, workdir: Path, width: int = 160, height: int = 45, env: dict[str, str] | None = None) -> None:
        if TMUX is None:
            raise RuntimeError("tmux is not installed")
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.socket = f"ctxtui-e2e-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.width, self.height = width, height
        self.config = self.workdir / "tmux.conf"
        self.config.write_text(_CONFIG, encoding="utf-8")
        self.env = self._environment(env or {})
        self.target = "main:0.0"
        self.started_at: float | None = None
        self.socket_path: str | None = None

    def _environment(self, extra: dict[str, str]) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(_DROPPED_PREFIXES)}
        config_home = self.workdir / "config"  # no user theme or keymap
        cache_home = self.workdir / "cache"
        config_home.mkdir(exist_ok=True)
        cache_home.mkdir(exist_ok=True)
        env.update(
            {
                "TERM": "xterm-256color",
                "COLORTERM": "truecolor",
                "LANG": "C.UTF-8",
                "LC_ALL": "C.UTF-8",
                "XDG_CONFIG_HOME": str(config_home),
                "XDG_CACHE_HOME": str(cache_home),
            }
        )
        env.update(extra)
        return env

    # -- tmux ------------------------------------------------------------------

    def tmux(self, *args: str, check: bool = True) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-L", self.socket, "-f", str(self.config), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=15,
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
        return done.stdout

    def start(self, argv: Sequence[str]) -> None:
        """Run `argv` as the session's only pane, under a shell that prints its exit status.

        The shell waits for the program and reports how it ended on screen
        (tmux's own `pane_dead_status` is sometimes never filled in: tmux 3.3a
        can leave the pane's process an unreaped zombie).
        """
        pane_env = [f"{name}={self.env[name]}" for name in ("TERM", "COLORTERM", "LANG", "LC_ALL")]
        script = '"$@"; status=$?; printf "\\n%s %s\\n" "$0" "$status"'
        self.started_at = time.perf_counter()
        self.tmux(
            "new-session",
            "-d",
            "-s",
            "main",
            "-x",
            str(self.width),
            "-y",
            str(self.height),
            "-c",
            str(self.workdir),
            "env",
            *pane_env,
            "sh",
            "-c",
            script,
            EXIT_MARK,
            *argv,
        )
        self.socket_path = self.tmux("display-message", "-p", "#{socket_path}").strip() or None

    def close(self) -> None:
        """Kill this test's tmux server (and so the program); never fails."""
        try:
            self.tmux("kill-server", check=False)
        except (subprocess.TimeoutExpired, OSError):
            pass
        if self.socket_path:  # tmux leaves the socket file behind
            Path(self.socket_path).unlink(missing_ok=True)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading and typing -----------------------------------------------------

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.target)

    def send(self, *keys: str) -> None:
        """tmux key names ("PageUp", "Escape", "C-u") or literal text, sent in one write."""
        self.tmux("send-keys", "-t", self.target, *keys)

    def wait_for(
        self,
        probe: Callable[[str], T | None],
        what: str,
        timeout: float = 20.0,
        settle: bool = True,
        interval: float = 0.03,
    ) -> T:
        """Poll the screen until `probe(screen)` returns something truthy.

        With `settle`, the same value must be seen on two captures in a row, so
        a frame caught half-written by the terminal is never taken as the answer.
        """
        deadline = time.monotonic() + timeout
        previous: object = None
        screen = ""
        while True:
            screen = self.screen()
            value = probe(screen)
            if value and (not settle or value == previous):
                return value
            previous = value
            if time.monotonic() > deadline:
                raise TimedOut(f"timed out after {timeout:g} s waiting for {what}; the screen was:\n{screen}")
            time.sleep(interval)

    def wait_quiet(self, quiet: float = 0.5, timeout: float = 15.0) -> str:
        """The screen once it has not changed for `quiet` seconds (late layout passes, workers)."""
        deadline = time.monotonic() + timeout
        screen, since = self.screen(), time.monotonic()
        while time.monotonic() - since < quiet:
            if time.monotonic() > deadline:
                raise TimedOut(f"the screen kept changing for {timeout:g} s; the last screen was:\n{screen}")
            time.sleep(0.03)
            current = self.screen()
            if current != screen:
                screen, since = current, time.monotonic()
        return screen

    def exit_status(self, screen: str | None = None) -> int | None:
        """The program's exit status once the wrapper shell has printed it, else None."""
        found = re.search(rf"^{re.escape(EXIT_MARK)} (\d+)$", self.screen() if screen is None else screen, re.MULTILINE)
        return int(found.group(1)) if found else None

    def wait_until_ended(self, timeout: float = 10.0) -> int:
        """Wait for the program to end; its exit status."""
        return self.wait_for(
            lambda screen: (status,) if (status := self.exit_status(screen)) is not None else None,
            "the program to end",
            timeout=timeout,
            settle=False,
        )[0]
