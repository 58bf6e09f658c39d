"""JSON values as JavaScript sees them: `undefined`, ToString/ToNumber/ToPrimitive, truthiness, property reads.

Cortex's memories are whatever `JSON.parse` made of a database blob, so the
port reads them with JavaScript's rules, TypeErrors included (a TypeError
ends Cortex's run with a message the packet must match).
"""

from __future__ import annotations

import math
from typing import Any

from ctxtui.engine.text.js.numbers import number_to_string, string_to_number
from ctxtui.engine.text.js.strings import utf16_len, utf16_slice


class _Undefined:
    """JavaScript's `undefined`: a property that is not there."""

    __slots__ = ()
    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "UNDEFINED"


UNDEFINED: Any = _Undefined()


class JSError(Exception):
    """An exception as JavaScript would throw it; `str()` is `String(error)`, e.g. "TypeError: x is not a function"."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


def type_error(message: str) -> JSError:
    return JSError("TypeError", message)


# Names that every plain object inherits from Object.prototype: reading one
# gives a function (or, for __proto__, Object.prototype itself), never undefined.
OBJECT_PROTOTYPE_NAMES = frozenset(
    (
        "constructor",
        "toString",
        "toLocaleString",
        "valueOf",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
        "__proto__",
    )
)


def is_nullish(value: Any) -> bool:
    return value is None or value is UNDEFINED


def truthy(value: Any) -> bool:
    """ToBoolean: false for undefined, null, false, 0, -0, NaN and ""; true for every object, even empty."""
    if value is UNDEFINED or value is None or value is False:
        return False
    if value is True:
        return True
    if isinstance(value, float):
        return not (value == 0.0 or value != value)
    if isinstance(value, str):
        return value != ""
    return True


def _object_to_primitive(value: dict[str, Any] | list[Any]) -> str:
    """OrdinaryToPrimitive of a JSON object or array (either hint: valueOf gives the object back).

    Arrays become their join(","); plain objects "[object Object]" — unless the
    JSON gave them an own `toString` (or `valueOf`) that is not a function,
    which leaves no way to a primitive.
    """
    if isinstance(value, list):
        return _join(value, ",")
    if "toString" in value:
        raise type_error("Cannot convert object to primitive value")
    return "[object Object]"


def to_primitive(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return _object_to_primitive(value)
    return value


def to_string(value: Any) -> str:
    """ToString, as a template literal `${value}` or Array.prototype.join applies it."""
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return number_to_string(value)
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (dict, list)):
        return _object_to_primitive(value)
    if isinstance(value, int):
        return number_to_string(float(value))
    raise TypeError(f"not a JavaScript value: {value!r}")


def _join(items: list[Any], separator: str) -> str:
    """Array.prototype.join: null and undefined elements print as ""."""
    return separator.join("" if item is None or item is UNDEFINED else to_string(item) for item in items)


def to_number(value: Any) -> float:
    """ToNumber, as `value * 0.3` applies it."""
    if isinstance(value, float):
        return value
    if value is UNDEFINED:
        return math.nan
    if value is None or value is False:
        return 0.0
    if value is True:
        return 1.0
    if isinstance(value, str):
        return string_to_number(value)
    if isinstance(value, (dict, list)):
        return string_to_number(_object_to_primitive(value))
    if isinstance(value, int):
        return float(value)
    raise TypeError(f"not a JavaScript value: {value!r}")


def add(left: Any, right: Any) -> Any:
    """The `+` operator: string concatenation when either side is (or becomes) a string."""
    left, right = to_primitive(left), to_primitive(right)
    if isinstance(left, str) or isinstance(right, str):
        return to_string(left) + to_string(right)
    return to_number(left) + to_number(right)


def to_property_key(value: Any) -> str:
    """The key `object[value]` reads: ToPropertyKey (every JSON value becomes a string)."""
    return value if isinstance(value, str) else to_string(value)


def is_array_index(key: str) -> bool:
    """A canonical array index ("0", "17", not "017"): such keys come first in an object's key order."""
    return key.isdigit() and key.isascii() and (key == "0" or key[0] != "0") and int(key) < 4294967295


def own_keys(obj: dict[str, Any]) -> list[str]:
    """An object's keys in JavaScript order: array indices ascending, then the rest in insertion order."""
    indices = [key for key in obj if is_array_index(key)]
    if not indices:
        return list(obj)
    indices.sort(key=int)
    return indices + [key for key in obj if not is_array_index(key)]


def get(value: Any, key: str) -> Any:
    """`value.key` (or `value[key]`) for JSON values; TypeError on null and undefined.

    Only the properties Cortex reads are modelled: own properties of objects,
    `length` and indices of strings (in UTF-16 units) and arrays.
    """
    if isinstance(value, dict):
        return value.get(key, UNDEFINED)
    if value is UNDEFINED or value is None:
        raise type_error(f"Cannot read properties of {to_string(value)} (reading '{key}')")
    if isinstance(value, list):
        if key == "length":
            return float(len(value))
        if is_array_index(key):
            index = int(key)
            return value[index] if index < len(value) else UNDEFINED
        return UNDEFINED
    if isinstance(value, str):
        if key == "length":
            return float(utf16_len(value))
        if is_array_index(key):
            index = int(key)
            return utf16_slice(value, index, index + 1) if index < utf16_len(value) else UNDEFINED
        return UNDEFINED
    return UNDEFINED


def get_optional(value: Any, key: str) -> Any:
    """`value?.key`."""
    return UNDEFINED if value is None or value is UNDEFINED else get(value, key)


def call_slice(value: Any, start: int, end: int, callee: str) -> Any:
    """`value.slice(start, end)`: strings in UTF-16 units, arrays by element; `callee` names it in a TypeError."""
    if isinstance(value, str):
        return utf16_slice(value, start, end)
    if isinstance(value, list):
        return value[start:end]
    if value is None or value is UNDEFINED:
        raise type_error(f"Cannot read properties of {to_string(value)} (reading 'slice')")
    raise type_error(f"{callee} is not a function")


def call_join(value: Any, separator: str, callee: str) -> str:
    """`value.join(separator)`; `callee` is the source text V8 names in "… is not a function"."""
    if isinstance(value, list):
        return _join(value, separator)
    if value is None or value is UNDEFINED:
        raise type_error(f"Cannot read properties of {to_string(value)} (reading 'join')")
    raise type_error(f"{callee} is not a function")


class SameValueZeroKey:
    """Map/Set keys as JavaScript compares them: NaN equals NaN, 0 equals -0, objects by identity."""

    @staticmethod
    def of(value: Any) -> tuple[Any, ...]:
        if isinstance(value, (dict, list)):
            return ("object", id(value))
        if isinstance(value, float):
            if value != value:
                return ("number", "NaN")
            return ("number", value + 0.0)
        if value is UNDEFINED:
            return ("undefined",)
        if value is None:
            return ("null",)
        if isinstance(value, bool):
            return ("boolean", value)
        return ("string", value)
