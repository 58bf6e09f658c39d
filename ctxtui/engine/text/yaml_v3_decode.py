"""yaml.v3's decoder (`decode.go` at v3.0.1) run over a node tree into a Go struct's shape: merges and aliases as it does them.

ctx calls `yaml.Unmarshal(data, cfg)` on `.ctxrc` and on each steering
file's front matter. That decoder walks the node tree into the struct:
a `<<` merge decodes each merged map into the same struct again (an explicit
key wins, then the first merged map; `mergedFields`), an alias decodes its
anchor's node again, and every step counts. Past 1,000 steps, when more
than 99 % of them (less for large documents: `allowedAliasRatio`) come from
inside aliases, it fails with "document contains excessive aliasing",
keeping what it had set. So a merge-key bomb (`<<: [*a, *a, …]` nested)
costs ctx a few thousand steps, not billions: this module takes the same
steps in the same order, with the same counters, and stops where yaml.v3
stops, with what yaml.v3 had set by then.

Types are given as: "string", "int", "bool", "float64", "interface {}",
`Ptr(t)`, `Slice(t)`, `Struct(name, {yaml name: type})`. A struct decodes to
a dict (a field never set is absent), a pointer to its target or None, a
slice to a list. Scalars decode with `yaml_v3`'s `decode_*` (their messages
are the type errors reported). Not modelled: a collection used as a mapping
key and decoded into `interface {}` (yaml.v3 would panic on it in a merge);
it is counted node by node and never matches a field.
"""

from __future__ import annotations

from typing import Any

import yaml

from ctxtui.engine.text import yaml_v3 as v3
from ctxtui.engine.text.yaml_compose import AliasNode
from ctxtui.engine.text.yaml_prune import PrunedMapping

STRING, INT, BOOL, FLOAT, ANY = "string", "int", "bool", "float64", "interface {}"

# decode.go: alias_ratio_range_low / _high
_RATIO_LOW = 400_000
_RATIO_HIGH = 4_000_000


class Ptr(tuple):  # type: ignore[type-arg]
    """`*T`."""

    __slots__ = ()

    def __new__(cls, target: Any) -> Ptr:
        return tuple.__new__(cls, (target,))


class Slice(tuple):  # type: ignore[type-arg]
    """`[]T`."""

    __slots__ = ()

    def __new__(cls, item: Any) -> Slice:
        return tuple.__new__(cls, (item,))


class Struct(tuple):  # type: ignore[type-arg]
    """A Go struct: its name (for messages) and its fields by yaml name."""

    __slots__ = ()

    def __new__(cls, name: str, fields: dict[str, Any]) -> Struct:
        return tuple.__new__(cls, (name, fields))


class Decoded:
    """What `yaml.Unmarshal` left: the struct (a dict), its type errors, and the failure that stopped it."""

    __slots__ = ("value", "root_read", "errors", "failure")

    def __init__(
        self,
        value: dict[str, Any],
        root_read: bool,
        errors: list[tuple[str | None, str]],
        failure: tuple[str | None, str] | None,
    ) -> None:
        self.value = value
        self.root_read = root_read  # False: the root was not a mapping that could be read (nothing applies)
        self.errors = errors  # (top-level field or None, message): decoding went on
        self.failure = failure  # (top-level field or None, message): decoding stopped there


def allowed_alias_ratio(count: int) -> float:
    """decode.go allowedAliasRatio: 99 % up to 400,000 steps, 10 % from 4,000,000, linear between."""
    if count <= _RATIO_LOW:
        return 0.99
    if count >= _RATIO_HIGH:
        return 0.10
    return 0.99 - 0.89 * (float(count - _RATIO_LOW) / float(_RATIO_HIGH - _RATIO_LOW))


def unmarshal(root: Any, shape: Struct) -> Decoded:
    """`yaml.Unmarshal(data, &value)` for the document whose root node is `root` (None: an empty stream)."""
    decoder = _Decoder()
    value: dict[str, Any] = {}
    holder = {"": value}
    decoder.root = value
    read = False
    try:
        if root is not None:
            decoder.step()  # the document node
            read = decoder.unmarshal(root, shape, holder, "")
    except v3.YAMLFail as exc:
        return Decoded(holder[""], True, decoder.errors, (decoder.field, str(exc)))
    return Decoded(holder[""], read, decoder.errors, None)


def _null_tag(node: Any) -> bool:
    """`n.ShortTag() == "!!null"` for a node that is not an alias."""
    if isinstance(node, yaml.ScalarNode):
        if v3.indicated_string(node):
            return False
        tag = v3.short_tag(node)
        return tag == "!!null" or (tag == "" and v3.resolve("", node.value)[0] == "!!null")
    return v3.short_tag(node) == "!!null"


