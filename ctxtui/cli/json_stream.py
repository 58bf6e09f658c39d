"""JSON as `json.dumps(value, indent=2, ensure_ascii=True)` writes it, streamed a piece at a time.

`explain --all` and `sweep --format json` can list 50,000 entries (or as many
budgets as asked): the whole document as one string cost ~600 MB there, and
`json.dumps` with an indent runs the pure-Python encoder (~15 s). Here each
list item is written as it comes, and scalars go through the C encoders, so
the bytes are the same and memory stays flat. ASCII escapes keep the output
valid JSON even when the inputs held invalid UTF-8 (lone surrogates).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from json.encoder import encode_basestring_ascii  # type: ignore[attr-defined]
from typing import IO, Any

_INDENT = "  "


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str:
    """A key as json writes it: non-string keys (numbers, booleans, None) become their JSON text, quoted."""
    if not isinstance(key, str):
        key = _float(key) if isinstance(key, float) else json.dumps(key)
    return encode_basestring_ascii(key)  # type: ignore[no-any-return]


def pieces(value: Any, level: int = 0) -> list[str]:
    """The text of `value` at nesting `level`, in pieces (joined: `json.dumps(value, indent=2)`'s own)."""
    out: list[str] = []
    _encode(value, level, out)
    return out


def _encode(value: Any, level: int, out: list[str]) -> None:
    # Plain calls appending to one list: nested generators cost ~3x more per value.
    kind = type(value)
    if kind is str:
        out.append(encode_basestring_ascii(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float:
        out.append(_float(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = "\n" + _INDENT * (level + 1)
        separator = "{" + inner
        for key, item in value.items():
            out.append(separator)
            separator = "," + inner
            out.append(_key(key) + ": ")
            _encode(item, level + 1, out)
        out.append("\n" + _INDENT * level + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = "\n" + _INDENT * (level + 1)
        separator = "[" + inner
        for item in value:
            out.append(separator)
            separator = "," + inner
            _encode(item, level + 1, out)
        out.append("\n" + _INDENT * level + "]")
    elif isinstance(value, str):
        out.append(encode_basestring_ascii(value))
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    else:
        out.append(json.dumps(value, indent=2, ensure_ascii=True).replace("\n", "\n" + _INDENT * level))


def write_list(out: IO[str], items: Iterable[Any], level: int = 0) -> int:
    """Write a JSON list item by item (as `pieces` would the whole list); the number of items written."""
    inner = "\n" + _INDENT * (level + 1)
    count = 0
    for item in items:
        out.write(("[" if count == 0 else ",") + inner)
        out.write("".join(pieces(item, level + 1)))
        count += 1
    out.write("[]" if count == 0 else "\n" + _INDENT * level + "]")
    return count
