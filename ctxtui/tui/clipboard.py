"""Getting a packet out of the TUI: clipboard (two channels) and save-to-file.

OSC 52 (`App.copy_to_clipboard`) gets no acknowledgement and fails silently
under tmux without `set-clipboard on` and in Terminal.app, so a system tool is
used as well where one is on PATH (wl-copy, xclip, xsel, pbcopy). Tools run
without a shell, with a timeout, their output discarded: xclip and wl-copy fork
a child that keeps serving the selection, and a captured pipe would block until
that child exits. Saving refuses to write inside a `.context/` directory (the
user's source of truth) unless asked to, and writes atomically.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

TOOL_TIMEOUT = 2.0  # seconds; the call blocks, so run copy_text in a thread worker if that matters


@dataclass(frozen=True, slots=True)
class CopyResult:
    """Which channels took the text. `osc52` only means the sequence was written."""

    osc52: bool
    tool: str | None = None  # "wl-copy", "xclip", "xsel" or "pbcopy" when it succeeded
    error: str | None = None  # why the system tool failed, when it did

    @property
    def channels(self) -> tuple[str, ...]:
        return tuple(c for c in ("OSC 52" if self.osc52 else None, self.tool) if c)

    @property
    def ok(self) -> bool:
        return bool(self.channels)

    def describe(self) -> str:
        """The channels in words, to follow "Copied … via ": "OSC 52 and wl-copy"."""
        if self.tool:
            return f"{' and '.join(self.channels)}"
        if self.osc52:
            why = f"{self.error}" if self.error else "no system clipboard tool found"
            return f"OSC 52 only ({why}; terminals without OSC 52 support will not see it)"
        return f"nothing ({self.error or 'no channel available'})"


def clipboard_command(
    env: Mapping[str, str] | None = None, platform: str | None = None, which: Callable[..., str | None] = shutil.which
) -> list[str] | None:
    """The system clipboard command for this session, or None when there is none."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    path = env.get("PATH")

    def find(name: str) -> str | None:
        return which(name, path=path)

    candidates: list[list[str]] = []
    if platform == "darwin":
        candidates.append(["pbcopy"])
    if env.get("WAYLAND_DISPLAY"):
        candidates.append(["wl-copy", "--type", "text/plain;charset=utf-8"])
    if env.get("DISPLAY"):
        candidates.append(["xclip", "-selection", "clipboard", "-in"])
        candidates.append(["xsel", "--clipboard", "--input"])
    for command in candidates:
        executable = find(command[0])
        if executable:
            return [executable, *command[1:]]
    return None


def copy_text(
    app,
    text: str,
    *,
    use_system: bool = True,
    env: Mapping[str, str] | None = None,
    platform: str | None = None,
    timeout: float = TOOL_TIMEOUT,
) -> CopyResult:
    """Copy `text` via OSC 52 and, when available, the system clipboard tool.

    Invalid UTF-8 kept from the user's files (lone surrogates) becomes U+FFFD:
    a clipboard carries text, and encoding a surrogate would raise.
    """
    text = as_valid_text(text)
    app.copy_to_clipboard(text)
    if not use_system:
        return CopyResult(osc52=True)
    env = os.environ if env is None else env
    command = clipboard_command(env, platform)
    if command is None:
        return CopyResult(osc52=True)
    name = Path(command[0]).name
    try:
        completed = subprocess.run(
            command,
            input=text.encode("utf-8"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
            check=False,
            env=dict(env),
        )
    except subprocess.TimeoutExpired:
        return CopyResult(osc52=True, error=f"{name} timed out after {timeout:g} s")
    except OSError as error:
        return CopyResult(osc52=True, error=f"{name}: {error.strerror or error}")
    if completed.returncode != 0:
        return CopyResult(osc52=True, error=f"{name} exited with status {completed.returncode}")
    return CopyResult(osc52=True, tool=name)


def as_valid_text(text: str) -> str:
    """`text` with each invalid byte (kept as a lone surrogate) shown as U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
