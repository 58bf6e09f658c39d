"""Shabka's dates as chrono 0.4.43 reads, subtracts and prints them, in whole integers.

A `Moment` is a UTC instant as chrono keeps one: days since 1970-01-01,
seconds into the day, and nanoseconds that reach past 10^9 only during a leap
second (`23:59:60.5` is second 59 plus 1.5e9 ns). Python's `datetime` cannot
hold years 0 or −1 (a `0000-01-01T00:00:00+01:00` is in year −1 once in UTC),
leap seconds or nanoseconds, so none of it is used here.

- `parse_rfc3339` is `DateTime::parse_from_rfc3339` (`chrono format/parse.rs:154-259`):
  `YYYY-MM-DD`, then `T`, `t` or a space, `HH:MM:SS`, an optional `.` and 1+
  digits (the first 9 kept), then `Z`, `z` or `±HH:MM` (also U+2212 minus);
  second 60 is a leap second; offsets below ±24 h.
- `seconds_between` is `(a - b).num_seconds()`: whole seconds truncated
  toward zero, a leap second counted as chrono counts it
  (`naive/time/mod.rs:741-766`).
- `format_date` is `format("%Y-%m-%d")`; `format_rfc3339` is chrono's
  `Serialize` (RFC 3339, AutoSi fraction, `Z`; `format/formatting.rs:504-556`).
"""

from __future__ import annotations

from typing import NamedTuple

NANOS = 1_000_000_000
DAY = 86_400


class Moment(NamedTuple):
    """A UTC instant: days since the epoch, seconds into the day, nanoseconds (≥ 1e9 in a leap second)."""

    days: int
    secs: int
    nanos: int


class DateError(ValueError):
    """A date chrono's RFC 3339 parser rejects; the message says why."""


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(days: int) -> tuple[int, int, int]:
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (month <= 2), month, day


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _digits(data: bytes, start: int, count: int) -> int:
    chunk = data[start : start + count]
    if len(chunk) < count or not all(48 <= c <= 57 for c in chunk):
        raise DateError("invalid")
    return int(chunk)


def parse_rfc3339(text: str) -> Moment:
    """chrono's `DateTime::parse_from_rfc3339`, converted to UTC."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) < 19:
        raise DateError("premature end of input")
    year = _digits(data, 0, 4)
    if data[4:5] != b"-":
        raise DateError("input contains invalid characters")
    month = _digits(data, 5, 2)
    if data[7:8] != b"-":
        raise DateError("input contains invalid characters")
    day = _digits(data, 8, 2)
    if not (1 <= month <= 12 and 1 <= day <= _MONTH_DAYS[month - 1] + (month == 2 and _leap(year))):
        raise DateError("input is out of range")
    if data[10:11] not in (b"T", b"t", b" "):
        raise DateError("input contains invalid characters")
    hour = _digits(data, 11, 2)
    if data[13:14] != b":":
        raise DateError("input contains invalid characters")
    minute = _digits(data, 14, 2)
    if data[16:17] != b":":
        raise DateError("input contains invalid characters")
    second = _digits(data, 17, 2)
    nanos = 0
    if second == 60:
        second, nanos = 59, NANOS
    rest = data[19:]
    if rest[:1] == b".":
        rest = rest[1:]
        count = 0
        while count < len(rest) and count < 9 and 48 <= rest[count] <= 57:
            count += 1
        if count == 0:
            raise DateError("premature end of input" if not rest else "input contains invalid characters")
        nanos += int(rest[:count]) * 10 ** (9 - count)
        rest = rest[count:]
        while rest[:1].isdigit():
            rest = rest[1:]
    if hour >= 24 or minute >= 60 or second >= 60 or (nanos >= NANOS and second != 59) or nanos >= 2 * NANOS:
        raise DateError("input is out of range")
    offset, rest = _offset(rest)
    if rest:
        raise DateError("trailing input")
    secs = hour * 3600 + minute * 60 + second - offset
    return Moment(days_from_civil(year, month, day) + secs // DAY, secs % DAY, nanos)


def _offset(rest: bytes) -> tuple[int, bytes]:
    """`scan::timezone_offset` with a required colon, Z allowed, U+2212 allowed (`format/scan.rs:203-280`)."""
    if not rest:
        raise DateError("premature end of input")
    if rest[:1] in (b"Z", b"z"):
        return 0, rest[1:]
    if rest[:1] == b"+":
        negative, rest = False, rest[1:]
    elif rest[:1] == b"-":
        negative, rest = True, rest[1:]
    elif rest[:3] == "\u2212".encode():
        negative, rest = True, rest[3:]
    else:
        raise DateError("input contains invalid characters")
    if len(rest) < 2:
        raise DateError("premature end of input")
    if not (rest[:1].isdigit() and rest[1:2].isdigit()):
        raise DateError("input contains invalid characters")
    hours = int(rest[:2])
    rest = rest[2:]
    if rest[:1] != b":":
        raise DateError("premature end of input" if not rest else "input contains invalid characters")
    rest = rest[1:]
    if len(rest) < 2:
        raise DateError("premature end of input")
    if not (48 <= rest[0] <= 53 and 48 <= rest[1] <= 57):
        raise DateError(
            "input is out of range"
            if 54 <= rest[0] <= 57 and 48 <= rest[1] <= 57
            else "input contains invalid characters"
        )
    seconds = hours * 3600 + int(rest[:2]) * 60
    if seconds >= DAY:
        raise DateError("input is out of range")
    return (-seconds if negative else seconds), rest[2:]


def seconds_between(later: Moment, earlier: Moment) -> int:
    """`(later - earlier).num_seconds()`: whole seconds, truncated toward zero."""
    secs = (later.days - earlier.days) * DAY + later.secs - earlier.secs
    if later.secs > earlier.secs and earlier.nanos >= NANOS:
        secs += 1
    elif later.secs < earlier.secs and later.nanos >= NANOS:
        secs -= 1
    total = secs * NANOS + later.nanos - earlier.nanos
    return total // NANOS if total >= 0 else -((-total) // NANOS)


def _year(year: int) -> str:
    return f"{year:04d}" if 0 <= year <= 9999 else f"{year:+05d}"


def format_date(moment: Moment) -> str:
    """`format("%Y-%m-%d")` of the UTC instant."""
    year, month, day = civil_from_days(moment.days)
    return f"{_year(year)}-{month:02d}-{day:02d}"


def format_rfc3339(moment: Moment, *, zulu: bool = True) -> str:
    """chrono's `Serialize` for `DateTime<Utc>`: `YYYY-MM-DDTHH:MM:SS[.fff|.ffffff|.fffffffff]Z`.

    With `zulu=False` the offset is written `+00:00`, as `to_rfc3339()` writes
    the dates Shabka stores.
    """
    year, month, day = civil_from_days(moment.days)
    second, nanos = moment.secs % 60, moment.nanos
    if nanos >= NANOS:
        second, nanos = second + 1, nanos - NANOS
    out = f"{_year(year)}-{month:02d}-{day:02d}T{moment.secs // 3600:02d}:{moment.secs // 60 % 60:02d}:{second:02d}"
    if nanos:
        if nanos % 1_000_000 == 0:
            out += f".{nanos // 1_000_000:03d}"
        elif nanos % 1000 == 0:
            out += f".{nanos // 1000:06d}"
        else:
            out += f".{nanos:09d}"
    return out + ("Z" if zulu else "+00:00")
