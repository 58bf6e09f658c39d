"""Go's calendar arithmetic for ctx's recency: each entry date's own local midnight, days as Go counts them.

ctx parses an entry's date with `time.ParseInLocation("2006-01-02", date, time.Local)`
and counts `int(now.Sub(date).Hours() / 24)` (`score/score.go:36-42`). Each
date gets its own UTC offset — the one in force at that midnight, so DST
matters — with Go's rule for a midnight that falls in a gap (`time.Date`,
go/src/time/time.go): the later offset. The zone is an input (`sources.zone`
reads it the way Go does); nothing here reads the clock or the environment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine import datetimes as _dt
from ctxtui.engine.text.go import go_div
from ctxtui.engine.text.go_strconv import INT64_MAX, INT64_MIN, f2i

if TYPE_CHECKING:
    from datetime import tzinfo

# Instants datetime can show in any zone: a day inside its years 1-9999 (offsets stay under 26 hours).
_SAFE_MIN, _SAFE_MAX = -62135596800 + 2 * 86400, 253402300799 - 2 * 86400


def _offset_at(zone: tzinfo, unix: int) -> int:
    if zone is _dt.UTC:
        return 0
    # Beyond datetime's years, the offset of the nearest instant it can show: Go would use the zone's
    # first or last rule there, which can differ by hours — irrelevant to a date thousands of years from
    # now (recency 0.2 either way, or 1.0 for any future date).
    d = _dt.datetime.fromtimestamp(max(min(unix, _SAFE_MAX), _SAFE_MIN), zone)
    offset = d.utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


_EPOCH_ORD = _dt.date(1970, 1, 1).toordinal()


def local_midnight_unix(y: int, m: int, d: int, zone: tzinfo) -> int:
    """time.Date(y, m, d, 0, 0, 0, 0, loc).Unix() (time.go Date): the offset is looked up at the wall time
    read as UTC; if wall - offset leaves that zone period, the offset at wall - offset is used.
    This equals: off = offset_at(W - offset_at(W)). In a DST gap this is the *later* offset
    (Python fold=1), so a missing midnight maps to 23:xx of the previous day."""
    if y == 0:
        days = _dt.date(1, m, d).toordinal() - 366 - _EPOCH_ORD  # year 0 is a leap year
    else:
        days = _dt.date(y, m, d).toordinal() - _EPOCH_ORD
    w = days * 86400
    off1 = _offset_at(zone, w)
    off = _offset_at(zone, w - off1)
    return w - off


def parse_date(s: str) -> tuple[int, int, int] | None:
    """time.ParseInLocation("2006-01-02", s): exact 4-2-2 digits, month 1-12, day valid (year 0000 allowed)."""
    # ([0-9]{4})-([0-9]{2})-([0-9]{2}), checked without compiling a pattern (~70 µs of a cold `pack`)
    if len(s) != 10 or s[4] != "-" or s[7] != "-":
        return None
    digits = s[:4] + s[5:7] + s[8:]
    if not (digits.isascii() and digits.isdigit()):
        return None
    y, mo, d = int(s[:4]), int(s[5:7]), int(s[8:])
    if not 1 <= mo <= 12 or d < 1:
        return None
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    dim = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]
    if d > dim:
        return None
    return y, mo, d


def recency_days(date: str, now_unix_ns: int, zone: tzinfo) -> int | None:
    """int(now.Sub(entryDate).Hours() / 24), or None when the date does not parse."""
    p = parse_date(date)
    if p is None:
        return None
    mid = local_midnight_unix(*p, zone) * 1_000_000_000
    dur = now_unix_ns - mid
    dur = max(INT64_MIN, min(INT64_MAX, dur))  # Time.Sub saturates
    hour = 3_600_000_000_000
    h = go_div(dur, hour)
    rem = dur - h * hour
    hours = float(h) + float(rem) / 3600e9
    return f2i(hours / 24.0)
