"""Turning untrusted cell values into record fields, each with a reason when bent.

Every function returns `(value, complaint)`; the complaint is None when the
cell was fine, else a short phrase the adapter turns into a Problem naming the
file and row. Nothing here raises on bad data: one bad row must not cost the
user the other fifty thousand.
"""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, date, datetime
from typing import Any

from ctxtui.engine.text.json_depth import NestedTooDeeply, deeper_than

# Dates before this are a zero value or garbage, not a memory's birthday.
MIN_YEAR = 1970
MIN_DATE = f"{MIN_YEAR}-01-01"
DEFAULT_IMPORTANCE = 0.5
# JSON in a cell nested deeper than this is not parsed (Python's decoder recurses per level and
# would give up near 1,000, at a depth that depends on the caller): the cell is reported instead.
MAX_JSON_DEPTH = 200


# A lone UTF-16 surrogate: JSON's "\ud800" escape decodes to one, and no UTF-8 text can hold it.
_SURROGATE = re.compile("[\ud800-\udfff]")
SURROGATE_NOTE = "holds a lone surrogate (an unpaired \\ud800-\\udfff escape in its JSON): shown as U+FFFD"


def is_clean(text: str | None) -> bool:
    """True unless `text` holds a lone surrogate (which would fail every encode to UTF-8 later)."""
    return text is None or text.isascii() or _SURROGATE.search(text) is None


def without_surrogates(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD, as V8 and Go print one."""
    return _SURROGATE.sub("\ufffd", text)


def show(value: object, limit: int = 40) -> str:
    """A short, quoted rendering of an untrusted value for a problem message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def text(value: object) -> str | None:
    """A cell as str; None stays None. BLOBs are decoded leniently."""
    if value is None or type(value) is str:
        return value
    return text_of(value)


def text_of(value: object) -> str:
    """A cell that is not NULL as str; BLOBs are decoded leniently."""
    if type(value) is str:
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def timestamp(value: object) -> str:
    """A timestamp cell as stored, as text ("" when NULL)."""
    if value is None:
        return ""
    return value if type(value) is str else text_of(value)


def parse_when(value: object) -> datetime | None:
    """An ISO 8601 / RFC 3339 string or a Unix time (s or ms) as a datetime."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            return None
        seconds = value / 1000 if abs(value) > 1e11 else value
        try:
            return datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        pass
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        return None


def date_prefix(value: str) -> str | None:
    """The valid "YYYY-MM-DD" a timestamp starts with, else None.

    The date is read as written (in the writer's own offset) and decides on
    its own: a time part after "T" or a space is not validated, so whether a
    row's date counts never depends on another row.
    """
    if len(value) < 10 or (len(value) > 10 and value[10] not in "Tt "):
        return None
    prefix = value[:10]
    try:
        return date.fromisoformat(prefix).isoformat() if prefix[4] == "-" else None
    except ValueError:
        return None


def created_date(value: object) -> tuple[str | None, str | None]:
    """The "YYYY-MM-DD" a memory was created (see `date_prefix`), or why not.

    Other ISO 8601 shapes and Unix times are accepted through `parse_when`.
    """
    if value is None or value == "":
        return None, "created_at is missing: scored as undated"
    day = date_prefix(value) if type(value) is str else None
    if day is None:
        when = parse_when(value)
        if when is None:
            return None, f"created_at {show(value)} is not a date: scored as undated"
        day = when.date().isoformat()
    if day < MIN_DATE:
        return None, f"created_at {show(value)} is before {MIN_YEAR}: scored as undated"
    return day, None


def importance(value: Any) -> tuple[float, str | None]:
    """A 0..1 importance; out-of-range values are clamped, junk becomes 0.5.

    `value` is whatever the driver handed over (a number, text, a BLOB, a Decimal...).
    """
    if type(value) is float and 0.0 <= value <= 1.0:
        return value, None
    if value is None:
        return DEFAULT_IMPORTANCE, f"importance is missing: {DEFAULT_IMPORTANCE} used"
    if isinstance(value, bool):
        return DEFAULT_IMPORTANCE, f"importance {show(value)} is not a number: {DEFAULT_IMPORTANCE} used"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return DEFAULT_IMPORTANCE, f"importance {show(value)} is not a number: {DEFAULT_IMPORTANCE} used"
    if math.isnan(number):
        return DEFAULT_IMPORTANCE, f"importance is NaN: {DEFAULT_IMPORTANCE} used"
    if number < 0.0:
        return 0.0, f"importance {show(value)} is below 0: clamped to 0.0"
    if number > 1.0:
        return 1.0, f"importance {show(value)} is above 1: clamped to 1.0"
    return number, None


def confidence(value: object) -> tuple[float | None, str | None]:
    """Like importance, but NULL means unknown rather than a problem."""
    if value is None:
        return None, None
    number, complaint = importance(value)
    return number, complaint and complaint.replace("importance", "confidence")


def count(value: Any, name: str) -> tuple[int, str | None]:
    """A non-negative counter; NULL is 0 (`value`: whatever the driver handed over)."""
    if value is None:
        return 0, None
    if type(value) is int and value >= 0:
        return value, None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0, f"{name} {show(value)} is not a count: 0 used"
    if not math.isfinite(number) or number < 0:
        return 0, f"{name} {show(value)} is not a count: 0 used"
    return int(number), None


def tags(value: object) -> tuple[tuple[str, ...], str | None]:
    """A JSON array of tags (strings kept, other scalars stringified)."""
    if value is None or value == "" or value == "[]":
        return (), None
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str):
        return (), f"tags {show(value)} is not a JSON array: ignored"
    try:
        parsed = loads(value)
    except NestedTooDeeply as exc:
        return (), f"tags {show(value)} is {exc}: ignored"
    except ValueError:
        return (), f"tags {show(value)} is not valid JSON: ignored"
    if isinstance(parsed, str):
        return (parsed,), None
    if not isinstance(parsed, list):
        return (), f"tags {show(value)} is not a JSON array: ignored"
    found = tuple(t if type(t) is str else json.dumps(t) for t in parsed if t is not None)
    if not all(map(is_clean, found)):
        return tuple(map(without_surrogates, found)), f"a tag {SURROGATE_NOTE}"
    return found, None


_raw_decode = json.JSONDecoder().raw_decode


def loads(text: str) -> Any:
    """json.loads, faster for the common case of no surrounding whitespace.

    Raises ValueError for invalid JSON, and NestedTooDeeply (a ValueError) for
    JSON nested deeper than MAX_JSON_DEPTH, whatever the caller's stack.
    """
    if deeper_than(text, MAX_JSON_DEPTH):
        raise NestedTooDeeply(MAX_JSON_DEPTH)
    try:
        value, end = _raw_decode(text)
        if end == len(text):
            return value
    except ValueError:
        pass
    return json.loads(text)


def first_line(body: str | None, limit: int = 80) -> str:
    """A stand-in title: the first non-blank line of the body, shortened."""
    for line in (body or "").splitlines():
        line = line.strip()
        if line:
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return ""
