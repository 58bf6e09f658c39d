"""The node tree yaml.v3 decodes into a struct of scalar and `[]string` fields, without the values it never reads.

ctx decodes steering front matter into a struct of five fields. yaml.v3's
decoder reads, in a mapping decoded into that struct, the value of a key
only when the key names a field (or is a `<<` merge), and in a mapping
decoded into a string, number or slice, no value at all: only the keys, for
its duplicate-key check and its step count (`yaml_v3_decode`). Nothing else
reaches a value but an alias to an anchor inside it. So 100,000 keys ctx
ignores need not be 100,000 value nodes (93 times the file with PyYAML's
nodes and marks): here, a pair whose key is an untagged (or `!!str`) scalar
naming no field is composed to nothing, and consecutive such pairs are one
count in the mapping's list (`PrunedMapping`). A value holding an anchor is
still composed, and its anchor registered, as yaml.v3's parser would.

The events come from libyaml's C parser (the scanner yaml.v3 was ported
from, bundled with PyYAML: 20 times faster than PyYAML's own), fed the
text in pieces, where its events are known to be `BoundedLoader`'s
(`_libyaml_agrees`; a hypothesis test holds them equal). Otherwise, and
where libyaml refuses the text (a syntax error, its nesting limit of 1,000
below yaml.v3's 10,000, a character it rejects) or is missing, the events
are read from `BoundedLoader`, so an error is PyYAML's as before. A
collection or an alias used as a key could reach a pruned value (yaml.v3
decodes such a key into `interface {}` in a merge, and that reads
everything): then the whole tree is composed as `yaml_compose.compose` does.

A mapping's duplicate-key check is done here, where its keys go past: each
key's hash is kept, and only if two hashes agree is the document read again,
keeping the key texts of that mapping, to name the first key that has a twin
as `yaml_v3_decode` does. Nodes carry no marks (nothing decoded needs them).
"""

from __future__ import annotations

import re
from array import array
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    MappingStartEvent,
    ScalarEvent,
)

from ctxtui.engine.text.yaml_compose import AliasNode, BoundedLoader
from ctxtui.engine.text.yaml_compose import compose as compose_whole

_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_MERGE = "<<"


class PrunedMapping(yaml.MappingNode):
    """A mapping some of whose pairs ctx never reads: `value` holds pairs and, for each run of pruned pairs, their count.

    `duplicate` is the key text the duplicate-key check names (the first key, in order, that has a twin), or None.
    """

    id = "mapping"

    def __init__(self, tag: str, value: list[Any], flow_style: bool | None, duplicate: str | None) -> None:
        super().__init__(tag, value, None, None, flow_style=flow_style)
        self.duplicate = duplicate


class _Whole(Exception):
    """A collection or alias used as a key: compose everything."""


class _Again(Exception):
    """Two keys of one mapping share a hash: read again, keeping key texts where needed."""

    def __init__(self, ordinals: set[int]) -> None:
        super().__init__()
        self.ordinals = ordinals


def compose_front_matter(text: str, fields: frozenset[str]) -> Any:
    """The first document's node tree with the values of keys outside `fields` pruned; yaml.YAMLError on bad YAML."""
    exact: set[int] = set()
    for _ in range(2):
        try:
            try:
                if not _libyaml_agrees(text):
                    raise ValueError("read by PyYAML's scanner")
                from yaml._yaml import CParser

                return _Composer(CParser(_Pieces(text)), fields, exact).document()
            except _Whole:
                raise
            except _Again:
                raise
            except Exception:  # libyaml refuses it: PyYAML's own scanner says why (or reads it, deeper than 1,000)
                loader = BoundedLoader(text)
                try:
                    return _Composer(loader, fields, exact).document()
                finally:
                    loader.dispose()
        except _Whole:
            return compose_whole(text)
        except _Again as again:
            exact = again.ordinals
    raise AssertionError("keys compared by text do not collide")  # pragma: no cover


