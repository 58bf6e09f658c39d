"""A Shabka row read the way Shabka reads it, or refused where Shabka refuses it.

`row_to_memory` (`core/storage/sqlite.rs:527-623`) turns a `memories` row into
a `Memory`; any failure there fails the whole `context-pack` (exit 1), so
this parser is strict where that one is:

- every text column must hold valid UTF-8 TEXT (`project_id`, `session_id`
  may be NULL); `importance` a REAL or INTEGER;
- kind, status, privacy and verification are read as the JSON string
  `"<text>"`, so they must be the exact snake_case name (escapes decoded);
- `source` and `scope` are serde internally tagged enums: a JSON object with
  one string `type` (or an array whose first element is the type), the
  variant's fields present once and of the right type, other keys ignored;
- `tags` a JSON array of strings; ids and session ids as `Uuid::parse_str`
  takes them (36-char hyphenated, 32 hex digits, `{…}`, `urn:uuid:…`);
- dates as chrono's RFC 3339 parser takes them (`dates.parse_rfc3339`).

JSON is read as serde_json reads it: no NaN or Infinity, no number past f64,
no lone surrogate escapes, no nesting of 128 levels or more (serde_json's
recursion limit: `{"type":"manual","x":[[…]]}` with 127 arrays inside fails
the row in Shabka, measured against the oracle).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from ctxtui.engine.packers.shabka.dates import DateError, Moment, parse_rfc3339
from ctxtui.engine.packers.shabka.floats import f32
from ctxtui.engine.sources.memory.shabka.store import COLUMNS, MISSING, BadText
from ctxtui.engine.text.json_depth import deeper_than

# A row is (rowid, *COLUMNS); these are the positions.
(
    ID,
    KIND,
    TITLE,
    CONTENT,
    SUMMARY,
    TAGS,
    SOURCE,
    SCOPE,
    IMPORTANCE,
    STATUS,
    PRIVACY,
    VERIFICATION,
    PROJECT_ID,
    SESSION_ID,
    CREATED_BY,
    CREATED_AT,
    UPDATED_AT,
    ACCESSED_AT,
) = range(1, 19)  # index 0 is the rowid

KINDS = ("observation", "decision", "pattern", "error", "fix", "preference", "fact", "lesson", "todo", "procedure")
STATUSES = ("active", "archived", "superseded", "pending")
PRIVACIES = ("public", "team", "private")
VERIFICATIONS = ("unverified", "verified", "disputed", "outdated")
# Internally tagged enums: variant → its fields and whether each is a UUID (`model/memory.rs:222-258`).
SOURCES = {"manual": (), "auto_capture": (("hook", False),), "import": (), "derived": (("from", True),)}
SCOPES = {"global": (), "project": (("id", False),), "session": (("id", True),)}


# serde_json's `remaining_depth` starts at 128 and fails when an opening bracket takes it to 0.
SERDE_MAX_DEPTH = 127


def _shown(value: Any, limit: int = 80) -> str:
    """A cell quoted for a message, cut short: a row can hold megabytes."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 1]}… ({len(text):,} characters)"


class RowError(ValueError):
    """Why Shabka cannot read a row: the column and the reason."""

    def __init__(self, column: str, reason: str):
        super().__init__(f"{column}: {reason}")
        self.column = column
        self.reason = reason


class Memory(NamedTuple):
    """A row as Shabka's `Memory`: canonical ids, parsed enums, f32 importance, UTC moments."""

    id: str  # lowercase hyphenated, as `Uuid` prints
    kind: str
    title: str
    content: str
    summary: str
    tags: tuple[str, ...]
    source: tuple[tuple[str, str], ...]  # ("type", variant) first, then the variant's fields
    scope: tuple[tuple[str, str], ...]
    importance: float
    status: str
    privacy: str
    verification: str
    project_id: str | None
    session_id: str | None
    created_by: str
    created_at: Moment
    updated_at: Moment
    accessed_at: Moment

    @property
    def source_type(self) -> str:
        return self.source[0][1]


