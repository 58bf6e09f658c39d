"""Where each top-level setting's value lies in `.ctxrc` text: spans from the YAML parser's own marks.

ctx reads `.ctxrc` with yaml.v3, the first document only. This walks the
parser events of that document (PyYAML's parser with libyaml's tab rule,
`yaml_compose.BoundedLoader`, so positions are those of the text ctx reads)
and records, for each key of the top-level mapping, the exact character span
of its value: a scalar with its anchor and tag, an alias, a whole collection
up to its last character (not the block's end, which the parser places after
any comments that follow). An editor replaces those spans and nothing else.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import yaml
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentEndEvent,
    MappingStartEvent,
    ScalarEvent,
    StreamEndEvent,
)

_BREAKS = " \t\r\n\x85\u2028\u2029"


class SpanError(ValueError):
    """The text cannot be edited by span: not YAML, or its first document is not a mapping."""


class Value(NamedTuple):
    """One top-level entry: its key (None when not a plain string), the key's end, the value's span."""

    key: str | None
    key_end: int
    start: int
    end: int
    anchor: str | None  # the value's own anchor (`key: &a value`)
    anchors: frozenset[str]  # every anchor defined inside the value


class Layout(NamedTuple):
    """The first document: how its root is written, its entries, and where a new entry goes."""

    kind: str  # "none" (no settings yet), "block" or "flow" (a mapping)
    values: tuple[Value, ...]
    aliased: frozenset[str]  # anchors some alias in the document refers to
    insert_at: int  # block/none: where a new line goes; flow: where ", key: value" goes
    indent: int  # block: the column of the keys
    flow_open: bool  # flow: nothing in the braces yet


def layout(text: str) -> Layout:
    """The layout of `text`'s first document, or `SpanError` saying why it cannot be edited by span."""
    from ctxtui.engine.text.yaml_compose import BoundedLoader

    loader = BoundedLoader(text)
    try:
        events = _first_document(loader)
    except yaml.YAMLError as exc:
        raise SpanError(f"is not valid YAML ({_where(exc)}); ctx applies nothing from it") from None
    except RecursionError:
        raise SpanError("is nested too deeply to edit") from None
    finally:
        loader.dispose()
    body, end = events
    if not body or _is_empty(body[0]):
        return Layout("none", (), frozenset(), _line_start(text, end), 0, False)
    root = body[0]
    if not isinstance(root, MappingStartEvent):
        raise SpanError("has a first document that is not a mapping of settings (ctx applies nothing from it)")
    aliased = frozenset(str(e.anchor) for e in body if isinstance(e, AliasEvent))
    values = _entries(text, body)
    if root.flow_style:
        close = _start(body[-1])  # the "}"
        return Layout("flow", values, aliased, values[-1].end if values else close, 0, not values)
    indent = body[1].start_mark.column
    return Layout("block", values, aliased, _line_start(text, end), indent, False)


def _start(event: Any) -> int:
    return int(event.start_mark.index)


def _end(event: Any) -> int:
    return int(event.end_mark.index)


def _where(error: yaml.YAMLError) -> str:
    problem = getattr(error, "problem", None) or "syntax error"
    mark = getattr(error, "problem_mark", None)
    return f"{problem}, line {mark.line + 1}" if mark is not None else str(problem)


def _first_document(loader: Any) -> tuple[list[Any], int]:
    """The first document's node events, and where it ends (the next `---`, `...` or the end of the text)."""
    loader.get_event()  # StreamStart
    if loader.check_event(StreamEndEvent):
        return [], loader.peek_event().start_mark.index
    loader.get_event()  # DocumentStart
    body = []
    while not loader.check_event(DocumentEndEvent):
        body.append(loader.get_event())
    return body, loader.get_event().start_mark.index


def _is_empty(event: Any) -> bool:
    return (
        isinstance(event, ScalarEvent) and event.value == "" and _start(event) == _end(event) and event.anchor is None
    )


def _line_start(text: str, at: int) -> int:
    """Where a new line goes for a document ending at `at`: that line's start (or the end, past a last line)."""
    start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    return start if not text[start:at].strip() else at


def _entries(text: str, body: list[Any]) -> tuple[Value, ...]:
    values = []
    index = 1
    while index < len(body) - 1:
        key = body[index]
        key_end, index = _node_end(text, body, index)
        start_event = body[index]
        end, after = _node_end(text, body, index)
        anchors = frozenset(
            e.anchor for e in body[index:after] if getattr(e, "anchor", None) and not isinstance(e, AliasEvent)
        )
        name = key.value if isinstance(key, ScalarEvent) else None
        own = start_event.anchor if not isinstance(start_event, AliasEvent) else None
        values.append(Value(name, key_end, _start(start_event), end, own, anchors))
        index = after
    return tuple(values)


def _node_end(text: str, body: list[Any], index: int) -> tuple[int, int]:
    """The end of the node starting at `body[index]` (its last character) and the index past its events."""
    event = body[index]
    if not isinstance(event, CollectionStartEvent):
        end = _end(event)
        if isinstance(event, ScalarEvent) and event.style in ("|", ">"):
            end = _trim(text, _start(event), end)  # a block scalar's span takes the line breaks after it
        return end, index + 1
    depth, last = 0, _end(event)
    while True:
        event = body[index]
        index += 1
        if isinstance(event, CollectionStartEvent):
            depth += 1
            if event.flow_style:
                last = max(last, _end(event))
        elif isinstance(event, CollectionEndEvent):
            depth -= 1
            if _start(event) != _end(event):  # a flow "]" or "}"; a block's end has no width
                last = max(last, _end(event))
            if depth == 0:
                return _trim(text, 0, last), index
        else:
            last = max(last, _end(event))


def _trim(text: str, floor: int, end: int) -> int:
    while end > floor and text[end - 1] in _BREAKS:
        end -= 1
    return end
