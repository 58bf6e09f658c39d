"""Rust's f32 in Python: rounding each operation, and the two ways Shabka prints one.

Python floats are doubles. A double result of one +, -, *, / or sqrt on two
f32 values, rounded to f32, is the correctly rounded f32 result (53 ≥ 2·24 + 2
bits, so the double rounding is innocuous), which is why every f32 step below
is "compute in double, then `f32()`" — in the order Rust evaluates it, never
fused.

Shabka prints an importance twice over (`core/context_pack.rs:63-66` and
serde's `Memory` in JSON):

- text: Rust's `{}` Display — the shortest digits that read back as the same
  f32, never an exponent, no ".0": `1`, `0.35`, `0.00000035`; when two
  shortest candidates are equally close, the upper one (`19781.063`).
- JSON: serde_json 1.0.149, which formats f32 with zmij 1.0.21 — the same
  shortest digits, positional for decimal exponents −6…12 and always with a
  fraction (`1.0`, `0.35`), else `d.ddde±E` with an explicit `+` (`3.5e-7`,
  `1e+13`); an exact tie goes to the even digit (`19781.062`); NaN and the
  infinities are `null`.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction
from functools import lru_cache

_F32 = struct.Struct("<f")
_U32 = struct.Struct("<I")


def f32(x: float) -> float:
    """`x` rounded to the nearest f32 (ties to even); past the largest f32, ±inf as Rust's `as f32`."""
    try:
        value: float = _F32.unpack(_F32.pack(x))[0]
        return value
    except OverflowError:
        return math.copysign(math.inf, x)


def f32_bits(x: float) -> int:
    bits: int = _U32.unpack(_F32.pack(x))[0]
    return bits


def _from_bits(bits: int) -> float:
    value: float = _F32.unpack(_U32.pack(bits))[0]
    return value


def _round_trip_interval(x: float) -> tuple[Fraction, Fraction, bool]:
    """The decimals that parse back to the positive finite f32 `x`: [low, high], ends included iff x is even."""
    bits = f32_bits(x)
    below = Fraction(_from_bits(bits - 1)) if bits > 1 else Fraction(0)
    above = Fraction(2) ** 128 if bits + 1 == 0x7F800000 else Fraction(_from_bits(bits + 1))
    exact = Fraction(x)
    return (exact + below) / 2, (exact + above) / 2, bits % 2 == 0


@lru_cache(maxsize=4096)
def shortest_digits(x: float, tie_up: bool) -> tuple[str, int]:
    """The shortest decimal digits d1…dn (no trailing zeros) and exponent E with x = d1.d2…dn × 10^E.

    `x` is a positive finite f32. Among the shortest digit strings that read
    back as `x`, the closest to `x`; an exact tie between two goes up when
    `tie_up` (Rust's Display), else to the even last digit (zmij).
    """
    exact = Fraction(x)
    low, high, inclusive = _round_trip_interval(x)

    def reads_back(value: Fraction) -> bool:
        return low < value < high or (inclusive and value in (low, high))

    for precision in range(1, 10):
        mantissa, exponent_text = f"{x:.{precision - 1}e}".split("e")
        nearest = int(mantissa.replace(".", ""))
        scale = Fraction(10) ** (int(exponent_text) - (precision - 1))
        found = [
            (abs(Fraction(d) * scale - exact), d)
            for d in (nearest - 1, nearest, nearest + 1)
            if d > 0 and reads_back(Fraction(d) * scale)
        ]
        if not found:
            continue
        found.sort()
        digits = found[0][1]
        if len(found) > 1 and found[1][0] == found[0][0]:
            lo_d, hi_d = sorted((found[0][1], found[1][1]))
            digits = hi_d if tie_up or hi_d % 2 == 0 else lo_d
        text = str(digits)
        exponent = int(exponent_text) + len(text) - precision
        return text.rstrip("0") or "0", exponent
    raise AssertionError(f"no shortest form for {x!r}")  # every f32 has one of at most 9 digits


def _positional(digits: str, exponent: int) -> str:
    n = len(digits)
    if exponent >= n - 1:
        return digits + "0" * (exponent - n + 1)
    if exponent >= 0:
        return digits[: exponent + 1] + "." + digits[exponent + 1 :]
    return "0." + "0" * (-exponent - 1) + digits


def rust_display(x: float) -> str:
    """Rust's `format!("{}", x)` for an f32 `x`."""
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    if x == 0:
        return sign + "0"
    return sign + _positional(*shortest_digits(abs(x), True))


def serde_json_f32(x: float) -> str:
    """serde_json 1.0.149 (zmij 1.0.21) for an f32 `x`."""
    if x != x or math.isinf(x):
        return "null"
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    if x == 0:
        return sign + "0.0"
    digits, exponent = shortest_digits(abs(x), False)
    if -6 <= exponent <= 12:
        text = _positional(digits, exponent)
        return sign + (text if "." in text else text + ".0")
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"
