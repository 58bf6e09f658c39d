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


def _short(value: object) -> str:
    """A scalar's text in a message, cut as yaml.v3's terror cuts it (past 10 characters: the first 7 and "...")."""
    text = str(value)
    return text if len(text) <= 10 else text[:7] + "..."


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
    if tag not in ("", "!!str", "!!bool", "!!int", "!!float", "!!timestamp", "!!null"):  # resolve.go resolvableTag
        return tag, value
    rtag, out = _resolve_inner(tag, value)
    if tag in ("", rtag, "!!str", "!!binary"):
        return rtag, out
    if tag == "!!float" and rtag == "!!int":
        return "!!float", float(out)
    raise YAMLFail(f"cannot decode {rtag} `{_short(value)}` as a {tag}")


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
    """The first document's node tree (PyYAML nodes), or raises yaml.YAMLError on a syntax error.

    Plain untagged scalars get tag "?" so that yaml_resolve() does the resolution the yaml.v3 way.
    Nesting is read to yaml.v3's depth (10,000 levels) and no deeper, in linear time (`yaml_compose`).
    """
    from ctxtui.engine.text.yaml_compose import compose as bounded_compose

    return bounded_compose(text)


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
        raise YAMLTypeError(f"cannot unmarshal {tag} `{_short(node.value)}` into int")
    if tag == "!!int":
        if INT64_MIN <= v <= INT64_MAX:
            return v
        raise YAMLTypeError(f"cannot unmarshal {tag} `{_short(node.value)}` into int")
    if tag == "!!float":
        # decode.go: resolved <= math.MaxInt64 && !out.OverflowInt(int64(resolved))
        if not (v <= 9223372036854775808.0):  # float64(MaxInt64) == 2^63; NaN and +Inf fail
            raise YAMLTypeError(f"cannot unmarshal {tag} `{_short(node.value)}` into int")
        return f2i(v)
    raise YAMLTypeError(f"cannot unmarshal {tag} `{_short(node.value)}` into int")


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


def decode_float(node: Any) -> Any:
    """Decode into a Go float64: MISSING for null (field unchanged); an int or a float; else YAMLTypeError."""
    if not isinstance(node, yaml.ScalarNode):
        raise YAMLTypeError("not a scalar")
    if short_tag(node) == "!!null":
        return MISSING
    tag, v = scalar_resolved(node)
    if tag == "!!null" and v is None:
        return MISSING
    if tag in ("!!int", "!!float") and not isinstance(v, bool):
        return float(v)
    raise YAMLTypeError(f"cannot unmarshal {tag} `{_short(node.value)}` into float64")


def decode_bool(node: Any) -> Any:
    """Decode into a Go bool: MISSING for null; YAML 1.1's y/yes/on/n/no/off too (decode.go); else YAMLTypeError."""
    if not isinstance(node, yaml.ScalarNode):
        raise YAMLTypeError("not a scalar")
    if short_tag(node) == "!!null":
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
    raise YAMLTypeError(f"cannot unmarshal {tag} `{_short(node.value)}` into bool")