def _libyaml_agrees(text: str) -> bool:
    """Whether libyaml's events for `text` are PyYAML's (`BoundedLoader`'s), as far as tests find.

    libyaml (0.2.6 in PyYAML 6.0.4) reads a byte-order mark past the start as a space, `?` inside a plain
    scalar in a flow collection as a character (yaml.v3 and PyYAML end the scalar), `!&x!` as a tag (yaml.v3
    too; PyYAML refuses it), and an empty scalar tagged `!` as not plain. Texts with any of these, or with a
    tag at all, go to PyYAML's scanner, as before. Tabs agree: `BoundedLoader` reads them as libyaml and
    yaml.v3 do (inside a plain scalar, in a block scalar's indentation).
    """
    if "\ufeff" in text[1:] or ("?" in text and ("[" in text or "{" in text)):
        return False
    return "!" not in text or _TAG.search(text) is None


class _Pieces:
    """`text` handed to libyaml a piece at a time: given a `str`, it would hold a UTF-8 copy of all of it.

    Encoded piece by piece, the text is always UTF-8 to libyaml's encoding check (a UTF-16 mark cannot
    begin a UTF-8 encoding), as with a `str`.
    """

    __slots__ = ("text", "at")

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def read(self, size: int = -1, /) -> str:
        piece = self.text[self.at :] if size < 0 else self.text[self.at : self.at + size]
        self.at += len(piece)
        return piece


_TAG = re.compile(r"(?:^|[\s\[\]{},:?-])!")  # where a tag can begin: a `!` after a blank or an indicator


class _Frame:
    """A collection being composed (`node`), or one whose contents are dropped (`node` None)."""

    __slots__ = ("node", "key", "hashes", "texts", "pruned", "skip", "ordinal")

    def __init__(self, node: Any, ordinal: int = -1, texts: list[str] | None = None) -> None:
        self.node = node  # a SequenceNode or PrunedMapping, its value filled in as items come; None: dropped
        self.key: Any = None  # the key waiting for its value; _PRUNE: that value is dropped
        self.hashes: array[int] | list[array[int]] = array("q")  # every key's hash, for the duplicate check
        self.texts = texts  # every key's text, when hashes collided in the first reading
        self.pruned = 0  # pruned pairs since the last kept one
        self.skip = False  # the value now being read is dropped
        self.ordinal = ordinal  # the mapping's number in document order

    def note(self, key: str) -> None:
        """A key's text, for the duplicate check: its hash, in 256 arrays by its low byte past 4,096 keys."""
        hashes = self.hashes
        if isinstance(hashes, list):
            hashes[hash(key) & 255].append(hash(key))
        else:
            hashes.append(hash(key))
            if len(hashes) == _BUCKETS_FROM:
                self.hashes = [array("q") for _ in range(256)]
                for h in hashes:
                    self.hashes[h & 255].append(h)
        if self.texts is not None:
            self.texts.append(key)

    def repeats(self) -> bool:
        """Whether two keys' hashes agree: a bucket at a time is made objects (a set), not every hash at once."""
        if isinstance(self.hashes, list):
            return any(len(set(bucket)) < len(bucket) for bucket in self.hashes)
        return len(set(self.hashes)) < len(self.hashes)


_BUCKETS_FROM = 4096


_PRUNE = object()
_NOTHING = object()


