"""JavaScript semantics against what Node 20 (V8 11.3) printed for the same inputs.

The expected values were recorded by `scripts/record_node_js.py` into
`cases/node20-js.json`: Number→string (String and JSON.stringify), toFixed(0),
parseInt / Number / split(/\\s+/) / trim, JSON.parse's error messages,
JSON string escaping, `new Date(s)` in four time zones, Math.exp / log10 /
pow, and Unicode case mapping.
"""

from __future__ import annotations

import json
import math
import struct
from datetime import UTC
from zoneinfo import ZoneInfo

import pytest
from ctxtui.engine.text import js

from tests.packers.cortex.conftest import CASES

NODE = json.loads((CASES / "node20-js.json").read_text(encoding="utf-8"))


def _num(value: float) -> str:
    if value != value:
        return "NaN"
    if value == 0 and math.copysign(1, value) < 0:
        return "-0"
    return js.number_to_string(value)


def _failures(pairs):
    bad = [pair for pair in pairs if pair[1] != pair[2]]
    return bad[:5], len(bad)


def test_recorded_with_node_20():
    assert NODE["version"].startswith("v20.")


def test_number_to_string_json_and_to_fixed():
    rows = NODE["numbers"]
    assert len(rows) > 3000
    for hexbits, text, as_json, fixed in rows:
        x = struct.unpack(">d", bytes.fromhex(hexbits))[0]
        assert js.number_to_string(x) == text, hexbits
        assert js.json_stringify(x) == as_json, hexbits
        assert js.to_fixed0(x * 100) == fixed, hexbits


def test_parse_int_number_split_trim():
    for s, parsed, number, split, trimmed in NODE["parse_int"]:
        assert _num(js.parse_int(s)) == parsed, repr(s)
        assert _num(js.string_to_number(s)) == number, repr(s)
        assert json.dumps(js.split_whitespace(s), ensure_ascii=False, separators=(",", ":")) == split, repr(s)
        assert js.js_trim(s) == trimmed, repr(s)


def test_json_parse_error_messages():
    for text, error in NODE["json_errors"]:
        try:
            js.json_parse(text)
            got = None
        except js.JSError as exc:
            got = str(exc)
        assert got == error, repr(text)


def test_json_quote():
    for text, quoted in NODE["quote"]:
        assert js.json_quote(text) == quoted


@pytest.mark.parametrize("zone_name", ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"])
def test_date_parsing(zone_name):
    zone = UTC if zone_name == "UTC" else ZoneInfo(zone_name)
    for text, value in NODE["dates"][zone_name]:
        got = js.parse_date(text, zone)
        assert ("NaN" if got != got else got) == value, repr(text)


def test_v8_math():
    functions = {"exp": lambda a, b: js.v8_exp(a), "log10": lambda a, b: js.v8_log10(a), "pow": js.v8_pow}
    python = {"exp": lambda a, b: math.exp(a), "log10": lambda a, b: math.log10(a), "pow": math.pow}
    python_differs = 0
    for name, a, b, want in NODE["math"]:
        got = functions[name](a, b)
        assert (want is None and got != got) or got == float(want), (name, a, b)
        python_differs += want is not None and python[name](a, b) != float(want)
    assert python_differs > 0  # why the ports exist: Python's math is off by an ulp on some of these
    assert js.v8_pow(0.9, 4.0) == 0.6561000000000001 != 0.9**4


def test_case_mapping():
    for text, lower, upper in NODE["case"]:
        assert js.to_lower(text) == lower and js.to_upper(text) == upper, text


def test_utf16_helpers():
    assert js.utf16_len("a😀") == 3 and js.utf16_slice("abcdefg😀xyz", 0, 8) == "abcdefg\ud83d"
    assert js.console_text("abcdefg\ud83d...") == "abcdefg\ufffd..." and js.console_text("\ud83d\ude00") == "😀"


def test_v8_sort_with_nan_is_not_a_plain_stable_sort():
    """array-sort.tq: a NaN comparison counts as "equal", so `[0.5, NaN, 0.9].sort((a, b) => b - a)` is one
    non-descending run and stays as it is in Node; a plain descending sort would move 0.9 first."""
    cmp = lambda a, b: b - a  # noqa: E731
    assert repr(js.v8_sort([0.5, math.nan, 0.9], cmp)) == "[0.5, nan, 0.9]"
    assert js.v8_sort([0.1, 0.3, 0.2], cmp) == [0.3, 0.2, 0.1]