def _kind(node: Any) -> str:
    if isinstance(node, AliasNode):
        return "alias"
    return "scalar" if isinstance(node, yaml.ScalarNode) else "seq" if isinstance(node, yaml.SequenceNode) else "map"


def _is_merge(node: Any) -> bool:
    """decode.go isMerge: a plain or `!!merge` scalar `<<` (not quoted, not an alias)."""
    return (
        isinstance(node, yaml.ScalarNode) and node.value == "<<" and node.tag in ("?", "!", "tag:yaml.org,2002:merge")
    )


def _type_name(shape: Any) -> str:
    if isinstance(shape, Struct):
        return str(shape[0])
    if isinstance(shape, Ptr):
        return "*" + _type_name(shape[0])
    if isinstance(shape, Slice):
        return "[]" + _type_name(shape[0])
    return str(shape)


_ZERO: dict[str, Any] = {STRING: "", INT: 0, BOOL: False, FLOAT: 0.0, ANY: None}


def _zero(shape: Any) -> Any:
    """Go's zero value: a struct is an empty dict (every field zero), a pointer or slice None."""
    if isinstance(shape, Struct):
        return {}
    return None if isinstance(shape, (Ptr, Slice)) else _ZERO[shape]


class _Decoder:
    def __init__(self) -> None:
        self.count = 0  # decodeCount
        self.alias_count = 0  # aliasCount
        self.alias_depth = 0  # aliasDepth
        self.active: set[int] = set()  # aliases being decoded (decoder.aliases)
        self.merged: set[Any] | None = None  # mergedFields
        self.errors: list[tuple[str | None, str]] = []
        self.root: dict[str, Any] = {}
        self.field: str | None = None  # the top-level field being decoded, for messages

    def step(self) -> None:
        """The counting at the top of decoder.unmarshal, with its failure."""
        self.count += 1
        if self.alias_depth > 0:
            self.alias_count += 1
        if (
            self.alias_count > 100
            and self.count > 1000
            and float(self.alias_count) / float(self.count) > allowed_alias_ratio(self.count)
        ):
            raise v3.YAMLFail("document contains excessive aliasing")

    def terror(self, message: str) -> None:
        self.errors.append((self.field, message))

    def unmarshal(self, node: Any, shape: Any, holder: Any, key: Any) -> bool:
        """decoder.unmarshal: decode `node` into `holder[key]`, of type `shape`; False when nothing was set."""
        self.step()
        if isinstance(node, AliasNode):
            return self.alias(node, shape, holder, key)
        if isinstance(shape, Ptr):  # prepare(): a non-null node allocates the pointer's target
            if _null_tag(node):
                return (
                    self.null(shape, holder, key)
                    if isinstance(node, yaml.ScalarNode)
                    else self.kind(node, shape, holder, key)
                )
            shape = shape[0]
            if holder.get(key) is None:
                holder[key] = _zero(shape)
        return self.kind(node, shape, holder, key)

    def kind(self, node: Any, shape: Any, holder: Any, key: Any) -> bool:
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, shape, holder, key)
        if isinstance(node, yaml.SequenceNode):
            return self.sequence(node, shape, holder, key)
        return self.mapping(node, shape, holder, key)

    def alias(self, node: AliasNode, shape: Any, holder: Any, key: Any) -> bool:
        if id(node) in self.active:
            raise v3.YAMLFail(f"anchor '{node.value}' value contains itself")
        self.active.add(id(node))
        self.alias_depth += 1
        good = self.unmarshal(node.target, shape, holder, key)
        self.alias_depth -= 1
        self.active.discard(id(node))
        return good

    def null(self, shape: Any, holder: Any, key: Any) -> bool:
        """decoder.null: a pointer, slice or interface becomes nil; anything else is left as it was."""
        if isinstance(shape, (Ptr, Slice)) or shape == ANY:
            holder[key] = None
            return True
        return False

    def scalar(self, node: Any, shape: Any, holder: Any, key: Any) -> bool:
        if isinstance(shape, (Ptr, Slice, Struct)):  # a pointer here is a null scalar into a pointer (handled above)
            tag, value = v3.scalar_resolved(node)
            if value is None and tag == "!!null":
                return self.null(shape, holder, key)
            self.terror(f"cannot unmarshal {tag} `{v3._short(node.value)}` into {_type_name(shape)}")
            return False
        if shape == ANY:  # Go compares interface values by type and value: a string key is ("str", text)
            tag, value = v3.scalar_resolved(node)
            holder[key] = ("str", value) if isinstance(value, str) else (tag, value)
            return True
        try:
            if shape == STRING:
                value = v3.decode_string(node)
            elif shape == INT:
                value = v3.decode_int(node)
            elif shape == BOOL:
                value = v3.decode_bool(node)
            else:
                value = v3.decode_float(node)
        except v3.YAMLTypeError as exc:
            self.terror(str(exc))
            return False
        if value is v3.MISSING:
            return False
        holder[key] = value
        return True

    def sequence(self, node: Any, shape: Any, holder: Any, key: Any) -> bool:
        if shape == ANY:
            for item in node.value:
                self.unmarshal(item, ANY, {"": None}, "")
            holder[key] = None
            return True
        if not isinstance(shape, Slice):
            self.terror(f"cannot unmarshal !!seq into {_type_name(shape)}")
            return False
        items = []
        for item in node.value:  # decoder.sequence keeps the items that decode
            cell = {"": _zero(shape[0])}
            if self.unmarshal(item, shape[0], cell, ""):
                items.append(cell[""])
        holder[key] = items
        return True

    def mapping(self, node: Any, shape: Any, holder: Any, key: Any) -> bool:
        pairs = node.value
        if isinstance(node, PrunedMapping):  # its keys were checked as they were read
            if node.duplicate is not None:
                self.terror(f'mapping key "{v3._short(node.duplicate)}" already defined')
                return False
            pairs = ()
        # uniqueKeys: every pair of keys of the same kind and text is a type error, and nothing is decoded. Counted
        # in one pass (yaml.v3 compares every pair); the first key that has a twin is named.
        seen: dict[tuple[str, str], int] = {}
        for k, _ in pairs:
            ident = (_kind(k), k.value if isinstance(k, (yaml.ScalarNode, AliasNode)) else "")
            seen[ident] = seen.get(ident, 0) + 1
        if len(seen) < len(pairs):
            for k, _ in pairs:
                ident = (_kind(k), k.value if isinstance(k, (yaml.ScalarNode, AliasNode)) else "")
                if seen[ident] > 1:
                    self.terror(f'mapping key "{v3._short(ident[1])}" already defined')
                    return False
        if isinstance(shape, Struct):
            if not isinstance(holder.get(key), dict):
                holder[key] = {}
            return self.mapping_struct(node, shape, holder[key])
        if shape == ANY:
            assert not isinstance(node, PrunedMapping)  # a pruned tree has no key that is decoded into interface {}
            for k, v in pairs:
                self.unmarshal(k, ANY, {"": None}, "")
                self.unmarshal(v, ANY, {"": None}, "")
            holder[key] = None
            return True
        self.terror(f"cannot unmarshal !!map into {_type_name(shape)}")
        return False

    def mapping_struct(self, node: Any, shape: Struct, out: dict[str, Any]) -> bool:
        fields = shape[1]
        merged = self.merged
        self.merged = None
        merge_node = None
        done: set[str] = set()
        name = {"": ""}
        for pair in node.value:
            if isinstance(pair, int):  # keys naming no field (`PrunedMapping`): a step each, nothing set
                for _ in range(pair):
                    self.step()
                continue
            k, v = pair
            if _is_merge(k):
                merge_node = v
                continue
            if not self.unmarshal(k, STRING, name, ""):
                continue
            sname = name[""]
            if merged is not None:
                if ("str", sname) in merged:
                    continue
                merged.add(("str", sname))
            if sname not in fields:
                continue  # not a field: its value is not decoded (knownFields is off)
            if sname in done:
                self.terror(f"field {sname} already set in type {shape[0]}")
                continue
            done.add(sname)
            top = out is self.root
            if top:
                self.field = sname
            self.unmarshal(v, fields[sname], out, sname)
            if top:
                self.field = None
        self.merged = merged
        if merge_node is not None:
            self.merge(node, merge_node, shape, out)
        return True

    def merge(self, parent: Any, merge: Any, shape: Struct, out: dict[str, Any]) -> None:
        merged = self.merged
        if merged is None:
            self.merged = set()
            for pair in parent.value:
                if isinstance(pair, int):  # pruned keys: each a step; a text naming no field, so no field is skipped
                    for _ in range(pair):
                        self.step()
                    continue
                k = pair[0]
                cell: dict[str, Any] = {"": None}
                if self.unmarshal(k, ANY, cell, ""):
                    try:
                        self.merged.add(cell[""])
                    except TypeError:
                        pass
        holder = {"": out}
        if isinstance(merge, AliasNode):
            if not isinstance(merge.target, yaml.MappingNode):
                raise v3.YAMLFail("map merge requires map or sequence of maps as the value")
            self.unmarshal(merge, shape, holder, "")
        elif isinstance(merge, yaml.MappingNode):
            self.unmarshal(merge, shape, holder, "")
        elif isinstance(merge, yaml.SequenceNode):
            for item in merge.value:
                target = item.target if isinstance(item, AliasNode) else item
                if not isinstance(target, yaml.MappingNode):
                    raise v3.YAMLFail("map merge requires map or sequence of maps as the value")
                self.unmarshal(item, shape, holder, "")
        else:
            raise v3.YAMLFail("map merge requires map or sequence of maps as the value")
        self.merged = merged
