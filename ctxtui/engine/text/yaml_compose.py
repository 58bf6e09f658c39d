"""PyYAML's node composition, bounded the way yaml.v3 bounds it, in linear time and without recursion.

ctx reads `.ctxrc` and steering front matter with yaml.v3 (libyaml's scanner
in Go), which accepts collections nested up to 10,000 levels and fails past
that with "exceeded max depth of 10000" (`scannerc.go:956-1010`: flow
levels and block indents alike). PyYAML's composer recurses once per level,
so a few hundred levels raised RecursionError where ctx read the file, and
its scanner looks through every pending simple key on every token, which
made 10,000 nested `[` take about 50 s. Here the composer is a loop, the
scanner keeps its pending keys in position order (so the nearest one is the
first and the stale ones are a prefix: the same answers in constant time),
and the depth limit is libyaml's. Node trees, tags and marks are PyYAML's,
but an alias stays an `AliasNode` pointing at its anchor's node (yaml.v3
decodes and counts each alias; `yaml_v3_decode`), and an anchor defined
twice is redefined, as in yaml.v3, where PyYAML refuses it. Tabs follow
libyaml's blank rules (a tab inside a plain scalar is part of it; one left of
a scalar's indentation is refused), where PyYAML refused every tab in a value.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.scanner import ScannerError

MAX_DEPTH = 10_000  # yaml.v3 scannerc.go max_flow_level and max_indents
_TOO_DEEP = f"nested deeper than yaml.v3 reads (exceeded max depth of {MAX_DEPTH})"


class _YamlV3Resolver(yaml.resolver.BaseResolver):
    """Plain untagged scalars get tag "?": yaml_v3.resolve() resolves them the yaml.v3 way later."""

    def resolve(self, kind: type[yaml.Node], value: str | None, implicit: Any) -> str:
        if kind is yaml.ScalarNode and implicit[0]:
            return "?"
        tag: str = super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
        return tag


class BoundedLoader(
    yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer, _YamlV3Resolver
):
    """Reader, scanner and parser from PyYAML with libyaml's tab rule and depth limit; a composer without recursion."""

    def __init__(self, stream: str | bytes) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        _YamlV3Resolver.__init__(self)

    # -- scanner ------------------------------------------------------------------------------

    def scan_to_next_token(self) -> None:
        # libyaml / yaml.v3 scannerc.go yaml_parser_scan_to_next_token: tabs are whitespace in flow
        # context or where a simple key is not allowed (e.g. after "key:"); PyYAML only skips spaces
        if self.index == 0 and self.peek() == "\ufeff":
            self.forward()
        found = False
        while not found:
            while self.peek() == " " or (self.peek() == "\t" and (self.flow_level or not self.allow_simple_key)):
                self.forward()
            if self.peek() == "#":
                while self.peek() not in "\0\r\n\x85\u2028\u2029":
                    self.forward()
            if self.scan_line_break():  # type: ignore[no-untyped-call]
                if not self.flow_level:
                    self.allow_simple_key = True
            else:
                found = True

    def scan_plain_spaces(self, indent: int, start_mark: Any) -> list[str] | None:
        """PyYAML's, with libyaml's blanks (yaml.v3 `yaml_parser_scan_plain_scalar`): a tab inside a plain
        scalar is part of it as a space is (`description: a<TAB>b` is "a<TAB>b"; PyYAML ended the scalar at
        the tab and refused it, so ctx's steering became "invalid YAML" and all of it was dropped), and
        after a line break a tab left of the scalar's indentation is refused as libyaml refuses it."""
        chunks: list[str] = []
        length = 0
        while self.peek(length) in " \t":
            length += 1
        whitespaces = self.prefix(length)
        self.forward(length)
        if self.peek() not in "\r\n\x85\u2028\u2029":
            if whitespaces:
                chunks.append(whitespaces)
            return chunks
        line_break = self.scan_line_break()  # type: ignore[no-untyped-call]
        self.allow_simple_key = True
        if self._document_indicator():
            return None
        breaks = []
        while self.peek() in " \t\r\n\x85\u2028\u2029":
            if self.peek() in " \t":
                if self.peek() == "\t" and self.column < indent:
                    raise ScannerError(
                        "while scanning a plain scalar",
                        start_mark,
                        "found a tab character that violates indentation",
                        self.get_mark(),
                    )
                self.forward()
            else:
                breaks.append(self.scan_line_break())  # type: ignore[no-untyped-call]
                if self._document_indicator():
                    return None
        if line_break != "\n":
            chunks.append(line_break)
        elif not breaks:
            chunks.append(" ")
        chunks.extend(breaks)
        return chunks

    def scan_block_scalar_indentation(self) -> tuple[list[str], int, Any]:
        """PyYAML's, refusing a tab where the indentation is being found, as libyaml does."""
        found: tuple[list[str], int, Any] = super().scan_block_scalar_indentation()
        self._no_tab_in_indentation(None)
        return found

    def scan_block_scalar_breaks(self, indent: int) -> tuple[list[str], Any]:
        """PyYAML's, refusing a tab left of the block scalar's indentation, as libyaml does (`|` then
        "  <TAB>x" is "found a tab character where an indentation space is expected" in yaml.v3)."""
        chunks = []
        end_mark = self.get_mark()
        while self.column < indent and self.peek() == " ":
            self.forward()
        self._no_tab_in_indentation(indent)
        while self.peek() in "\r\n\x85\u2028\u2029":
            chunks.append(self.scan_line_break())  # type: ignore[no-untyped-call]
            end_mark = self.get_mark()
            while self.column < indent and self.peek() == " ":
                self.forward()
            self._no_tab_in_indentation(indent)
        return chunks, end_mark

    def _no_tab_in_indentation(self, indent: int | None) -> None:
        if self.peek() == "\t" and (indent is None or self.column < indent):
            raise ScannerError(
                "while scanning a block scalar",
                None,
                "found a tab character where an indentation space is expected",
                self.get_mark(),
            )

    def _document_indicator(self) -> bool:
        prefix = self.prefix(3)
        return prefix in ("---", "...") and self.peek(3) in "\0 \t\r\n\x85\u2028\u2029"

    def fetch_flow_collection_start(self, TokenClass: Any) -> None:
        super().fetch_flow_collection_start(TokenClass)
        if self.flow_level > MAX_DEPTH:
            raise ScannerError(None, None, _TOO_DEEP, self.get_mark())

    def add_indent(self, column: int) -> bool:
        if not super().add_indent(column):
            return False
        if len(self.indents) > MAX_DEPTH:
            raise ScannerError(None, None, _TOO_DEEP, self.get_mark())
        return True

    # Pending simple keys, one per flow level, are saved in increasing flow level, which is
    # increasing position (a shallower level cannot save a key while a deeper one is open, and
    # closing a level removes its key): the dict's first value is the nearest, and since a key
    # goes stale by line or by distance, the stale ones are a prefix.

    def next_possible_simple_key(self) -> int | None:
        for key in self.possible_simple_keys.values():
            number: int = key.token_number
            return number
        return None

    def stale_possible_simple_keys(self) -> None:
        keys = self.possible_simple_keys
        stale = []
        for level, key in keys.items():
            if key.line == self.line and self.index - key.index <= 1024:
                break
            if key.required:
                raise ScannerError(
                    "while scanning a simple key", key.mark, "could not find expected ':'", self.get_mark()
                )
            stale.append(level)
        for level in stale:
            del keys[level]

    # -- composer -----------------------------------------------------------------------------

    def compose_node(self, parent: Any, index: Any) -> Any:
        """Composer.compose_node as a loop: anchors, aliases and node kinds exactly as PyYAML makes them."""
        open_nodes: list[list[Any]] = []  # [collection node, the mapping key waiting for its value]
        while True:
            node = self._next_node(open_nodes)
            while True:
                if node is not None:
                    if not open_nodes:
                        return node
                    frame = open_nodes[-1]
                    if isinstance(frame[0], yaml.SequenceNode):
                        frame[0].value.append(node)
                    elif frame[1] is _NO_KEY:
                        frame[1] = node
                    else:
                        frame[0].value.append((frame[1], node))
                        frame[1] = _NO_KEY
                    node = None
                top = open_nodes[-1][0]
                end = SequenceEndEvent if isinstance(top, yaml.SequenceNode) else MappingEndEvent
                if not self.check_event(end):
                    break
                top.end_mark = self.get_event().end_mark  # type: ignore[no-untyped-call]
                open_nodes.pop()
                node = top

    def _next_node(self, open_nodes: list[list[Any]]) -> Any:
        """A finished node (scalar, alias), or None after opening a collection (pushed on `open_nodes`)."""
        if self.check_event(AliasEvent):
            event = self.get_event()  # type: ignore[no-untyped-call]
            if event.anchor not in self.anchors:
                raise ComposerError(None, None, f"found undefined alias {event.anchor!r}", event.start_mark)
            return AliasNode(self.anchors[event.anchor], event.anchor, event.start_mark, event.end_mark)
        event = self.peek_event()  # type: ignore[no-untyped-call]
        anchor = (
            event.anchor
        )  # an anchor defined again replaces the first one (yaml.v3 parser.anchor), as PyYAML would not
        if self.check_event(ScalarEvent):
            return self.compose_scalar_node(anchor)
        start = self.get_event()  # type: ignore[no-untyped-call]
        kind = yaml.SequenceNode if isinstance(start, SequenceStartEvent) else yaml.MappingNode
        assert isinstance(start, (SequenceStartEvent, MappingStartEvent))
        tag = start.tag
        if tag is None or tag == "!":
            tag = self.resolve(kind, None, start.implicit)
        node = kind(tag, [], start.start_mark, None, flow_style=start.flow_style)  # type: ignore[arg-type]
        if anchor is not None:
            self.anchors[anchor] = node
        open_nodes.append([node, _NO_KEY])
        return None


_NO_KEY = object()


class AliasNode(yaml.Node):
    """An alias where it was written (yaml.v3's AliasNode): `value` is the anchor's name, `target` its node.

    yaml.v3 decodes an alias by decoding its target again, and counts it (`yaml_v3_decode`); PyYAML's own
    composer would hand back the target itself, so a merge-key bomb could not be told from a big document.
    """

    id = "alias"

    def __init__(self, target: yaml.Node, anchor: str, start_mark: Any, end_mark: Any) -> None:
        super().__init__("", anchor, start_mark, end_mark)
        self.target = target


def compose(text: str | bytes) -> Any:
    """The first document's node tree, or raises yaml.YAMLError (syntax, or deeper than yaml.v3 reads)."""
    loader = BoundedLoader(text)
    try:
        # yaml.v3's Unmarshal decodes only the first document
        if not loader.check_node():  # consumes StreamStart; False on an empty stream
            return None
        loader.get_event()  # type: ignore[no-untyped-call]  # DocumentStart
        node = loader.compose_node(None, None)
        loader.get_event()  # type: ignore[no-untyped-call]  # DocumentEnd (scans the next token, as libyaml does)
        return node
    finally:
        loader.dispose()
