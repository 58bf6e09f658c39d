"""Untrusted text in cells: the one sanitiser (`ctxtui.safe_text`), and `fit`.

Entry titles, file names and memory rows are never parsed as Rich markup
(widgets build `Text`/`Segment`s from plain strings) and go through
`clean_line`/`clean_block` before they are drawn. `fit` pads or truncates to a
width in terminal cells, not characters.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size

from ctxtui.safe_text import clean_block, clean_line

__all__ = ["clean_block", "clean_line", "fit"]


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
