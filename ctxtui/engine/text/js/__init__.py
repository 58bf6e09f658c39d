"""JavaScript's string, number, value and JSON semantics, where they differ from Python's.

Cortex (drift v1) is TypeScript run by Node 20 (V8 11.3). Its packet is
printed by `JSON.stringify` and template literals, its tokens are UTF-16
lengths, its scores go through V8's own `Math.exp`, `Math.log10` and
`Math.pow`, and its memories are whatever `JSON.parse` made of a database
blob — strings where numbers were meant, objects where strings were meant.
Byte-exact output needs JavaScript's answer to each of those, so every one
has one definition here:

- strings: UTF-16 length and slicing, `\\s` for `split(/\\s+/)` and `trim()`,
  case mapping, what `console.log` does to a lone surrogate;
- numbers: `Number.prototype.toString` (shortest round trip, JS exponent
  rules), `toFixed(0)`, `parseInt(s, 10)`, `Number(s)`, `Math.ceil`;
- values: JSON values as Python values (`UNDEFINED` for a missing property,
  every number a float), ToString/ToNumber/ToPrimitive, truthiness,
  property reads and the TypeErrors V8 throws for them;
- `JSON.parse` with Node 20's error messages, `JSON.stringify` with its
  key order, escapes and indentation;
- `new Date(value).getTime()`: V8's date parser (ES5 ISO strings and the
  legacy forms), local time through a time zone given by the caller;
- V8's fdlibm ports of exp/log10/pow and its Array.prototype.sort for short
  arrays (where an inconsistent comparator makes the algorithm visible).

Pure and deterministic: no clock, no locale, the time zone is a parameter.

One module a job (strings, numbers, values, json_text, dates, v8_math,
v8_sort); this package's namespace is the one place callers import from.
"""

from __future__ import annotations

from ctxtui.engine.text.js.dates import (
    date_value,
    parse_date,
)
from ctxtui.engine.text.js.json_text import (
    json_parse,
    json_quote,
    json_stringify,
)
from ctxtui.engine.text.js.numbers import (
    js_ceil,
    js_max,
    js_min,
    number_to_string,
    parse_int,
    string_to_number,
    to_fixed0,
)
from ctxtui.engine.text.js.strings import (
    JS_WHITESPACE,
    console_text,
    js_trim,
    split_whitespace,
    to_lower,
    to_upper,
    utf16_len,
    utf16_slice,
)
from ctxtui.engine.text.js.v8_math import (
    v8_exp,
    v8_log10,
    v8_pow,
)
from ctxtui.engine.text.js.v8_sort import (
    v8_sort,
)
from ctxtui.engine.text.js.values import (
    OBJECT_PROTOTYPE_NAMES,
    UNDEFINED,
    JSError,
    SameValueZeroKey,
    add,
    call_join,
    call_slice,
    get,
    get_optional,
    is_array_index,
    is_nullish,
    own_keys,
    to_number,
    to_primitive,
    to_property_key,
    to_string,
    truthy,
    type_error,
)

__all__ = [
    "JS_WHITESPACE",
    "OBJECT_PROTOTYPE_NAMES",
    "UNDEFINED",
    "JSError",
    "SameValueZeroKey",
    "add",
    "call_join",
    "call_slice",
    "console_text",
    "date_value",
    "get",
    "get_optional",
    "is_array_index",
    "is_nullish",
    "js_ceil",
    "js_max",
    "js_min",
    "js_trim",
    "json_parse",
    "json_quote",
    "json_stringify",
    "number_to_string",
    "own_keys",
    "parse_date",
    "parse_int",
    "split_whitespace",
    "string_to_number",
    "to_fixed0",
    "to_lower",
    "to_number",
    "to_primitive",
    "to_property_key",
    "to_string",
    "to_upper",
    "truthy",
    "type_error",
    "utf16_len",
    "utf16_slice",
    "v8_exp",
    "v8_log10",
    "v8_pow",
    "v8_sort",
]
