"""Untrusted text in cells: the one sanitiser (`ctxtui.safe_text`), and `fit`.

Entry titles, file names and memory rows are never parsed as Rich markup
(widgets build `Text`/`Segment`s from plain strings) and go through
`clean_line`/`clean_block` before they are drawn. `fit` pads or truncates to a
width in terminal cells, not characters; `steady_width` first takes out what
terminals draw at different widths (emoji sequences), so a table's columns
stay where Rich put them.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size

from ctxtui.safe_text import clean_block, clean_line

__all__ = ["clean_block", "clean_line", "fit", "steady_width"]


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


# What makes an emoji's drawn width depend on the terminal (measured in tmux 3.3a against Rich 15's
# cell_len: 👍🏽 drawn 4 cells, Rich 2; ❤️ 1, Rich 2; 🏳️‍🌈 1, Rich 2; a terminal without ZWJ support
# draws 👩‍💻 as 4): variation selectors, skin tones, the keycap mark, tag characters, and joiners.
_DROPPED = frozenset([0xFE0E, 0xFE0F, 0x20E3, *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)])
_ZWJ = 0x200D
_REGIONAL = range(0x1F1E6, 0x1F200)


def _pictographic(code: int) -> bool:
    """Roughly Extended_Pictographic: what an emoji ZWJ sequence joins (not Indic conjuncts, which keep their ZWJ)."""
    return code >= 0x1F000 or 0x2190 <= code <= 0x2BFF or code in (0x00A9, 0x00AE, 0x203C, 0x2049, 0x2122, 0x3030)


def steady_width(text: str) -> str:
    """`text` with every emoji sequence reduced to one code point every terminal draws at the same width.

    For table cells only (never the packet, the preview or a copy): a ZWJ
    sequence keeps its first emoji (👩‍💻 → 👩), modifiers and variation
    selectors go (👍🏽 → 👍, ❤️ → ❤), a flag becomes its two letters (🇫🇷 → FR).
    What is left has one width in Rich and in the terminal, so the columns
    after it do not shift.
    """
    if text.isascii():
        return text
    out: list[str] = []
    codes = [ord(c) for c in text]
    i, n = 0, len(codes)
    while i < n:
        code = codes[i]
        if code in _DROPPED:
            i += 1
        elif code == _ZWJ and i + 1 < n and _pictographic(codes[i + 1]) and out and _pictographic(ord(out[-1][-1])):
            i += 2  # the joiner and the emoji it joins: the sequence keeps its first emoji
        elif code in _REGIONAL:
            out.append(chr(code - _REGIONAL.start + ord("A")))
            i += 1
        else:
            out.append(chr(code))
            i += 1
    return "".join(out)
