"""YAML as gopkg.in/yaml.v3 decodes it into Go struct fields: what ctx makes of `.ctxrc` and front matter.

yaml.v3 is YAML 1.2-ish with its own resolver, and decoding depends on the
Go field's type: into a `string`, any scalar gives its source text (`name: yes`
is "yes", `tool: 0x10` is "0x10"); into an `int`, `0x10` is 16, `010` is 8,
`49.9` is 49, `-.inf` is MinInt64, and `1:30` is a type error; into a
`*float64`, a type error still leaves an allocated 0. PyYAML (YAML 1.1)
reads many of these differently, so here PyYAML only composes the node tree
(with libyaml's rule that a tab after `key:` is whitespace), and resolution
and decoding follow yaml.v3's resolve.go and decode.go. Ported from the
reference model that matched the real ctx binaries (`ctx-differences.md` §4, §7).
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Callable
from typing import Any

import yaml
from yaml import MappingNode as MappingNode  # re-exported: readers test node kinds through this module
from yaml import ScalarNode as ScalarNode
from yaml import SequenceNode as SequenceNode

from ctxtui.engine.text.go_strconv import INT64_MAX, INT64_MIN, GoNumError, f2i, parse_float, parse_int, parse_uint

_YAML_STYLE_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_RESOLVE_MAP = {}
for _v, _tag, _l in [
    (True, "!!bool", ["true", "True", "TRUE"]),
    (False, "!!bool", ["false", "False", "FALSE"]),
    (None, "!!null", ["", "~", "null", "Null", "NULL"]),
    (math.nan, "!!float", [".nan", ".NaN", ".NAN"]),
    (math.inf, "!!float", [".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"]),
    (-math.inf, "!!float", ["-.inf", "-.Inf", "-.INF"]),
    ("<<", "!!merge", ["<<"]),
]:
    for _s in _l:
        _RESOLVE_MAP[_s] = (_tag, _v)


def _hint(c: str) -> str:
    if c in "+-" or (c.isdigit() and c.isascii()):
        return "D" if c.isdigit() else "S"
    if c in "yYnNtTfFoO~":
        return "M"
    if c == ".":
        return "."
    return ""


class YAMLTypeError(Exception):
    """A yaml.v3 *TypeError entry: decoding continues, the field is left as it was (or zeroed, see decode_*)."""


class YAMLFail(Exception):
    """A yaml.v3 failf: decoding aborts; fields already set stay set."""


def _parse_timestamp(s: str) -> _dt.date | None:
    # resolve.go allowedTimestampFormats: "2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00",
    # "2006-1-2 15:4:5.999999999", "2006-1-2". Only strings with the digit-dash prefix get here.
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})([Tt ](\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?", s)
    if not m:
        return None
    if m.group(4) and m.group(4)[0] == " " and m.group(9):
        return None
    try:
        return _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def resolve(tag: str, value: str) -> tuple[str, Any]:
    """resolve(tag, in) for a plain (or explicitly tagged) scalar -> (rtag, python value).

    tag is the short tag ("" for an untagged plain scalar, "!!int", "!!str", ...).
    """
    if tag not in ("", "!!str", "!!bool", "!!int", "!!float", "!!timestamp", "!!null", "!!binary", "!!merge"):
        return tag, value
    rtag, out = _resolve_inner(tag, value)
    if tag in ("", rtag, "!!str", "!!binary"):
        return rtag, out
    if tag == "!!float" and rtag == "!!int":
        return "!!float", float(out)
    raise YAMLFail(f"cannot decode {rtag} `{value}` as a {tag}")


def _resolve_inner(tag: str, s: str) -> tuple[str, Any]:
    hint = _hint(s[0]) if s else "N"
    if hint and tag not in ("!!str", "!!binary"):
        if s in _RESOLVE_MAP:
            return _RESOLVE_MAP[s]
        if hint == ".":
            try:
                return "!!float", parse_float(s)
            except (ValueError, OverflowError):
                pass
        elif hint in "DS":
            if tag in ("", "!!timestamp"):
                t = _parse_timestamp(s)
                if t is not None:
                    return "!!timestamp", t
            plain = s.replace("_", "")
            parsers: tuple[Callable[[], int], ...] = (lambda: parse_int(plain, 0), lambda: parse_uint(plain, 0))
            for fn in parsers:
                try:
                    return "!!int", fn()
                except GoNumError:
                    pass
            if _YAML_STYLE_FLOAT.match(plain):
                try:
                    return "!!float", parse_float(plain)
                except (ValueError, OverflowError):
                    pass
            for pre, base in (("0b", 2), ("0o", 8)):
                if plain.startswith(pre):
                    for fn in (lambda b=base: parse_int(plain[2:], b), lambda b=base: parse_uint(plain[2:], b)):
                        try:
                            return "!!int", fn()
                        except GoNumError:
                            pass
                elif plain.startswith("-" + pre):
                    try:
                        return "!!int", parse_int("-" + plain[3:], base)
                    except GoNumError:
                        pass
    return "!!str", s


# Node access: we use PyYAML's composer (anchors resolved) with our own tag resolution.


def compose(text: bytes | str) -> Any:
    """The first document's node tree (PyYAML composer), or raises yaml.YAMLError on a syntax error.

    Plain untagged scalars get tag "?" so that yaml_resolve() does the resolution the yaml.v3 way.
    """

    # PyYAML's stubs (types-PyYAML) leave resolve, scan_line_break and get_event unannotated:
    # the calls below that say no-untyped-call are to those.
    class R(yaml.resolver.BaseResolver):
        def resolve(self, kind: type[yaml.Node], value: str | None, implicit: tuple[bool, bool]) -> str:
            if kind is yaml.ScalarNode and implicit[0]:
                return "?"
            tag: str = super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
            return tag

    class L(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer, R):
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

        def __init__(self, stream: bytes | str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            R.__init__(self)

    loader = L(text)
    try:
        # yaml.v3's Unmarshal decodes only the first document
        if not loader.check_node():  # consumes StreamStart; False on an empty stream
            return None
        loader.get_event()  # type: ignore[no-untyped-call]  # DocumentStart
        # The stubs say index: int; PyYAML's own compose_document passes None for the root, as here.
        node = loader.compose_node(None, None)  # type: ignore[arg-type]
        loader.get_event()  # type: ignore[no-untyped-call]  # DocumentEnd (scans the next token, as libyaml does)
        return node
    finally:
        loader.dispose()


def short_tag(node: yaml.Node) -> str:
    """A node's tag as yaml.v3 spells it ("!!str", a local "!tag"), "" when none was written."""
    t = node.tag
    if t == "?":
        return ""
    if t.startswith("tag:yaml.org,2002:"):
        return "!!" + t[len("tag:yaml.org,2002:") :]
    if t == "!":
        return ""
    return t


