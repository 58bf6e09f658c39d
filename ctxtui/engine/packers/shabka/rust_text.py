"""How Rust spells two things that reach the MCP client in an error message: an f64 and a `str` in `{:?}`.

serde_json (1.0.149, Shabka's lock file) names a float it did not expect with
`zmij::Buffer::format` (`src/error.rs:465-478`): the shortest digits that
read back to the same f64, written positionally when the decimal exponent is
in -5..=15 (`2000.0`, `0.00001`) and as `d.ddde±X` otherwise (`1e+16`,
`1.5e-7`; zmij 1.0.21, `src/lib.rs:1010-1131`). Python's `repr` finds the
same shortest digits; only the layout differs (Python switches at -4 and 16
and pads the exponent to two digits).

serde names an unexpected string `string {:?}` (`serde_core/src/de/mod.rs`
`Unexpected::Str`): Rust's `Debug` for `str` (`core::fmt`), which escapes `"`
`\\` `\\t` `\\r` `\\n` `\\0`, every grapheme-extending character, and every
character `core::unicode::printable` does not print (general categories Cc,
Cf, Cs, Co, Cn, Zl, Zp and Zs but the space) as `\\u{hex}`. Python's
`unicodedata` stands in for Rust's tables: it is Unicode 14 where a current
Rust has Unicode 16, so a character assigned since (category Cn here) is
escaped here and printed by Shabka; Grapheme_Extend is Mn, Me and
Other_Grapheme_Extend (listed below, Unicode 14).
"""

from __future__ import annotations

import math
import unicodedata

_NOT_PRINTED = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"))
# Other_Grapheme_Extend (PropList.txt, Unicode 14): the Mc and other characters that also extend a grapheme.
_OTHER_GRAPHEME_EXTEND = frozenset(
    [
        0x09BE,
        0x09D7,
        0x0B3E,
        0x0B57,
        0x0BBE,
        0x0BD7,
        0x0CC2,
        0x0CD5,
        0x0CD6,
        0x0D3E,
        0x0D57,
        0x0DCF,
        0x0DDF,
        0x1B35,
        0x200C,
        0x302E,
        0x302F,
        0xFF9E,
        0xFF9F,
        0x1133E,
        0x11357,
        0x114B0,
        0x114BD,
        0x115AF,
        0x11930,
        0x1D165,
        *range(0x1D16E, 0x1D173),
        *range(0xE0020, 0xE0080),
    ]
)
_SIMPLE = {"\t": "\\t", "\r": "\\r", "\n": "\\n", "\\": "\\\\", '"': '\\"', "\0": "\\0"}


def f64_text(value: float) -> str:
    """An f64 as serde_json names it in an error: zmij's shortest form (`2000.0`, `1e+16`, `-0.0`, `NaN`, `inf`)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + "0.0"
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    significant = (whole + fraction).lstrip("0")  # value = int(whole + fraction) * 10**(exponent - len(fraction))
    exp = int(exponent or 0) - len(fraction) + len(significant) - 1  # the leading digit's decimal exponent
    digits = significant.rstrip("0")
    if -5 <= exp <= 15:
        if len(digits) - 1 <= exp:
            return sign + digits + "0" * (exp + 1 - len(digits)) + ".0"
        if exp >= 0:
            return sign + digits[: exp + 1] + "." + digits[exp + 1 :]
        return sign + "0." + "0" * (-exp - 1) + digits
    head = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{head}e{'+' if exp >= 0 else '-'}{abs(exp)}"


def debug_str(text: str) -> str:
    """`format!("{:?}", text)` for a Rust `&str`: quoted, with Rust's escapes."""
    out = ['"']
    for char in text:
        simple = _SIMPLE.get(char)
        if simple is not None:
            out.append(simple)
        elif " " <= char <= "~":
            out.append(char)
        elif _grapheme_extend(char) or (unicodedata.category(char) in _NOT_PRINTED and char != " "):
            out.append(f"\\u{{{ord(char):x}}}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _grapheme_extend(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me") or ord(char) in _OTHER_GRAPHEME_EXTEND
