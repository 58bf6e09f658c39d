"""Go's string, number and JSON semantics, where they differ from Python's.

ctx is written in Go; byte-exact output needs Go's idea of whitespace, of
lower case, of invalid UTF-8, of integer division, of `filepath.Join`, of
`encoding/json` strings and of RFC 3339 times. Everything on the packet path
that trims, lowercases, divides, joins or encodes goes through here, so there
is one definition of each.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from ctxtui.engine.datetimes import UTC, datetime

if TYPE_CHECKING:
    from re import Match

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


def go_fold(text: str) -> str:
    """golang.org/x/text `cases.Fold()`: Unicode full case folding, as `str.casefold()` does.

    ctx 0.8.1 folds keywords and entry text with it (`i18n.Fold`); it differs
    from lowercasing wherever folding turns a character into ASCII letters:
    ß → ss, ſ → s, ﬁ → fi, İ → i + U+0307...
    """
    return text.casefold()


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


def go_div(a: int, b: int) -> int:
    """Go's integer division truncates toward zero; Python's // floors."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def go_join(*parts: str) -> str:
    """filepath.Join: join, then Clean (which also folds a leading "//")."""
    joined = posixpath.normpath(posixpath.join(*parts))
    return "/" + joined.lstrip("/") if joined.startswith("//") else joined


def rfc3339_utc(now: datetime) -> str:
    """time.RFC3339 of a UTC time, whole seconds ("2026-11-21T23:56:08Z")."""
    return now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


_JSON_ESCAPE = '[\\x00-\\x1f"\\\\<>&\u2028\u2029\udc80-\udcff]'  # compiled when a JSON packet is made
_JSON_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _json_escape(match: Match[str]) -> str:
    ch = match.group()
    short = _JSON_SHORT.get(ch)
    if short:
        return short
    if "\udc80" <= ch <= "\udcff":
        return "\\ufffd"  # Go writes each invalid UTF-8 byte as the escape \ufffd
    return f"\\u{ord(ch):04x}"


def go_json_string(text: str) -> str:
    """encoding/json's string form: HTML-safe escapes, raw other non-ASCII."""
    import re  # a Markdown packet never escapes JSON: a cold `pack` does not import `re` at all

    return '"' + re.sub(_JSON_ESCAPE, _json_escape, text) + '"'
