"""Steering front matter composed without the values ctx ignores (`yaml_prune`) decodes as the whole tree did.

Two properties over token soup (most of it invalid YAML, which must fail the
same way): libyaml's C parser, where it accepts a text, gives the events
`BoundedLoader` gives (and `BoundedLoader` accepts it too), so switching
scanners changes nothing; and the steering decode of the pruned tree equals
that of the whole tree: fields, type errors, failures and messages.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from ctxtui.engine.text import yaml_prune
from ctxtui.engine.text.yaml_compose import BoundedLoader, compose
from ctxtui.engine.text.yaml_prune import PrunedMapping, _libyaml_agrees, _Pieces, compose_front_matter
from ctxtui.engine.text.yaml_v3_decode import INT, STRING, Slice, Struct, unmarshal
from hypothesis import example, given, settings
from hypothesis import strategies as st

SHAPE = Struct(
    "steering.SteeringFile",
    {"name": STRING, "description": STRING, "inclusion": STRING, "tools": Slice(STRING), "priority": INT},
)
FIELDS = frozenset(SHAPE[1])

PIECES = [
    "name",
    "description",
    "inclusion",
    "tools",
    "priority",
    "other",
    "k1",
    "k2",
    "'k1'",
    '"name"',
    "!!str k1",
    "!!str name",
    "!!int 3",
    "!!binary bmFtZQ==",
    "<<",
    "'<<'",
    "&a ",
    "&b ",
    "*a",
    "*b",
    "*c",
    ": ",
    ":",
    "\n",
    "\n  ",
    "\n    ",
    "\n- ",
    "\n  - ",
    "- ",
    "? ",
    "[",
    "]",
    "{",
    "}",
    ", ",
    "#c",
    " ",
    "\t",
    "'x'",
    '"y\\n"',
    "10",
    "0x1F",
    "true",
    "~",
    "null",
    "|\n  text\n",
    ">-\n  folded\n",
    "...\n",
    "always",
    "%YAML 1.2\n",
    "!t ",
    "é",
    "\x07",
    "?",
    "\t",
    "a?b",
    "-",
    "!",
    "&",
    "%",
    "@",
    "'",
    '"',
    "\\",
    "\r\n",
    "\ufeff",
    "\u2028",
    ":x",
    "- -",
    "'a''b'",
    '"\\x41"',
    "|2\n   x\n",
    "[a, b]: c",
    "{a: b}: c",
    "[a: b]",
    "[a,,]",
    "a:\n- b\n- c",
    "  a: b\n c: d",
    "\t",  # tabs: inside plain scalars, after indicators, in indentation (libyaml's and yaml.v3's rules)
    "\n\t",
    "a\tb",
    "|\n \t",
]


def events(parser: Any, upto: int | None = None) -> list[tuple[Any, ...]]:
    """The parser's events (all, or the first `upto`) as comparable tuples."""
    out: list[tuple[Any, ...]] = []
    while (upto is None or len(out) < upto) and parser.check_event():
        e = parser.get_event()
        out.append(
            (
                type(e).__name__,
                getattr(e, "anchor", None),
                getattr(e, "tag", None),
                getattr(e, "implicit", None),
                getattr(e, "value", None),
                getattr(e, "style", None) or None,
            )
        )
    return out


def python_events(text: str) -> list[tuple[Any, ...]] | str:
    loader = BoundedLoader(text)
    try:
        return events(loader)
    except yaml.YAMLError as exc:
        return f"error: {exc}"
    finally:
        loader.dispose()


soup = st.lists(st.sampled_from(PIECES), max_size=24).map("".join)


@settings(max_examples=500, deadline=None)
@given(soup)
@example("name: x\nname: y\n")
@example("a: &a {name: x}\n<<: *a\n")
def test_libyaml_events_are_bounded_loaders_events(text):
    from yaml._yaml import CParser

    if not _libyaml_agrees(text):
        return
    c_events: list[tuple[Any, ...]] = []
    parser = CParser(_Pieces(text))
    try:
        while parser.check_event():
            c_events += events(parser, 1)
    except Exception:
        # refused by libyaml: read again by BoundedLoader, unless the refusal comes after the first document,
        # which is all that is read; then PyYAML must give the same events up to there
        if "DocumentEndEvent" not in [e[0] for e in c_events]:
            return
        c_events = c_events[: [e[0] for e in c_events].index("DocumentEndEvent") + 1]
        loader = BoundedLoader(text)
        try:
            assert events(loader, len(c_events)) == c_events
        finally:
            loader.dispose()
        return
    assert python_events(text) == c_events


def decode(root: Any) -> tuple[Any, ...]:
    d = unmarshal(root, SHAPE)
    return (d.value, d.root_read, d.errors, d.failure)


def whole(text: str) -> tuple[Any, ...] | str:
    try:
        root = compose(text)
    except yaml.YAMLError as exc:
        return f"error: {str(exc).splitlines()[0]}"
    return decode(root)


