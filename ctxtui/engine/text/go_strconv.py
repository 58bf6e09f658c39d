"""Go's integer and number-parsing semantics: int64 wrap-around, float→int on amd64, strconv.

ctx's packet arithmetic is Go `int` (int64, wrapping on overflow), and its
budgets are parsed by strconv: `--budget` by pflag (`ParseInt(s, 0, 64)`:
`0x200`, `010` octal, `1_000`), `CTX_TOKEN_BUDGET` by `Atoi` (plain decimal),
YAML numbers by yaml.v3 (which calls both). Ported from the reference model
that matched the real binaries on every fuzz run (`ctx-differences.md` §8,
§9, §13); each function cites the Go code it mirrors.
"""

from __future__ import annotations

# math.inf and math.nan without importing `math` (an extension module: ~0.15 ms of a cold `pack`).
_INF = float("inf")
_NAN = float("nan")

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


# ---------------------------------------------------------------- integers


def i64(x: int) -> int:
    """Wrap to int64 (Go's signed overflow is two's-complement wrap-around)."""
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >= (1 << 63) else x


def f2i(x: float) -> int:
    """int(x) for float64 -> int64 on amd64 (CVTTSD2SQ): truncate; NaN or out of range -> MinInt64.

    The Go spec leaves out-of-range conversions implementation-defined; the oracle
    (linux/amd64) gives 0x8000000000000000. arm64 would saturate instead.
    """
    if x != x or x >= 9223372036854775808.0 or x < -9223372036854775808.0:  # NaN, ±Inf and beyond
        return INT64_MIN
    return int(x)


# ---------------------------------------------------------------- strconv

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _underscore_ok(s: str) -> bool:
    """strconv.underscoreOK (atoi.go): underscores only between digits / after a base prefix."""
    saw = "^"
    i = 0
    if len(s) >= 1 and s[0] in "+-":
        s = s[1:]
    hex_ = False
    if len(s) >= 2 and s[0] == "0" and s[1].lower() in "box":
        i = 2
        saw = "0"
        hex_ = s[1].lower() == "x"
    while i < len(s):
        c = s[i]
        if "0" <= c <= "9" or (hex_ and c.lower() in "abcdef"):
            saw = "0"
        elif c == "_":
            if saw != "0":
                return False
            saw = "_"
        else:
            if saw == "_":
                return False
            saw = "!"
        i += 1
    return saw != "_"


class GoNumError(ValueError):
    def __init__(self, func: str, s: str, reason: str):
        super().__init__(f'strconv.{func}: parsing "{s}": {reason}')
        self.reason = reason


def parse_uint(s: str, base: int, func: str = "ParseUint", orig: str | None = None) -> int:
    """strconv.ParseUint(s, base, 64)."""
    orig = s if orig is None else orig
    if s == "":
        raise GoNumError(func, orig, "invalid syntax")
    base0 = base == 0
    if base == 0:
        base = 10
        if s[0] == "0":
            if len(s) >= 3 and s[1].lower() == "b":
                base, s = 2, s[2:]
            elif len(s) >= 3 and s[1].lower() == "o":
                base, s = 8, s[2:]
            elif len(s) >= 3 and s[1].lower() == "x":
                base, s = 16, s[2:]
            else:
                base, s = 8, s[1:]
    n = 0
    underscores = False
    for c in s:
        if c == "_" and base0:
            underscores = True
            continue
        lc = c.lower()
        if not c.isascii() or lc not in _DIGITS[:base]:
            raise GoNumError(func, orig, "invalid syntax")
        n = n * base + _DIGITS.index(lc)
        if n >= 1 << 64:
            # atoi.go returns at the first digit that overflows, before looking at the rest (a later "x"
            # or a misplaced "_" is not reached): and the work stays bounded for a number of any length.
            raise GoNumError(func, orig, "value out of range")
    if underscores and not _underscore_ok(orig.lstrip("+-") if func == "ParseInt" else orig):
        raise GoNumError(func, orig, "invalid syntax")
    return n


def parse_int(s: str, base: int = 0) -> int:
    """strconv.ParseInt(s, base, 64): what pflag's IntVar uses for --budget (base 0)."""
    if s == "":
        raise GoNumError("ParseInt", s, "invalid syntax")
    s0 = s
    neg = False
    if s[0] in "+-":
        neg = s[0] == "-"
        s = s[1:]
    try:
        un = parse_uint(s, base, "ParseInt", s0)
    except GoNumError as exc:
        raise GoNumError("ParseInt", s0, exc.reason) from None
    if (not neg and un > INT64_MAX) or (neg and un > 1 << 63):
        raise GoNumError("ParseInt", s0, "value out of range")
    return -un if neg else un


def atoi(s: str) -> int:
    """strconv.Atoi: base 10, optional sign, ASCII digits only, no underscores, int64 range.

    Short strings take Go's fast path (`0 < len(s) < 19`: every byte a digit);
    longer ones go through ParseInt(s, 10, 64), which stops at the first digit
    that overflows ("value out of range" even when something invalid follows).
    Never Python's int() on the whole string: past 4,300 digits it raises.
    """
    if 0 < len(s) < 19:
        import re  # not on a cold `pack`'s path

        if not re.fullmatch(r"[+-]?[0-9]+", s):
            raise GoNumError("Atoi", s, "invalid syntax")
        return int(s)
    try:
        return parse_int(s, 10)
    except GoNumError as exc:
        raise GoNumError("Atoi", s, exc.reason) from None


def parse_float(s: str) -> float:
    """strconv.ParseFloat(s, 64) for the inputs yaml.v3 passes (decimal/exponent, inf/nan, hex floats, underscores)."""
    t = s
    if "_" in t:
        if not _underscore_ok(t):
            raise ValueError(s)
        t = t.replace("_", "")
    low = t.lower()
    sign = -1.0 if low.startswith("-") else 1.0
    body = low.lstrip("+-") if low[:1] in "+-" and len(low) > 1 else low
    if body in ("inf", "infinity"):
        return sign * _INF
    if body == "nan" and low == body:
        return _NAN
    if body.startswith("0x"):
        v = float.fromhex(t)
        return v
    import re  # not on a cold `pack`'s path

    if not re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?", low):
        raise ValueError(s)
    v = float(t)  # Python rounds correctly, like Go; overflow gives inf where Go gives ±Inf + ErrRange
    if v in (_INF, -_INF):
        raise OverflowError(s)
    return v
