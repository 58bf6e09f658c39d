"""Neutralise untrusted text before it reaches the terminal.

Entry titles, file names and memory rows come from the user's files. They are
never parsed as Rich markup (widgets build `Text`/`Segment`s from plain
strings), and this module makes sure they carry no terminal control sequences:
every C0/C1 control, DEL, ESC and bidirectional override is replaced by a
visible one-cell stand-in. One definition, used by every widget and tested.
`fit` pads or truncates to a width in terminal cells, not characters.
"""

from __future__ import annotations

import re

from rich.cells import cell_len, set_cell_size

# C0 controls become their Unicode "control picture" (U+2400 + code), so an ESC
# shows as ␛ instead of starting a sequence; DEL gets its own picture.
_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_PICTURES[0x7F] = "\u2421"  # ␡
# Bidi embeddings/overrides/isolates and a few invisible format characters can
# reorder or hide what the terminal shows: make them visible as U+FFFD.
_INVISIBLE = (
    [*range(0x80, 0xA0)]  # C1 controls (0x9B is a one-byte CSI on some terminals)
    + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029]
    + [*range(0x202A, 0x202F)]
    + [*range(0x2066, 0x206A)]
)

_SINGLE_LINE = dict(_PICTURES)
_SINGLE_LINE[0x09] = " "  # a tab is harmless as one space in a single-line cell
for _code in _INVISIBLE:
    _SINGLE_LINE[_code] = "\ufffd"

_MULTI_LINE = dict(_SINGLE_LINE)
del _MULTI_LINE[0x0A]  # keep line breaks when showing a body over several lines
_MULTI_LINE[0x09] = "    "

# Lone surrogates are invalid UTF-8 bytes the engine keeps (surrogateescape):
# written to a terminal they would become "\udcff" text or an encoding error.
for _code in range(0xD800, 0xE000):
    _SINGLE_LINE[_code] = "\ufffd"
    _MULTI_LINE[_code] = "\ufffd"

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def clean_line(text: str) -> str:
    """One line of untrusted text, safe to draw: no controls, no line breaks."""
    if _UNSAFE.search(text) is None:  # the common case costs one regex scan
        return text
    return text.translate(_SINGLE_LINE)


def clean_block(text: str) -> str:
    """Untrusted text that may span lines: newlines kept, tabs expanded, the rest neutralised."""
    if _UNSAFE.search(text) is None:
        return text
    return text.replace("\r\n", "\n").translate(_MULTI_LINE)


def fit(text: str, width: int, right: bool = False) -> str:
    """Pad or truncate (with "…") to exactly `width` cells."""
    if width <= 0:
        return ""
    length = len(text) if text.isascii() else cell_len(text)
    if length > width:
        text = set_cell_size(text, width - 1) + "…" if width > 1 else set_cell_size(text, width)
        return text
    pad = " " * (width - length)
    return pad + text if right else text + pad
