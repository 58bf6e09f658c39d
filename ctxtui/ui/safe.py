"""Untrusted text made safe for the terminal.

Titles, bodies, file names and database rows come from files and databases
we do not control. Rich `Text` objects already keep them from being parsed as
markup; this removes what Text would pass through: ESC and other control
characters that a terminal would act on.
"""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_NO_NEWLINE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]")


def _show(match: re.Match) -> str:
    ch = match.group()
    if ch == "\t":
        return "    "
    if ch == "\n":
        return "⏎"
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control picture" for it, e.g. ␛
    return "�"


def safe(text: str, keep_newlines: bool = False) -> str:
    """`text` with every control character replaced by a visible stand-in."""
    pattern = _CONTROL if keep_newlines else _CONTROL_NO_NEWLINE
    return pattern.sub(_show, text)
