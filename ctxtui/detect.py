"""Which ctx the user runs: `ctx --version` of the `ctx` on PATH, so the default packet is theirs.

Release binaries, the Homebrew tap and the VS Code extension install 0.8.0;
a build from ctx's `main` says 0.8.1. A missing binary, one that hangs or
fails, or a version ctxtui does not model falls back to 0.8.1, with a notice
that says so. Runs a subprocess, so it lives outside the engine.
"""

import os
from collections.abc import Mapping
from typing import NamedTuple

from ctxtui.engine.packers.ctx.versions import DEFAULT_VERSION, VERSIONS

TIMEOUT_SECONDS = 2.0
_VERSION = r"\bctx version v?(\d+\.\d+\.\d+)\b"  # compiled only when there is a ctx to ask


class Detected(NamedTuple):
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


def which(name: str, path: str | None) -> str | None:
    """`shutil.which(name, path=path)` on POSIX, without importing shutil (and its compression modules).

    Same rules: no `path` means $PATH, and no $PATH the system default; each entry, an empty one
    included (the working directory), is tried in order, once; the first
    existing, executable non-directory wins.
    """
    if path is None:
        path = os.environ.get("PATH")
    if path is None:
        try:
            path = os.confstr("CS_PATH")
        except (AttributeError, ValueError):
            path = os.defpath
    if not path:
        return None
    seen = set()
    for folder in path.split(os.pathsep):
        if folder in seen:
            continue
        seen.add(folder)
        candidate = os.path.join(folder, name)
        if os.path.exists(candidate) and os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return candidate
    return None


def detect_ctx(env: Mapping[str, str] | None = None, timeout: float = TIMEOUT_SECONDS) -> Detected:
    """The packer matching the `ctx` on PATH, or 0.8.1 with a notice."""
    env = os.environ if env is None else env
    fallback = DEFAULT_VERSION.packer_name
    executable = which("ctx", env.get("PATH"))
    if executable is None:
        return Detected(fallback, None, f"no ctx on PATH: showing ctx {DEFAULT_VERSION.number} (--packer chooses)")
    import subprocess  # only when there is a ctx to ask: a cold `ctxtui pack` without one skips the import

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
    import re  # only with a ctx on PATH to ask

    match = re.search(_VERSION, output)
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
