"""Which ctx the user runs: `ctx --version` of the `ctx` on PATH, so the default packet is theirs.

Release binaries, the Homebrew tap and the VS Code extension install 0.8.0;
a build from ctx's `main` says 0.8.1. A missing binary, one that hangs or
fails, or a version ctxtui does not model falls back to 0.8.1, with a notice
that says so. Runs a subprocess, so it lives outside the engine.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

from ctxtui.engine.packers.ctx.versions import DEFAULT_VERSION, VERSIONS

TIMEOUT_SECONDS = 2.0
_VERSION = re.compile(r"\bctx version v?(\d+\.\d+\.\d+)\b")


@dataclass(frozen=True, slots=True)
class Detected:
    """The packer to use by default, and what to tell the user about it."""

    packer: str  # e.g. "ctx-0.8.0"
    found: str | None  # the version `ctx --version` printed, if any
    notice: str | None = None  # set when falling back

    @property
    def describe(self) -> str:
        """For the status line: where the default came from."""
        if self.found and self.notice is None:
            return f"ctx {self.found} on PATH"
        return "no usable ctx on PATH"


def detect_ctx(env: Mapping[str, str] | None = None, timeout: float = TIMEOUT_SECONDS) -> Detected:
    """The packer matching the `ctx` on PATH, or 0.8.1 with a notice."""
    env = os.environ if env is None else env
    fallback = DEFAULT_VERSION.packer_name
    executable = shutil.which("ctx", path=env.get("PATH"))
    if executable is None:
        return Detected(fallback, None, f"no ctx on PATH: showing ctx {DEFAULT_VERSION.number} (--packer chooses)")
    try:
        completed = subprocess.run(
            [executable, "--version"],
            capture_output=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
            env=dict(env),
        )
    except subprocess.TimeoutExpired:
        return Detected(
            fallback, None, f"`ctx --version` did not answer within {timeout:g} s: showing ctx {DEFAULT_VERSION.number}"
        )
    except OSError as exc:
        return Detected(
            fallback, None, f"cannot run {executable}: {exc.strerror or exc}: showing ctx {DEFAULT_VERSION.number}"
        )
    output = completed.stdout.decode("utf-8", "replace") + completed.stderr.decode("utf-8", "replace")
    match = _VERSION.search(output)
    if match is None:
        first = output.strip().splitlines()[0][:80] if output.strip() else f"exit status {completed.returncode}"
        return Detected(
            fallback, None, f"`ctx --version` printed no version ({first}): showing ctx {DEFAULT_VERSION.number}"
        )
    number = match.group(1)
    packer = f"ctx-{number}"
    if packer not in VERSIONS:
        known = " and ".join(v.number for v in VERSIONS.values())
        return Detected(
            fallback,
            number,
            f"ctx {number} on PATH is not a version ctxtui models ({known}): showing ctx {DEFAULT_VERSION.number}",
        )
    return Detected(packer, number)
