"""`new Date(value).getTime()`: V8's date parser (ES5 ISO strings and the legacy forms) and local time.

Cortex ages memories by `new Date(createdAt)`, and V8 accepts far more
than ISO 8601 ("Nov 21 2026", "2026/11/21 10:00 PM"); the local time zone is
a parameter, never the machine's.
"""

from __future__ import annotations

import math
import struct
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from ctxtui.engine.text.js.strings import JS_WHITESPACE
from ctxtui.engine.text.js.values import to_number, to_primitive

_MS_PER_DAY = 86_400_000
_MAX_TIME = 8.64e15


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (month 1-12; day may overflow the month)."""
    y = year - (month <= 2)
    era = y // 400
    yoe = y - era * 400
    mp = (month + 9) % 12
    doy = (153 * mp + 2) // 5
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468 + (day - 1)


def _make_date(year: int, month0: int, day: int, hour: int, minute: int, second: int, ms: int) -> float:
    """MakeDate(MakeDay(year, month, day), MakeTime(...)) for the integers the date parser yields."""
    year += month0 // 12
    month0 %= 12
    days = _days_from_civil(year, month0 + 1, 1) + day - 1
    return float(days * _MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + ms)


def _local_offset_ms(local_ms: float, zone: tzinfo) -> int:
    """The zone's UTC offset for a wall-clock time: the earlier offset at a repeated
    or skipped hour (ICU's UCAL_TZ_LOCAL_FORMER, which V8 asks for; Python's fold=0).

    Years past 9998 take the offset of an equivalent year in 2008-2037 (same
    leap-ness and weekday, so the zone's final rule applies as in ICU); years
    before 1 that of year 1.
    """
    if zone is UTC:
        return 0
    days, ms_of_day = divmod(int(local_ms), _MS_PER_DAY)
    year, month, day = _civil_from_days(days)
    if year > 9998:
        year = _equivalent_year(year)
    elif year < 1:
        year, month, day = 1, 1, 1
    try:
        wall = datetime(year, month, day) + timedelta(milliseconds=ms_of_day)
    except (OverflowError, ValueError):
        return 0
    offset = wall.replace(tzinfo=zone, fold=0).utcoffset()
    return int(offset.total_seconds() * 1000) if offset is not None else 0


def _civil_from_days(days: int) -> tuple[int, int, int]:
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def _equivalent_year(year: int) -> int:
    """V8's DateCache::EquivalentYear: a year in 2008-2037 with the same calendar."""
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    week_day = (_days_from_civil(year, 1, 1) + 4) % 7
    recent = (1956 if leap else 1967) + (week_day * 12) % 28
    return 2008 + (recent + 3 * 28 - 2008) % 28


def date_value(value: Any, zone: tzinfo = UTC) -> float:
    """`new Date(value).getTime()`: NaN for an invalid date; `zone` is the process's local time zone."""
    value = to_primitive(value)
    if isinstance(value, str):
        return parse_date(value, zone)
    number = to_number(value)
    if number != number or abs(number) > _MAX_TIME:
        return math.nan
    return float(math.trunc(number)) + 0.0


def parse_date(text: str, zone: tzinfo = UTC) -> float:
    """`Date.parse(text)`: V8's date parser (dateparser-inl.h): ES5 ISO first, then the legacy forms."""
    parsed = _DateParser(text).parse()
    if parsed is None:
        return math.nan
    year, month0, day, hour, minute, second, ms, utc_offset = parsed
    if not -(2**31) <= year < 2**31:
        return math.nan
    date = _make_date(year, month0, day, hour, minute, second, ms)
    if utc_offset is None:
        if not -_MAX_TIME <= date <= _MAX_TIME:
            return math.nan
        date -= _local_offset_ms(date, zone)
    else:
        date -= utc_offset * 1000.0
        if not -_MAX_TIME <= date <= _MAX_TIME:
            return math.nan
    if abs(date) > _MAX_TIME:
        return math.nan
    return float(math.trunc(date)) + 0.0


_NONE = 2**31 - 1  # kNone
# The keyword table: (three-letter prefix, type, value). Words longer than
# three letters match only month names.
_MONTH, _TZ_NAME, _T_SEP, _AM_PM, _INVALID = "month", "tz", "t", "ampm", "invalid"
_KEYWORDS = (
    ("jan", _MONTH, 1),
    ("feb", _MONTH, 2),
    ("mar", _MONTH, 3),
    ("apr", _MONTH, 4),
    ("may", _MONTH, 5),
    ("jun", _MONTH, 6),
    ("jul", _MONTH, 7),
    ("aug", _MONTH, 8),
    ("sep", _MONTH, 9),
    ("oct", _MONTH, 10),
    ("nov", _MONTH, 11),
    ("dec", _MONTH, 12),
    ("am\0", _AM_PM, 0),
    ("pm\0", _AM_PM, 12),
    ("ut\0", _TZ_NAME, 0),
    ("utc", _TZ_NAME, 0),
    ("z\0\0", _TZ_NAME, 0),
    ("gmt", _TZ_NAME, 0),
    ("cdt", _TZ_NAME, -5),
    ("cst", _TZ_NAME, -6),
    ("edt", _TZ_NAME, -4),
    ("est", _TZ_NAME, -5),
    ("mdt", _TZ_NAME, -6),
    ("mst", _TZ_NAME, -7),
    ("pdt", _TZ_NAME, -7),
    ("pst", _TZ_NAME, -8),
    ("t\0\0", _T_SEP, 0),
)
_JS_WS_SET = frozenset(JS_WHITESPACE)


class _Token:
    __slots__ = ("kind", "length", "value")

    def __init__(self, kind: str, value: Any = None, length: int = 0) -> None:
        self.kind = kind  # number, symbol, keyword, ws, end, unknown, invalid
        self.value = value  # number; symbol char; (keyword type, value)
        self.length = length

    def is_symbol(self, ch: str) -> bool:
        return self.kind == "symbol" and self.value == ch

    def is_sign(self) -> bool:
        return self.kind == "symbol" and self.value in "+-"

    def sign(self) -> int:
        return 1 if self.value == "+" else -1

    def is_number(self, length: int | None = None) -> bool:
        return self.kind == "number" and (length is None or self.length == length)

    def is_keyword(self, kind: str | None = None) -> bool:
        return self.kind == "keyword" and (kind is None or self.value[0] == kind)

    def is_z(self) -> bool:
        return self.kind == "keyword" and self.value == (_TZ_NAME, 0) and self.length == 1


def _between(x: int, lo: int, hi: int) -> bool:
    return lo <= x <= hi


class _DateParser:
    """A port of V8's DateParser::Parse and its composers (dateparser-inl.h, dateparser.cc)."""

    def __init__(self, text: str) -> None:
        raw = text.encode("utf-16-le", "surrogatepass")
        self.units = struct.unpack(f"<{len(raw) // 2}H", raw)
        self.index = 0
        self.ch = 0
        self._next_char()
        self.next = self._scan()
        # composers
        self.day: list[int] = []
        self.named_month = _NONE
        self.iso = False
        self.time: list[int] = []
        self.hour_offset = _NONE
        self.tz_sign = _NONE
        self.tz_hour = _NONE
        self.tz_minute = _NONE

    # -- input reader
    def _next_char(self) -> None:
        self.ch = self.units[self.index] if self.index < len(self.units) else 0
        self.index += 1

    def _digit(self) -> bool:
        return 0x30 <= self.ch <= 0x39

    def _scan(self) -> _Token:
        start = self.index
        if self.ch == 0:
            return _Token("end")
        if self._digit():
            n = i = 0
            while self.ch == 0x30:  # leading zeros count in the length, not in the 9 significant digits
                self._next_char()
            while self._digit():
                if i < 9:
                    n = n * 10 + self.ch - 0x30
                i += 1
                self._next_char()
            return _Token("number", n, self.index - start)
        for sym in ":-+.)":
            if self.ch == ord(sym):
                self._next_char()
                return _Token("symbol", sym, 1)
        if self.ch >= 0x41:
            prefix = [0, 0, 0]
            length = 0
            while self.ch >= 0x41:
                if length < 3:
                    prefix[length] = self.ch | 0x20
                length += 1
                self._next_char()
            word = "".join(chr(p) for p in prefix)
            for key, kind, value in _KEYWORDS:
                if key == word and (length <= 3 or kind == _MONTH):
                    return _Token("keyword", (kind, value), length)
            return _Token("keyword", (_INVALID, 0), length)
        if chr(self.ch) in _JS_WS_SET:
            self._next_char()
            return _Token("ws", None, self.index - start)
        if self.ch == 0x28:  # parentheses are skipped, nested
            balance = 0
            while True:
                if self.ch == 0x29:
                    balance -= 1
                elif self.ch == 0x28:
                    balance += 1
                self._next_char()
                if not (balance > 0 and self.ch):
                    break
            return _Token("unknown", None, 1)
        self._next_char()
        return _Token("unknown", None, 1)

    # -- tokenizer
    def take(self) -> _Token:
        token = self.next
        self.next = self._scan()
        return token

    def skip_symbol(self, ch: str) -> bool:
        if self.next.is_symbol(ch):
            self.next = self._scan()
            return True
        return False

    # -- composers
    def day_add(self, n: int) -> bool:
        if len(self.day) < 3:
            self.day.append(n)
            return True
        return False

    def time_add(self, n: int) -> bool:
        if len(self.time) < 4:
            self.time.append(n)
            return True
        return False

    def time_add_final(self, n: int) -> bool:
        if not self.time_add(n):
            return False
        while len(self.time) < 4:
            self.time.append(0)
        return True

    def time_expecting(self, n: int) -> bool:
        i = len(self.time)
        return (i == 1 and _between(n, 0, 59)) or (i == 2 and _between(n, 0, 59)) or (i == 3 and _between(n, 0, 999))

    def tz_set(self, hours: int) -> None:
        self.tz_sign = -1 if hours < 0 else 1
        self.tz_hour = hours * self.tz_sign
        self.tz_minute = 0

    def tz_expecting(self, n: int) -> bool:
        return self.tz_hour != _NONE and self.tz_minute == _NONE and _between(n, 0, 59)

    def tz_is_utc(self) -> bool:
        return self.tz_hour == 0 and self.tz_minute == 0

    @staticmethod
    def read_ms(token: _Token) -> int:
        number, length = int(token.value), token.length
        if length == 1:
            return number * 100
        if length == 2:
            return number * 10
        if length > 3:
            length = min(length, 9)
            factor = 1
            while length > 3:
                factor *= 10
                length -= 1
            return number // factor
        return number

    # -- ES5 ISO
    def es5(self) -> _Token:
        if self.next.is_sign():
            sign_token = self.take()
            if not self.next.is_number(6):
                return sign_token
            sign = sign_token.sign()
            year = self.take().value
            if sign < 0 and year == 0:
                return sign_token
            self.day_add(sign * year)
        elif self.next.is_number(4):
            self.day_add(self.take().value)
        else:
            return self.take()
        if self.skip_symbol("-"):
            if not self.next.is_number(2) or not _between(self.next.value, 1, 12):
                return self.take()
            self.day_add(self.take().value)
            if self.skip_symbol("-"):
                if not self.next.is_number(2) or not _between(self.next.value, 1, 31):
                    return self.take()
                self.day_add(self.take().value)
        if not self.next.is_keyword(_T_SEP):
            if self.next.kind != "end":
                return self.take()
        else:
            invalid = _Token("invalid")
            self.take()
            if not self.next.is_number(2) or not _between(self.next.value, 0, 24):
                return invalid
            hour_is_24 = self.next.value == 24
            self.time_add(self.take().value)
            if not self.skip_symbol(":"):
                return invalid
            if (
                not self.next.is_number(2)
                or not _between(self.next.value, 0, 59)
                or (hour_is_24 and self.next.value > 0)
            ):
                return invalid
            self.time_add(self.take().value)
            if self.skip_symbol(":"):
                if (
                    not self.next.is_number(2)
                    or not _between(self.next.value, 0, 59)
                    or (hour_is_24 and self.next.value > 0)
                ):
                    return invalid
                self.time_add(self.take().value)
                if self.skip_symbol("."):
                    if not self.next.is_number() or (hour_is_24 and self.next.value > 0):
                        return invalid
                    self.time_add(self.read_ms(self.take()))
            if self.next.is_z():
                self.take()
                self.tz_set(0)
            elif self.next.is_symbol("+") or self.next.is_symbol("-"):
                self.tz_sign = 1 if self.take().value == "+" else -1
                if self.next.is_number(4):
                    hourmin = self.take().value
                    hour, minute = hourmin // 100, hourmin % 100
                    if not _between(hour, 0, 23) or not _between(minute, 0, 59):
                        return invalid
                    self.tz_hour, self.tz_minute = hour, minute
                else:
                    if not self.next.is_number(2) or not _between(self.next.value, 0, 23):
                        return invalid
                    self.tz_hour = self.take().value
                    if not self.skip_symbol(":"):
                        return invalid
                    if not self.next.is_number(2) or not _between(self.next.value, 0, 59):
                        return invalid
                    self.tz_minute = self.take().value
            if self.next.kind != "end":
                return invalid
        if self.tz_hour == _NONE and not self.time:
            self.tz_set(0)
        self.iso = True
        return _Token("end")

    # -- the whole parse
    def parse(self) -> tuple[int, int, int, int, int, int, int, int | None] | None:
        token = self.es5()
        if token.kind == "invalid":
            return None
        has_read_number = bool(self.day)
        while token.kind != "end":
            if token.kind == "number":
                has_read_number = True
                n = token.value
                if self.skip_symbol(":"):
                    if self.skip_symbol(":"):
                        if self.time:
                            return None
                        self.time_add(n)
                        self.time_add(0)
                    else:
                        if not self.time_add(n):
                            return None
                        if self.next.is_symbol("."):
                            self.take()
                elif self.next.is_symbol(".") and self.time_expecting(n):
                    self.skip_symbol(".")
                    self.time_add(n)
                    if not self.next.is_number():
                        return None
                    self.time_add_final(self.read_ms(self.take()))
                elif self.next.is_symbol(".") and not self.time_expecting(n):
                    # SkipSymbol('.') consumed the dot before time.IsExpecting failed
                    self.skip_symbol(".")
                    if not self._number_rest(n):
                        return None
                else:
                    if not self._number_rest(n):
                        return None
            elif token.kind == "keyword":
                kind, value = token.value
                if kind == _AM_PM and self.time:
                    self.hour_offset = value
                elif kind == _MONTH:
                    self.named_month = value
                    self.skip_symbol("-")
                elif kind == _TZ_NAME and has_read_number:
                    self.tz_set(value)
                else:
                    if has_read_number:
                        return None
                    if self.next.is_number():
                        return None
            elif token.is_sign() and (self.tz_is_utc() or self.time):
                self.tz_sign = -1 if token.sign() < 0 else 1
                n = length = 0
                if self.next.is_number():
                    number = self.take()
                    n, length = number.value, number.length
                has_read_number = True
                if self.next.is_symbol(":"):
                    self.tz_hour = n
                    self.tz_minute = _NONE
                elif length in (1, 2):
                    self.tz_hour, self.tz_minute = n, 0
                elif length in (3, 4):
                    self.tz_hour, self.tz_minute = n // 100, n % 100
                else:
                    return None
            elif (token.is_sign() or token.is_symbol(")")) and has_read_number:
                return None
            token = self.take()
        return self.write()

    def _number_rest(self, n: int) -> bool:
        if self.tz_expecting(n):
            self.tz_minute = n
        elif self.time_expecting(n):
            self.time_add_final(n)
            peek = self.next
            if not (peek.kind in ("end", "ws") or peek.is_z() or peek.is_sign()):
                return False
        else:
            if not self.day_add(n):
                return False
            self.skip_symbol("-")
        return True

    def write(self) -> tuple[int, int, int, int, int, int, int, int | None] | None:
        # DayComposer::Write
        if not self.day:
            return None
        # Missing components default to 1, and the composer then counts three
        # of them whatever was given: "12" is December 1st of year 1 (2001).
        comp = self.day + [1] * (3 - len(self.day))
        year = 0
        if self.named_month == _NONE:
            if self.iso or not _between(comp[0], 1, 31):
                year, month, day = comp
            else:
                month, day, year = comp
        else:
            month = self.named_month
            if not _between(comp[0], 1, 31):
                year, day = comp[0], comp[1]
            else:
                day, year = comp[0], comp[1]
        if not self.iso:
            if _between(year, 0, 49):
                year += 2000
            elif _between(year, 50, 99):
                year += 1900
        if not -(2**30) <= year < 2**30 or not _between(month, 1, 12) or not _between(day, 1, 31):
            return None
        # TimeComposer::Write
        time = self.time + [0] * (4 - len(self.time))
        hour, minute, second, ms = time
        if self.hour_offset != _NONE:
            if not _between(hour, 0, 12):
                return None
            hour = hour % 12 + self.hour_offset
        if not (_between(hour, 0, 23) and _between(minute, 0, 59) and _between(second, 0, 59) and _between(ms, 0, 999)):
            if hour != 24 or minute or second or ms:
                return None
        # TimeZoneComposer::Write
        offset: int | None = None
        if self.tz_sign != _NONE:
            tz_hour = 0 if self.tz_hour == _NONE else self.tz_hour
            tz_minute = 0 if self.tz_minute == _NONE else self.tz_minute
            total = tz_hour * 3600 + tz_minute * 60
            if total > 2**30 - 1:
                return None
            offset = -total if self.tz_sign < 0 else total
        return year, month - 1, day, hour, minute, second, ms, offset