def parse_uuid(text: str) -> str:
    """`Uuid::parse_str`, printed back as `Uuid` displays it (lowercase, hyphenated)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) == 38 and data[:1] == b"{" and data[-1:] == b"}":
        data = data[1:-1]
    elif len(data) == 45 and data[:9] == b"urn:uuid:":
        data = data[9:]
    if len(data) == 36:
        if data[8:9] + data[13:14] + data[18:19] + data[23:24] != b"----":
            raise ValueError("invalid UUID")
        data = data[:8] + data[9:13] + data[14:18] + data[19:23] + data[24:]
    elif len(data) != 32:
        raise ValueError("invalid UUID length")
    hexdigits = data.decode("ascii", "replace").lower()
    if len(hexdigits) != 32 or any(c not in "0123456789abcdef" for c in hexdigits):
        raise ValueError("invalid UUID character")
    return f"{hexdigits[:8]}-{hexdigits[8:12]}-{hexdigits[12:16]}-{hexdigits[16:20]}-{hexdigits[20:]}"


class _Object(list[tuple[str, Any]]):
    """A JSON object as its (key, value) pairs, duplicates kept."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError("number out of range")
    return value


def _check_strings(value: Any) -> None:
    if isinstance(value, str):
        if any("\ud800" <= c <= "\udfff" for c in value):
            raise ValueError("lone surrogate in a string")
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, tuple):
                _check_strings(item[0])
                _check_strings(item[1])
            else:
                _check_strings(item)


def strict_json(text: str) -> Any:
    """json.loads with serde_json's refusals; objects come back as `_Object` pair lists."""
    if deeper_than(text, SERDE_MAX_DEPTH):
        raise ValueError("recursion limit exceeded")
    value = json.loads(text, object_pairs_hook=_Object, parse_constant=_no_constant, parse_float=_finite)
    _check_strings(value)
    return value


def _text(raw: Sequence[Any], index: int, nullable: bool = False) -> Any:
    value = raw[index]
    name = COLUMNS[index - 1]
    if value is MISSING:
        raise RowError(name, "no such column in this store")
    if value is None and nullable:
        return None
    if isinstance(value, BadText):
        raise RowError(name, "is not valid UTF-8")
    if not isinstance(value, str):
        kind = "NULL" if value is None else type(value).__name__.replace("bytes", "BLOB")
        raise RowError(name, f"holds {kind}, not text")
    return value


def _enum(raw: Sequence[Any], index: int, names: tuple[str, ...]) -> str:
    text = _text(raw, index)
    try:
        value = json.loads(f'"{text}"')
    except ValueError:
        value = None
    if value not in names:
        raise RowError(COLUMNS[index - 1], f"unknown variant {text!r} (expected one of {', '.join(names)})")
    return str(value)


def _tagged(
    raw: Sequence[Any], index: int, variants: dict[str, tuple[tuple[str, bool], ...]]
) -> tuple[tuple[str, str], ...]:
    """serde's internally tagged enum (`tag = "type"`) from JSON text."""
    column = COLUMNS[index - 1]
    text = _text(raw, index)
    try:
        value = strict_json(text)
    except ValueError as exc:
        raise RowError(column, f"is not valid JSON ({exc})") from None
    if isinstance(value, _Object):
        tags = [v for k, v in value if k == "type"]
        if len(tags) > 1:
            raise RowError(column, "duplicate field `type`")
        if not tags:
            raise RowError(column, "missing field `type`")
        tag, rest = tags[0], []
        fields: Any = [(k, v) for k, v in value if k != "type"]
    elif isinstance(value, list):
        if not value:
            raise RowError(column, "missing field `type`")
        tag, rest = value[0], value[1:]
        fields = None
    else:
        raise RowError(column, f'{_shown(text)} is not a tagged object like {{"type": "..."}}')
    if not isinstance(tag, str):
        raise RowError(column, "`type` is not a string")
    if tag not in variants:
        raise RowError(column, f"unknown variant {tag!r}")
    wanted = variants[tag]
    out: list[tuple[str, str]] = [("type", tag)]
    if fields is None:  # the sequence form: the variant's fields in order, nothing more
        if len(rest) != len(wanted):
            raise RowError(column, f"invalid length {len(rest)} for variant {tag!r}")
        values = list(rest)
    else:
        values = []
        for name, _ in wanted:
            found = [v for k, v in fields if k == name]
            if len(found) > 1:
                raise RowError(column, f"duplicate field `{name}`")
            if not found:
                raise RowError(column, f"missing field `{name}`")
            values.append(found[0])
    for (name, is_uuid), item in zip(wanted, values, strict=True):
        if not isinstance(item, str):
            raise RowError(column, f"field `{name}` is not a string")
        if is_uuid:
            try:
                item = parse_uuid(item)
            except ValueError:
                raise RowError(column, f"field `{name}` is not a UUID") from None
        out.append((name, item))
    return tuple(out)