class _Composer:
    def __init__(self, parser: Any, fields: frozenset[str], exact: set[int]) -> None:
        self.parser = parser
        self.keep = fields | {_MERGE}
        self.exact = exact
        self.anchors: dict[str, Any] = {}
        self.mappings = 0
        self.collided: set[int] = set()

    def document(self) -> Any:
        parser = self.parser
        parser.get_event()  # StreamStart
        if parser.check_event(yaml.StreamEndEvent):
            return None
        parser.get_event()  # DocumentStart
        root = self.root()
        parser.get_event()  # DocumentEnd (scans the next token, as libyaml does)
        if self.collided:
            raise _Again(self.collided)
        return root

    def root(self) -> Any:
        """The document's root node, composed in one loop (no recursion)."""
        parser = self.parser
        stack: list[_Frame] = []
        while True:
            event = parser.get_event()
            dropped = bool(stack) and (stack[-1].node is None or stack[-1].skip)
            if isinstance(event, CollectionStartEvent):
                stack.append(self.open(event, not dropped or event.anchor is not None))
                continue
            if isinstance(event, ScalarEvent):
                if event.anchor is None and not dropped and self.pruned_key(stack[-1] if stack else None, event):
                    continue  # a key whose value is dropped: noted, not made
                if event.anchor is None and dropped:
                    node: Any = _NOTHING
                else:
                    node = self.scalar(event)
            elif isinstance(event, AliasEvent):
                if event.anchor not in self.anchors:
                    mark: Any = event.start_mark  # PyYAML's, or libyaml's (the message's first line is the same)
                    raise ComposerError(None, None, f"found undefined alias {event.anchor!r}", mark)
                node = _NOTHING if dropped else AliasNode(self.anchors[event.anchor], event.anchor, None, None)
            else:  # the end of the innermost collection
                node = self.close(stack.pop())
            if not stack:
                return node
            self.add(stack[-1], node)

    def pruned_key(self, frame: _Frame | None, event: Any) -> bool:
        """For a key of a mapping being composed: whether its value is pruned (then the key is noted, not made)."""
        if frame is None or frame.key is not None or not isinstance(frame.node, PrunedMapping):
            return False
        tag = event.tag
        text = event.value
        if not ((tag is None or tag == "!" or tag == _STR) and text not in self.keep):
            return False
        frame.note(text)
        frame.key = _PRUNE
        frame.skip = True
        return True

    def open(self, event: Any, building: bool) -> _Frame:
        """A frame for a collection: its node made now and its anchor set (yaml.v3 sets it before the contents)."""
        if not building:
            return _Frame(None)
        tag = event.tag
        mapping = isinstance(event, MappingStartEvent)
        if tag is None or tag == "!":
            tag = _MAP if mapping else _SEQ
        if mapping:
            frame = _Frame(PrunedMapping(tag, [], event.flow_style, None), self.mappings)
            if self.mappings in self.exact:
                frame.texts = []
            self.mappings += 1
        else:
            frame = _Frame(yaml.SequenceNode(tag, [], None, None, flow_style=event.flow_style))
        if event.anchor is not None:
            self.anchors[event.anchor] = frame.node
        return frame

    def scalar(self, event: Any) -> yaml.ScalarNode:
        tag = event.tag
        if tag is None:
            tag = "?" if event.implicit[0] else _STR
        elif tag == "!":  # PyYAML's parser: the non-specific tag makes any scalar plain (libyaml: not an empty one)
            tag = "?"
        node = yaml.ScalarNode(tag, event.value, None, None, style=event.style or None)
        if event.anchor is not None:
            self.anchors[event.anchor] = node
        return node

    def add(self, frame: _Frame, node: Any) -> None:
        """Put a finished node (or _NOTHING) in its collection."""
        if frame.node is None:
            return  # a dropped collection's contents
        if isinstance(frame.node, yaml.SequenceNode):
            frame.node.value.append(node)
            return
        if frame.key is None:  # a key
            if not isinstance(node, yaml.ScalarNode):
                raise _Whole
            text = node.value
            frame.note(text)
            if node.tag in ("?", _STR) and text not in self.keep:
                frame.key = _PRUNE
                frame.skip = True
            else:
                frame.key = node
            return
        if frame.key is _PRUNE:
            frame.pruned += 1
            frame.skip = False
        else:
            if frame.pruned:
                frame.node.value.append(frame.pruned)
                frame.pruned = 0
            frame.node.value.append((frame.key, node))
        frame.key = None

    def close(self, frame: _Frame) -> Any:
        """The finished collection's node (_NOTHING when dropped)."""
        node = frame.node
        if node is None:
            return _NOTHING
        if isinstance(node, PrunedMapping):
            if frame.pruned:
                node.value.append(frame.pruned)
            node.duplicate = self.duplicate(frame)
        return node

    def duplicate(self, frame: _Frame) -> str | None:
        """The first key that has a twin (yaml.v3's uniqueKeys), from the hashes; the texts when two hashes agree."""
        if not frame.repeats():
            return None
        if frame.texts is None:
            self.collided.add(frame.ordinal)
            return None
        seen: dict[str, int] = {}
        for text in frame.texts:
            seen[text] = seen.get(text, 0) + 1
        return next((text for text in frame.texts if seen[text] > 1), None)
