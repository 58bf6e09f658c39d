"""`JSON.stringify` and `JSON.parse` as Node 20 runs them: key order, escapes, indentation, error messages.

Cortex prints its packet with `JSON.stringify(value, null, 2)` and reads
memories with `JSON.parse`; a blob that does not parse shows V8's message,
so a failure is re-read by a port of V8's parser for its wording.
"""

from __future__ import annotations

import json
import math
import struct
from typing import Any

from ctxtui.engine.text.js.numbers import number_to_string
from ctxtui.engine.text.js.values import UNDEFINED, JSError, own_keys


def json_quote(text: str) -> str:
    """`JSON.stringify(text)`: \\" \\\\ \\b \\f \\n \\r \\t, other C0 and lone surrogates as lowercase \\u00XX."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif code < 0x20:
            out.append(_SHORT_ESCAPES.get(ch) or f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


_SHORT_ESCAPES = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def json_stringify(value: Any, indent: int = 2, _level: int = 0) -> str:
    """`JSON.stringify(value, null, indent)` for JSON values (UNDEFINED members are left out).

    NaN and infinities print as null; objects list their keys in JavaScript
    order (array indices first).
    """
    if isinstance(value, str):
        return json_quote(value)
    if isinstance(value, float):
        return number_to_string(value) if math.isfinite(value) else "null"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    pad = " " * (indent * (_level + 1))
    end = " " * (indent * _level)
    if isinstance(value, dict):
        parts = [
            f"{pad}{json_quote(key)}: {json_stringify(value[key], indent, _level + 1)}"
            for key in own_keys(value)
            if value[key] is not UNDEFINED
        ]
        return "{\n" + ",\n".join(parts) + "\n" + end + "}" if parts else "{}"
    if isinstance(value, list):
        parts = [pad + ("null" if item is UNDEFINED else json_stringify(item, indent, _level + 1)) for item in value]
        return "[\n" + ",\n".join(parts) + "\n" + end + "]" if parts else "[]"
    if isinstance(value, int):
        return number_to_string(float(value))
    raise TypeError(f"not a JSON value: {value!r}")


# ---------------------------------------------------------------- JSON.parse


def _reject_constant(name: str) -> float:
    raise ValueError(name)


_DECODER = json.JSONDecoder(parse_int=float, parse_constant=_reject_constant)


def json_parse(text: str) -> Any:
    """`JSON.parse(text)`: numbers are floats; failures raise SyntaxError with Node 20's message.

    Valid JSON goes through Python's C decoder (the two accept exactly the
    same texts once NaN/Infinity are refused); only a failure is re-read by
    the port of V8's parser below, for its message.
    """
    try:
        return _DECODER.decode(text)
    except (ValueError, RecursionError):
        pass
    message = _V8JsonParser(text).error_message()
    raise JSError("SyntaxError", message)


class _JsonFailed(Exception):
    pass


class _V8JsonParser:
    """The error reporting of V8 11.3's JsonParser (json-parser.cc), on UTF-16 units.

    Positions and lengths are UTF-16 offsets, as in the messages Node prints.
    Only called for texts that are known to be invalid.
    """

    MAX_CONTEXT = 10  # kMaxContextCharacters
    MIN_FOR_CONTEXT = 2 * MAX_CONTEXT + 1  # kMinOriginalSourceLengthForContext

    def __init__(self, text: str) -> None:
        raw = text.encode("utf-16-le", "surrogatepass")
        self.units = struct.unpack(f"<{len(raw) // 2}H", raw)
        self.text = text
        self.n = len(self.units)
        self.pos = 0
        self.message = ""

    # -- reporting
    def fail(self, message: str) -> _JsonFailed:
        self.message = message
        return _JsonFailed()

    def at(self, message: str) -> _JsonFailed:
        return self.fail(f"{message} in JSON at position {self.pos}")

    def unexpected(self) -> _JsonFailed:
        """ReportUnexpectedToken for the character at the cursor, by its token class."""
        if self.pos >= self.n:
            return self.fail("Unexpected end of JSON input")
        c = self.units[self.pos]
        if c == 0x22:
            return self.at("Unexpected string")
        if c == 0x2D or 0x30 <= c <= 0x39:
            return self.at("Unexpected number")
        source = self.text
        if source in ("[object Object]", "undefined", "Infinity", "NaN"):
            return self.fail(f'"{source}" is not valid JSON')
        token = chr(c) if not 0xD800 <= c <= 0xDFFF else _unit_str(c)
        length = self.n
        if length >= self.MIN_FOR_CONTEXT:
            pos = self.pos
            if pos < self.MAX_CONTEXT:
                snippet = self.sub(0, pos + self.MAX_CONTEXT)
                return self.fail(f"Unexpected token '{token}', \"{snippet}\"... is not valid JSON")
            if pos < length - self.MAX_CONTEXT:
                snippet = self.sub(pos - self.MAX_CONTEXT, pos + self.MAX_CONTEXT)
                return self.fail(f"Unexpected token '{token}', ...\"{snippet}\"... is not valid JSON")
            snippet = self.sub(pos - self.MAX_CONTEXT, length)
            return self.fail(f"Unexpected token '{token}', ...\"{snippet}\" is not valid JSON")
        return self.fail(f"Unexpected token '{token}', \"{source}\" is not valid JSON")

    def sub(self, start: int, end: int) -> str:
        chunk = self.units[start:end]
        return struct.pack(f"<{len(chunk)}H", *chunk).decode("utf-16-le", "surrogatepass")

    # -- scanning
    def skip_ws(self) -> None:
        while self.pos < self.n and self.units[self.pos] in (0x20, 0x09, 0x0A, 0x0D):
            self.pos += 1

    def peek(self) -> int:
        return self.units[self.pos] if self.pos < self.n else -1

    def error_message(self) -> str:
        try:
            self.skip_ws()
            self.value()
            self.skip_ws()
            if self.pos < self.n:
                raise self.fail(f"Unexpected non-whitespace character after JSON at position {self.pos}")
        except _JsonFailed:
            return self.message
        except RecursionError:
            return "Maximum call stack size exceeded"
        return "Unexpected end of JSON input"  # not reached for invalid texts

    def value(self) -> None:
        c = self.peek()
        if c == 0x22:
            self.string()
        elif c == 0x2D or 0x30 <= c <= 0x39:
            self.number()
        elif c == 0x7B:
            self.obj()
        elif c == 0x5B:
            self.array()
        elif c == 0x74:
            self.literal("true")
        elif c == 0x66:
            self.literal("false")
        elif c == 0x6E:
            self.literal("null")
        else:
            raise self.unexpected()

    def literal(self, word: str) -> None:
        for ch in word:
            if self.peek() != ord(ch):
                raise self.unexpected()
            self.pos += 1

    def obj(self) -> None:
        self.pos += 1
        self.skip_ws()
        if self.peek() == 0x7D:
            self.pos += 1
            return
        first = True
        while True:
            if self.peek() != 0x22:
                raise self.at("Expected property name or '}'" if first else "Expected double-quoted property name")
            first = False
            self.string()
            self.skip_ws()
            if self.peek() != 0x3A:
                raise self.at("Expected ':' after property name")
            self.pos += 1
            self.skip_ws()
            self.value()
            self.skip_ws()
            if self.peek() == 0x2C:
                self.pos += 1
                self.skip_ws()
                continue
            if self.peek() == 0x7D:
                self.pos += 1
                return
            raise self.at("Expected ',' or '}' after property value")

    def array(self) -> None:
        self.pos += 1
        self.skip_ws()
        if self.peek() == 0x5D:
            self.pos += 1
            return
        while True:
            self.value()
            self.skip_ws()
            if self.peek() == 0x2C:
                self.pos += 1
                self.skip_ws()
                continue
            if self.peek() == 0x5D:
                self.pos += 1
                return
            raise self.at("Expected ',' or ']' after array element")

    def string(self) -> None:
        self.pos += 1
        while True:
            if self.pos >= self.n:
                raise self.at("Unterminated string")
            c = self.units[self.pos]
            if c == 0x22:
                self.pos += 1
                return
            if c < 0x20:
                raise self.at("Bad control character in string literal")
            if c == 0x5C:
                self.pos += 1
                if self.pos >= self.n:
                    raise self.fail("Unexpected end of JSON input")
                e = self.units[self.pos]
                if e == 0x75:
                    for _ in range(4):
                        self.pos += 1
                        if self.pos >= self.n or chr(self.units[self.pos]) not in "0123456789abcdefABCDEF":
                            raise self.at("Bad Unicode escape")
                elif e > 0xFF:  # outside V8's one-byte escape table: reported as a token
                    raise self.unexpected()
                elif e not in (0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74):
                    raise self.at("Bad escaped character")
            self.pos += 1

    def number(self) -> None:
        if self.peek() == 0x2D:
            self.pos += 1
            if not 0x30 <= self.peek() <= 0x39:
                raise self.at("No number after minus sign")
        if self.peek() == 0x30:
            self.pos += 1
            if 0x30 <= self.peek() <= 0x39:
                raise self.at("Unexpected number")
        else:
            while 0x30 <= self.peek() <= 0x39:
                self.pos += 1
        if self.peek() == 0x2E:
            self.pos += 1
            if not 0x30 <= self.peek() <= 0x39:
                raise self.at("Unterminated fractional number")
            while 0x30 <= self.peek() <= 0x39:
                self.pos += 1
        if self.peek() in (0x65, 0x45):
            self.pos += 1
            if self.peek() in (0x2B, 0x2D):
                self.pos += 1
            if not 0x30 <= self.peek() <= 0x39:
                raise self.at("Exponent part is missing a number")
            while 0x30 <= self.peek() <= 0x39:
                self.pos += 1


def _unit_str(unit: int) -> str:
    return struct.pack("<H", unit).decode("utf-16-le", "surrogatepass")