def parse_tags(text: str) -> tuple[str, ...]:
    """A JSON array of strings, or ValueError."""
    value = strict_json(text)
    if not isinstance(value, list) or isinstance(value, _Object) or not all(isinstance(t, str) for t in value):
        raise ValueError("not a JSON array of strings")
    return tuple(value)


def _date(raw: Sequence[Any], index: int) -> Moment:
    text = _text(raw, index)
    try:
        return parse_rfc3339(text)
    except DateError as exc:
        raise RowError(COLUMNS[index - 1], f"{_shown(text)} is not an RFC 3339 date ({exc})") from None


def importance_of(value: Any) -> float:
    """`importance as f64 as f32`; ValueError when not a number."""
    if value is MISSING or isinstance(value, (str, bytes)) or value is None:
        raise ValueError("not a number")
    return f32(float(value))


def parse_memory(raw: Sequence[Any]) -> Memory:
    """The `Memory` Shabka reads from a store row (rowid first, then `COLUMNS`), or RowError."""
    for index in (ID, KIND, STATUS, PRIVACY, VERIFICATION, SOURCE, SCOPE, TAGS, CREATED_AT, UPDATED_AT, ACCESSED_AT):
        _text(raw, index)
    project_id = _text(raw, PROJECT_ID, nullable=True)
    session_text = _text(raw, SESSION_ID, nullable=True)
    kind = _enum(raw, KIND, KINDS)
    status = _enum(raw, STATUS, STATUSES)
    privacy = _enum(raw, PRIVACY, PRIVACIES)
    verification = _enum(raw, VERIFICATION, VERIFICATIONS)
    source = _tagged(raw, SOURCE, SOURCES)
    scope = _tagged(raw, SCOPE, SCOPES)
    try:
        tags = parse_tags(raw[TAGS])
    except ValueError as exc:
        raise RowError("tags", f"{_shown(raw[TAGS])} is {exc}") from None
    try:
        memory_id = parse_uuid(raw[ID])
    except ValueError:
        raise RowError("id", f"{_shown(raw[ID])} is not a UUID") from None
    try:
        session_id = None if session_text is None else parse_uuid(session_text)
    except ValueError:
        raise RowError("session_id", f"{_shown(session_text)} is not a UUID") from None
    created, updated, accessed = _date(raw, CREATED_AT), _date(raw, UPDATED_AT), _date(raw, ACCESSED_AT)
    try:
        importance = importance_of(raw[IMPORTANCE])
    except ValueError:
        raise RowError("importance", f"{_shown(raw[IMPORTANCE])} is not a number") from None
    return Memory(
        memory_id,
        kind,
        _text(raw, TITLE),
        _text(raw, CONTENT),
        _text(raw, SUMMARY),
        tags,
        source,
        scope,
        importance,
        status,
        privacy,
        verification,
        project_id,
        session_id,
        _text(raw, CREATED_BY),
        created,
        updated,
        accessed,
    )
