"""What an app would write to a real terminal, captured from a headless run.

Headless Textual never renders; this turns every compositor update into the
escape codes a terminal driver would write (as `bench/bench_tui.py` does) and
also keeps whatever is written to the driver directly (bell, clipboard).
"""

from __future__ import annotations

import re

from textual._compositor import CompositorUpdate

# Payloads an attacker can hide in a task line, a memory, a file or folder name.
PAYLOADS = {
    "osc52": "\x1b]52;c;SU5KRUNURUQ=\x07",
    "osc0": "\x1b]0;pwned-title\x07",
    "osc2": "\x1b]2;pwned-title\x1b\\",
    "osc8": "\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "csi": "\x1b[2J\x1b[H",
    "dcs": "\x1bPq#0;2;0;0;0\x1b\\",
    "c1": "\x9b2J\x9d0;c1-title\x9c",
    "bel": "ring\x07ring",
}
HOSTILE = "".join(PAYLOADS.values())

# Sequences Textual itself writes: CSI with numeric parameters (SGR, cursor moves, modes).
_OWN_CSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")
_FORBIDDEN = re.compile("[\x07\x80-\x9f]|\x1b[\\]P_^X\\\\]")


class TerminalCapture:
    """Install on an app before `run_test`; `text` is everything a terminal would have received."""

    def __init__(self, app) -> None:
        self.chunks: list[str] = []
        display = app._display

        def capturing_display(screen, renderable) -> None:
            if isinstance(renderable, CompositorUpdate):
                self.chunks.append(renderable.render_segments(app.console))
            display(screen, renderable)

        app._display = capturing_display

    @property
    def text(self) -> str:
        return "".join(self.chunks)

    def problems(self) -> list[str]:
        """Every escape that is not Textual's own styling, and every injected payload seen verbatim."""
        text = self.text
        found = [f"{name} payload written verbatim" for name, payload in PAYLOADS.items() if payload in text]
        rest = _OWN_CSI.sub("", text)
        found += [f"forbidden {match.group()!r} at {match.start()}" for match in _FORBIDDEN.finditer(rest)][:5]
        if "\x1b[2J" in text:
            found.append("screen clear \\x1b[2J")
        return found
