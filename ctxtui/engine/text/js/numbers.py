"""JavaScript numbers: `String(x)`, `toFixed(0)`, `Number(s)`, `parseInt(s, 10)` and the Math helpers.

Python prints and parses floats its own way ("1e-07", "inf", "0x10" refused);
every score and count Cortex prints is a JavaScript number, so its text comes
from here.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal

from ctxtui.engine.text.js.strings import JS_WHITESPACE


def number_to_string(x: float) -> str:
    """`String(x)`: the shortest round-trip digits (as Python's repr), in JavaScript's layout.

    No exponent for 1e-7 <= |x| < 1e21; integers without ".0"; "1e-7",
    "1.5e+21"; "NaN", "Infinity", "-Infinity"; "0" for -0.
    """
    if x != x:
        return "NaN"
    if x == math.inf:
        return "Infinity"
    if x == -math.inf:
        return "-Infinity"
    if x == 0:
        return "0"
    if x.is_integer() and abs(x) < 9007199254740992.0:  # exact integers: the digits are the integer's
        return str(int(x))
    sign = "-" if x < 0 else ""
    mantissa, _, exp_text = repr(abs(x)).partition("e")
    exponent = int(exp_text) if exp_text else 0
    whole, _, fraction = mantissa.partition(".")
    if fraction == "0":
        fraction = ""
    digits = (whole + fraction).lstrip("0")
    # value = 0.<digits> × 10^n
    if whole.strip("0"):
        n = len(whole.lstrip("0")) + exponent
    else:
        n = exponent - (len(fraction) - len(fraction.lstrip("0")))
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + text


def to_fixed0(x: float) -> str:
    """`x.toFixed(0)`: the exact binary value rounded half away from zero ("-0" for -0.4, "0" for -0)."""
    if x != x:
        return "NaN"
    if math.isinf(x) or abs(x) >= 1e21:
        return number_to_string(x)
    rounded = Decimal(x).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return ("-" if x < 0 else "") + str(abs(int(rounded)))


def js_ceil(x: float) -> float:
    """`Math.ceil`: NaN and infinities pass through; (-1, 0) gives -0."""
    if x != x or math.isinf(x):
        return x
    result = float(math.ceil(x))
    return -0.0 if result == 0 and x < 0 else result


def js_min(a: float, b: float) -> float:
    """`Math.min(a, b)`: NaN wins; -0 is smaller than +0."""
    if a != a or b != b:
        return math.nan
    if a == b == 0:
        return -0.0 if math.copysign(1, a) < 0 or math.copysign(1, b) < 0 else 0.0
    return a if a < b else b


def js_max(*values: float) -> float:
    """`Math.max(...)`: NaN wins; +0 is larger than -0."""
    result = -math.inf
    for value in values:
        if value != value:
            return math.nan
        if value > result or (value == result == 0 and math.copysign(1, value) > 0):
            result = value
    return result


_DECIMAL_LITERAL = re.compile(r"[+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")


def string_to_number(text: str) -> float:
    """`Number(text)`: JS whitespace trimmed, "" is 0, 0x/0o/0b prefixes, "Infinity", else NaN."""
    t = text.strip(JS_WHITESPACE)
    if not t:
        return 0.0
    if len(t) > 2 and t[0] == "0" and t[1] in "xXoObB":
        base = {"x": 16, "o": 8, "b": 2}[t[1].lower()]
        try:
            if not t[2:].isascii() or "_" in t:
                return math.nan
            return float(int(t[2:], base))
        except ValueError:
            return math.nan
    if not t.isascii() or _DECIMAL_LITERAL.fullmatch(t) is None:
        return math.nan
    if t.endswith("Infinity"):
        return -math.inf if t[0] == "-" else math.inf
    return float(t)


_LEADING_INT = re.compile(r"([+-]?)([0-9]+)")


def parse_int(text: str) -> float:
    """`parseInt(text, 10)`: leading JS whitespace, a sign, the longest run of ASCII digits; else NaN.

    "1e3" is 1, "12.9" is 12, "0x10" is 0, "  60px" is 60, "-0" is -0.
    """
    match = _LEADING_INT.match(text.lstrip(JS_WHITESPACE))
    if match is None:
        return math.nan
    value = float(int(match.group(2)))
    return -value if match.group(1) == "-" else value
