"""Go's string semantics, where they differ from Python's.

ctx is written in Go; byte-exact output needs Go's idea of whitespace, of
lower case and of invalid UTF-8. Everything that trims or lowercases text on
the packet path goes through here, so there is one definition of each.
"""

from __future__ import annotations

# unicode.IsSpace: Python's str.strip() would also strip \x1c-\x1f, Go does not.
GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

# The ASCII whitespace class `\s` inside Go regular expressions.
RE_WS = r"[\t\n\f\r ]"


def go_trim(text: str) -> str:
    """strings.TrimSpace."""
    return text.strip(GO_SPACE)


def go_lower(text: str) -> str:
    """strings.ToLower for the purposes of ASCII keyword matching.

    Python lowercases U+0130 to "i" + combining dot; Go to a plain "i".
    """
    if "\u0130" in text:
        text = text.replace("\u0130", "i")
    return text.lower()


def decode(data: bytes) -> str:
    """Bytes as Go sees them: valid UTF-8 as text, other bytes kept.

    surrogateescape keeps invalid bytes round-trippable, so byte counts and the
    Markdown output stay identical to ctx's, which copies raw bytes through.
    """
    return data.decode("utf-8", "surrogateescape")


def utf8_len(text: str) -> int:
    """Length in bytes as Go's len() would report it."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogateescape"))