def indicated_string(node: Any) -> bool:
    if not isinstance(node, yaml.ScalarNode):
        return False
    st = short_tag(node)
    return st == "!!str" or ((node.tag in ("?", "!") or st == "") and node.style in ("'", '"', "|", ">"))


def scalar_resolved(node: Any) -> tuple[str, Any]:
    """(tag, value) as decoder.scalar() sees it."""
    if indicated_string(node):
        return "!!str", node.value
    tag, val = resolve(short_tag(node) if node.tag != "?" else "", node.value)
    if tag == "!!binary":
        import base64

        try:
            val = base64.b64decode(val, validate=True).decode("latin-1")
        except Exception:
            raise YAMLFail("!!binary value contains invalid base64 data") from None
    return tag, val


MISSING = object()


def decode_int(node: Any) -> Any:
    """Decode into a Go int field. Returns MISSING for null (field unchanged); raises YAMLTypeError."""
    if not isinstance(node, yaml.ScalarNode):
        raise YAMLTypeError("not a scalar")
    if short_tag(node) == "!!null":
        return MISSING
    tag, v = scalar_resolved(node)
    if v is None and tag == "!!null":
        return MISSING
    if isinstance(v, bool) or tag in ("!!str", "!!binary", "!!timestamp", "!!bool"):
        raise YAMLTypeError(f"cannot unmarshal {tag} `{node.value}` into int")
    if tag == "!!int":
        if INT64_MIN <= v <= INT64_MAX:
            return v
        raise YAMLTypeError(f"cannot unmarshal {tag} `{node.value}` into int")
    if tag == "!!float":
        # decode.go: resolved <= math.MaxInt64 && !out.OverflowInt(int64(resolved))
        if not (v <= 9223372036854775808.0):  # float64(MaxInt64) == 2^63; NaN and +Inf fail
            raise YAMLTypeError(f"cannot unmarshal {tag} `{node.value}` into int")
        return f2i(v)
    raise YAMLTypeError(f"cannot unmarshal {tag} `{node.value}` into int")


