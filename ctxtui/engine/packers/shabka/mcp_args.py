"""The arguments of Shabka's `get_context` MCP tool, taken as rmcp and serde take them.

`GetContextParams` (`crates/shabka-mcp/src/server.rs:281-303`, commit
`1a194cdf`) is a serde struct: `query: String` (default `"*"`),
`project_id`, `kind` and `tags: Option<String>`, `token_budget: usize`
(default 2000). rmcp 0.16 hands the tool call's `arguments` object (absent or
`null`: an empty one) to `serde_json::from_value` and answers a failure with
the JSON-RPC error `{"code":-32602,"message":"failed to deserialize
parameters: …"}` (`handler/server/tool.rs:166-179`, `model.rs:464-476`: no
`data` member). What that message says follows from:

- serde_json's object is a `BTreeMap` (Shabka's lock file has no
  `preserve_order`), so the fields are read in key order and the first bad
  one is the one named; a repeated key keeps its last value; other keys are
  ignored;
- `null` is `None` for the three optional fields, and wrong for the two others;
- numbers as serde_json parses them (`de.rs:480-528`): an integer up to
  2^64-1 is unsigned, a negative one down to -2^63 signed, `-0` and anything
  beyond those a float; a usize takes only the unsigned ones;
- the wording is serde's and serde_json's: `invalid type: {what}, expected
  {want}` / `invalid value: …`, `{what}` being `null`, ``boolean `true` ``,
  ``integer `-1` ``, ``floating point `2000.0` `` (zmij's spelling),
  `string "…"` (Rust's `{:?}`), `sequence` or `map`; `{want}` is `a string`
  or `usize`.

Text that no MCP client can send (not JSON, a lone surrogate, a number
beyond f64, arguments that are neither an object nor null) never reaches the
tool: `McpArgsInvalid` says so, apart from the tool's own errors.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ctxtui.engine.packers.shabka.rust_text import debug_str, f64_text

DEFAULT_QUERY = "*"  # default_context_query (server.rs:341-343)
DEFAULT_TOKEN_BUDGET = 2000  # default_token_budget (server.rs:345-347)
INVALID_PARAMS = -32602
U64_MAX = 2**64 - 1
I64_MIN = -(2**63)
SERDE_DEPTH = 127  # serde_json's remaining_depth starts at 128 and fails when it reaches 0 (de.rs)
REQUEST_DEPTH = 2  # the JSON-RPC message and its params hold the arguments object
FIELDS = ("kind", "project_id", "query", "tags", "token_budget")  # GetContextParams' keys, in BTreeMap order


@dataclass(frozen=True, slots=True)
class McpArgs:
    """`GetContextParams` after serde: what the handler sees."""

    query: str = DEFAULT_QUERY
    project_id: str | None = None
    kind: str | None = None
    tags: str | None = None
    token_budget: int = DEFAULT_TOKEN_BUDGET

    present: frozenset[str] = frozenset()  # the keys the arguments object held (unknown ones left out)


class McpToolError(Exception):
    """The JSON-RPC error object the client receives instead of a result."""

    def __init__(self, code: int, message: str, data: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data  # the `data` member as JSON text, or None (left out, as rmcp skips a None)

    def to_json(self) -> str:
        """The object as serde_json writes it inside the response: compact, in ErrorData's field order."""
        from ctxtui.engine.packers.shabka.render import json_string

        data = "" if self.data is None else f',"data":{self.data}'
        return f'{{"code":{self.code},"message":{json_string(self.message)}{data}}}'


class McpArgsInvalid(ValueError):
    """Text an MCP client cannot send as a tool call's arguments: the request would never reach the tool."""


class _Value:
    """A JSON value as serde_json's `Value` holds it: its kind, and the payload serde's messages print."""

    __slots__ = ("kind", "value")

    def __init__(self, kind: str, value: Any = None) -> None:
        self.kind = kind  # null, bool, u64, i64, f64, string, seq, map
        self.value = value

    def unexpected(self) -> str:
        """serde_json's `JsonUnexpected` for this value (`error.rs:465-478`)."""
        if self.kind == "null":
            return "null"
        if self.kind == "bool":
            return f"boolean `{'true' if self.value else 'false'}`"
        if self.kind in ("u64", "i64"):
            return f"integer `{self.value}`"
        if self.kind == "f64":
            return f"floating point `{f64_text(self.value)}`"
        if self.kind == "string":
            return f"string {debug_str(self.value)}"
        return "sequence" if self.kind == "seq" else "map"


def parse_args_json(text: str) -> McpArgs:
    """The tool call's arguments (JSON text: an object or null) as the handler gets them.

    Raises `McpToolError` where rmcp answers with an error, `McpArgsInvalid`
    where the text is no tool call's arguments at all.
    """
    return tool_arguments(text, {})