def pruned(text: str) -> tuple[Any, ...] | str:
    try:
        root = compose_front_matter(text, FIELDS)
    except yaml.YAMLError as exc:
        return f"error: {str(exc).splitlines()[0]}"
    return decode(root)


@settings(max_examples=500, deadline=None)
@given(soup)
@example("name: x\nk: &a {name: y, k: [1]}\ntools: [a, *a]\n")
@example("k: [&a {name: y}]\n<<: *a\n")
@example("&r {k: 1, <<: *r}")
@example("k1: 1\nk2: 2\nk1: 3\n")
@example("name: {k1: 1, k1: 2}")
@example("? [a]\n: 1\n<<: {name: x}\n")
@example("k: *nope\n")
def test_the_pruned_tree_decodes_as_the_whole_tree(text):
    assert pruned(text) == whole(text)


@pytest.mark.parametrize("pad", [0, 5000])
def test_a_merge_bomb_is_still_stopped(pad):
    chain = "".join(
        f"b{i}: &b{i} {{<<: [" + ", ".join([f"*{'a' if i == 0 else f'b{i - 1}'}"] * 9) + "]}\n" for i in range(8)
    )
    text = "a: &a {k: 1, name: x}\n" + chain + "".join(f"p{i}: {i}\n" for i in range(pad)) + "<<: [*b7, *b7]\n"
    assert pruned(text) == whole(text)
    assert pruned(text)[3] == (None, "document contains excessive aliasing")


def test_pruned_keys_count_as_yaml_v3_steps():
    """1,001 steps inside an alias: over 99 % of the steps with 2 keys beside it, not with 3 (decode.go's ratio)."""

    def doc(keys: int) -> str:
        merged = "m: &m {" + ", ".join(f"x{i}: {i}" for i in range(1000)) + ", name: merged}\n"
        return merged + "".join(f"p{i}: {i}\n" for i in range(keys)) + "<<: *m\n"

    assert pruned(doc(2)) == whole(doc(2)) and pruned(doc(2))[3] == (None, "document contains excessive aliasing")
    assert pruned(doc(3)) == whole(doc(3)) and pruned(doc(3))[0] == {"name": "merged"}


def test_keys_ctx_ignores_are_counts_not_nodes():
    root = compose_front_matter("name: x\n" + "".join(f"k{i}: [{i}]\n" for i in range(1000)) + "priority: 3\n", FIELDS)
    assert isinstance(root, PrunedMapping) and root.duplicate is None
    assert [p if isinstance(p, int) else p[0].value for p in root.value] == ["name", 1000, "priority"]


def test_a_duplicate_among_pruned_keys_is_named():
    text = "".join(f"k{i}: 1\n" for i in range(500)) + "k250: 2\nname: x\n"
    assert pruned(text) == whole(text)
    assert pruned(text)[2] == [(None, 'mapping key "k250" already defined')]


def test_colliding_hashes_are_compared_by_text(monkeypatch):
    # every key the same hash: the first reading finds a "duplicate", the second compares the texts
    monkeypatch.setattr(yaml_prune, "hash", lambda text: 7, raising=False)
    assert pruned("k1: 1\nk2: 2\nname: x\n") == whole("k1: 1\nk2: 2\nname: x\n")
    assert pruned("k1: 1\nk2: 2\nk1: 3\n") == whole("k1: 1\nk2: 2\nk1: 3\n")


def test_deeper_than_libyaml_reads_is_read_by_bounded_loader():
    text = "name: " + "[" * 1500 + "]" * 1500 + "\n"
    assert pruned(text) == whole(text)
    too_deep = "name: " + "[" * 10_001 + "]" * 10_001 + "\n"
    assert pruned(too_deep) == whole(too_deep) and "exceeded max depth" in str(pruned(too_deep))


@pytest.mark.parametrize(
    "raw",
    ["name: a\n\tinclusion: b\n", "name: 'x\n", "name: [a\n", "k: *a\n", "a: \ud800\n", "name: \x00\n", "k: !x y\n"],
)
def test_what_libyaml_refuses_or_reads_otherwise_goes_to_pyyaml(raw):
    assert pruned(raw) == whole(raw)


@pytest.mark.parametrize("text", ["name: x\n\ufeff", "name: [a?b]\n", "!&*!t x\n", "name: !\n"])
def test_where_libyaml_reads_otherwise_pyyaml_reads(text):
    """The differences `_libyaml_agrees` keeps away from libyaml are real (a libyaml that drops one shows here)."""
    from yaml._yaml import CParser

    try:
        c_events: list[tuple[Any, ...]] | str = events(CParser(_Pieces(text)))
    except yaml.YAMLError as exc:
        c_events = f"error: {exc}"
    assert not _libyaml_agrees(text) and python_events(text) != c_events