def decode_float_ptr(node: Any) -> Any:
    """Decode into *float64. Returns None for null (pointer nil), else a float; a type error leaves 0.0."""
    if isinstance(node, yaml.ScalarNode) and short_tag(node) == "!!null":
        return None
    if isinstance(node, yaml.ScalarNode):
        tag, v = scalar_resolved(node)
        if tag == "!!null" and v is None:
            return None
        if tag in ("!!int", "!!float") and not isinstance(v, bool):
            return float(v)
    # prepare() allocated the pointer before the type error: explicit 0
    return 0.0


def decode_string(node: Any) -> Any:
    """Decode into a Go string: any non-null scalar gives its source text (n.Value), not the resolved value."""
    if not isinstance(node, yaml.ScalarNode):
        raise YAMLTypeError("not a scalar")
    if short_tag(node) == "!!null":
        return MISSING
    if indicated_string(node):
        return node.value
    tag, v = scalar_resolved(node)
    if tag == "!!null":
        return MISSING
    if tag == "!!binary":
        return v
    return node.value


def decode_bool(node: Any) -> Any:
    if not isinstance(node, yaml.ScalarNode) or short_tag(node) == "!!null":
        return MISSING
    tag, v = scalar_resolved(node)
    if tag == "!!bool":
        return v
    if tag == "!!str" and v in ("y", "Y", "yes", "Yes", "YES", "on", "On", "ON"):
        return True
    if tag == "!!str" and v in ("n", "N", "no", "No", "NO", "off", "Off", "OFF"):
        return False
    if tag == "!!null":
        return MISSING
    raise YAMLTypeError("bool")


def decode_string_list(node: Any) -> Any:
    if isinstance(node, yaml.ScalarNode) and short_tag(node) == "!!null":
        return None
    if isinstance(node, yaml.ScalarNode) and scalar_resolved(node)[0] == "!!null":
        return None
    if not isinstance(node, yaml.SequenceNode):
        raise YAMLTypeError("not a sequence")
    out = []
    errors = []
    for item in node.value:  # decode.go sequence(): items that fail or are null are dropped
        try:
            v = decode_string(item)
            if v is not MISSING:
                out.append(v)
        except YAMLTypeError as exc:
            errors.append(exc)
    if errors:
        raise YAMLTypeError("list item")
    return out


def mapping_pairs(node: Any) -> Any:
    """Key/value pairs of a mapping node as yaml.v3 mappingStruct sees them, merges applied.

    Raises YAMLTypeError (the whole mapping is skipped) on a duplicate key.
    """
    if not isinstance(node, yaml.MappingNode):
        raise YAMLTypeError("not a mapping")
    pairs = node.value
    for i, (ki, _) in enumerate(pairs):
        for kj, _ in pairs[i + 1 :]:
            if type(ki) is type(kj) and (ki.value == kj.value if isinstance(ki, yaml.ScalarNode) else True):
                raise YAMLTypeError(f'mapping key "{ki.value}" already defined')
    explicit = []
    merge_node = None
    for k, v in pairs:
        if isinstance(k, yaml.ScalarNode) and k.value == "<<" and k.tag in ("?", "!", "tag:yaml.org,2002:merge"):
            merge_node = v  # the last << wins (mappingStruct keeps one mergeNode)
            continue
        if isinstance(k, yaml.ScalarNode):
            explicit.append((k.value, v))
    merged = []
    if merge_node is not None:
        maps = merge_node.value if isinstance(merge_node, yaml.SequenceNode) else [merge_node]
        for m in maps:
            merged += mapping_pairs(m)
    names = {k for k, _ in explicit}
    out = list(explicit)
    for k, v in merged:  # explicit keys win; among merged maps the first one wins
        if k not in names:
            names.add(k)
            out.append((k, v))
    return out