def tool_arguments(text: str | None, replaced: dict[str, str]) -> McpArgs:
    """The arguments object `text` (None: absent) with some keys replaced, each by the JSON text of its value."""
    members = _members(text) if text is not None else {}
    for key, value in replaced.items():
        members[key] = _parse(value)
    return arguments_of(members)


def _members(text: str) -> dict[str, Any]:
    tree = _parse(text)
    if _depth(tree) + REQUEST_DEPTH > SERDE_DEPTH:
        raise McpArgsInvalid(f"nested more deeply than serde_json reads ({SERDE_DEPTH} levels in the whole request)")
    if tree is None:
        return {}
    if not isinstance(tree, dict):
        raise McpArgsInvalid(f"a tool call's arguments are an object or null, not a {_word(tree)}")
    return tree


def _parse(text: str) -> Any:
    """JSON text as serde_json reads it: numbers as u64/i64/f64 `_Value`s, strings checked for lone surrogates."""
    try:
        tree = json.loads(
            text,
            object_pairs_hook=_object,
            parse_int=_integer,
            parse_float=_float,
            parse_constant=_constant,
        )
    except ValueError as exc:
        if isinstance(exc, McpArgsInvalid):
            raise
        raise McpArgsInvalid(f"not JSON: {exc}") from None
    except RecursionError:
        raise McpArgsInvalid(f"nested more deeply than serde_json reads ({SERDE_DEPTH} levels)") from None
    _strings_checked(tree)
    return tree


def arguments_of(members: dict[str, Any]) -> McpArgs:
    """`serde_json::from_value::<GetContextParams>` over a parsed object (keys in BTreeMap order)."""
    fields: dict[str, Any] = {}
    for key in sorted(members):
        if key not in FIELDS:
            continue  # serde ignores unknown fields
        value = _wrap(members[key])
        if key == "token_budget":
            fields[key] = _usize(value)
        elif key == "query":
            fields[key] = _string(value)
        else:
            fields[key] = None if value.kind == "null" else _string(value)
    return McpArgs(**fields, present=frozenset(k for k in members if k in FIELDS))


def _fail(kind: str, value: _Value, expected: str) -> McpToolError:
    return McpToolError(
        INVALID_PARAMS, f"failed to deserialize parameters: invalid {kind}: {value.unexpected()}, expected {expected}"
    )


def _string(value: _Value) -> str:
    if value.kind != "string":
        raise _fail("type", value, "a string")
    text: str = value.value
    return text


def _usize(value: _Value) -> int:
    if value.kind == "u64":
        number: int = value.value
        return number
    if value.kind == "i64":
        raise _fail("value", value, "usize")  # serde's int_to_uint: a negative signed integer
    raise _fail("type", value, "usize")


def _wrap(raw: Any) -> _Value:
    if isinstance(raw, _Value):
        return raw
    if raw is None:
        return _Value("null")
    if isinstance(raw, bool):
        return _Value("bool", raw)
    if isinstance(raw, str):
        return _Value("string", raw)
    if isinstance(raw, list):
        return _Value("seq")
    return _Value("map")


def _word(tree: Any) -> str:
    if isinstance(tree, _Value):
        return "number"
    if isinstance(tree, bool):
        return "boolean"
    return "string" if isinstance(tree, str) else "sequence"


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    for key, _ in pairs:
        _check_text(key)
    return dict(pairs)  # a repeated key keeps its last value, as a BTreeMap insert does


def _integer(literal: str) -> _Value:
    """serde_json's `parse_integer`: u64, else i64, else (`-0`, or out of range) f64."""
    number = int(literal)
    if literal.startswith("-"):
        if number == 0 or number < I64_MIN:
            return _float(literal)
        return _Value("i64", number)
    if number > U64_MAX:
        return _float(literal)
    return _Value("u64", number)


def _float(literal: str) -> _Value:
    number = float(literal)
    if math.isinf(number):
        raise McpArgsInvalid(f"the number {literal[:40]} is beyond an f64: serde_json refuses it (number out of range)")
    return _Value("f64", number)


def _constant(name: str) -> _Value:
    raise McpArgsInvalid(f"{name} is not JSON: serde_json refuses it")


def _check_text(text: str) -> None:
    if any("\ud800" <= c <= "\udfff" for c in text):
        raise McpArgsInvalid("a string holds a lone surrogate (\\ud800-\\udfff): serde_json refuses it")


def _depth(value: Any) -> int:
    """How many arrays and objects deep `value` nests (iteratively: the tree may be deep)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for v in item)
    return deepest


def _strings_checked(value: Any) -> None:
    if isinstance(value, str):
        _check_text(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings_checked(item)
    elif isinstance(value, list):
        for item in value:
            _strings_checked(item)
