"""JavaScript strings: UTF-16 lengths and slices, `\\s` and `trim()`, case mapping, `console.log`.

Python strings count code points; Cortex's token estimates and cuts count
UTF-16 units and may split a surrogate pair, so every length and slice the
port takes goes through here.
"""

from __future__ import annotations

import re

# `\s` in a JavaScript regular expression, and what trim() removes:
# WhiteSpace plus LineTerminator. Not Python's idea (which adds \x1c-\x1f and
# \x85 and leaves out the BOM).
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_WS_RUN = re.compile("[" + re.escape(JS_WHITESPACE) + "]+")


def utf16_len(text: str) -> int:
    """`text.length`: UTF-16 code units (an astral character counts 2)."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def utf16_slice(text: str, start: int, end: int) -> str:
    """`text.slice(start, end)` for non-negative bounds, in UTF-16 units: may cut a surrogate pair in half."""
    if text.isascii():
        return text[start:end]
    units = text.encode("utf-16-le", "surrogatepass")[2 * start : 2 * max(start, end)]
    return units.decode("utf-16-le", "surrogatepass")


def js_trim(text: str) -> str:
    return text.strip(JS_WHITESPACE)


def split_whitespace(text: str) -> list[str]:
    """`text.split(/\\s+/)`: empty strings kept at either end, [""] for ""."""
    return _WS_RUN.split(text)


def to_lower(text: str) -> str:
    """`toLowerCase()` (full Unicode mapping, final sigma included, as Python's)."""
    return text.lower()


def to_upper(text: str) -> str:
    """`toUpperCase()` (full mapping: "ß" becomes "SS", as in Python)."""
    return text.upper()


def console_text(text: str) -> str:
    """What `console.log` writes for a string: a lone surrogate becomes U+FFFD (split pairs rejoin)."""
    if text.isascii():
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
