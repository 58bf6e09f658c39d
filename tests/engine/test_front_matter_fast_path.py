"""Steering front matter read without PyYAML (the cold `ctxtui pack` path) agrees with the full yaml.v3 decoder.

`_decode_simple_front_matter` accepts only `key: word...` and `key: 123`
lines and hands anything else to the full decoder; on every input it accepts,
the fields must be exactly what the full decoder gives.
"""

from __future__ import annotations

import subprocess
import sys

from ctxtui.engine.sources import steering
from ctxtui.engine.sources.steering import _decode_simple_front_matter, parse_steering_file
from hypothesis import given, settings
from hypothesis import strategies as st

KEYS = ["name", "description", "inclusion", "priority", "tools", "Name", "other", "x-y", "true", "<<", " name"]
VALUES = [
    "product",
    "always",
    "manual",
    "auto",
    "Product context, goals, and target users",
    "10",
    "0",
    "010",
    "0x10",
    "1_000",
    "-5",
    "49.9",
    "true",
    "True",
    "yes",
    "no",
    "on",
    "null",
    "Null",
    "~",
    "",
    "a: b",
    "a #b",
    "'quoted'",
    '"dq"',
    "[a, b]",
    "a  b",
    "a ",
    "x\t",
    "2026-01-02",
    ".inf",
    "tab\there",
    "é",
    "a (b) c/d.e+f-g_h",
    "99999999999999999999",
]


def full_decode(raw: str) -> dict[str, object]:
    fields: dict[str, object] = {"name": "", "description": "", "inclusion": "", "tools": None, "priority": 0}
    try:
        steering_decode_full(raw, fields)
    except steering._DecodeError as exc:
        return {"error": str(exc)}
    return fields


def steering_decode_full(raw: str, fields: dict[str, object]) -> None:
    """The full decoder alone (the fast path switched off)."""
    original = steering._decode_simple_front_matter
    steering._decode_simple_front_matter = lambda raw: None
    try:
        steering._decode_front_matter(raw, fields)
    finally:
        steering._decode_simple_front_matter = original


lines = st.one_of(
    st.builds(
        lambda k, sep, v: f"{k}:{sep}{v}",
        st.sampled_from(KEYS),
        st.sampled_from([" ", "  ", "", "\t"]),
        st.sampled_from(VALUES),
    ),
    st.sampled_from(["", "  ", "# comment", "- item", "tools:", "  - claude", "---", "key:value"]),
)


@settings(max_examples=600, deadline=None)
@given(st.lists(lines, max_size=6))
def test_fast_path_agrees_with_yaml_v3(raw_lines):
    raw = "\n".join(raw_lines)
    simple = _decode_simple_front_matter(raw)
    if simple is None:
        return  # the full decoder handles it
    fields: dict[str, object] = {"name": "", "description": "", "inclusion": "", "tools": None, "priority": 0}
    steering._decode_front_matter(raw, fields)
    assert fields == full_decode(raw), raw


def test_the_corpora_front_matter_takes_the_fast_path():
    raw = "name: product\ndescription: Product context, goals, and target users\ninclusion: always\npriority: 10"
    assert _decode_simple_front_matter(raw) == {
        "name": "product",
        "description": "Product context, goals, and target users",
        "inclusion": "always",
        "priority": 10,
    }
    assert full_decode(raw) == {
        "name": "product",
        "description": "Product context, goals, and target users",
        "inclusion": "always",
        "tools": None,
        "priority": 10,
    }


def test_anything_else_takes_the_full_decoder():
    for raw in ("tools:\n  - claude", "name: 'q'", "name: a # c", "name: x\nname: y", "priority: 010", "name: true"):
        assert _decode_simple_front_matter(raw) is None, raw


def test_simple_steering_file_does_not_import_pyyaml():
    code = (
        "import sys\n"
        "from ctxtui.engine.sources.steering import parse_steering_file\n"
        "parse_steering_file('a.md', '.context/steering/a.md', '---\\nname: a\\ninclusion: always\\npriority: 5\\n---\\nbody\\n')\n"
        "print('yaml' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_parse_steering_file_fields_from_the_fast_path():
    sf = parse_steering_file(
        "a.md", ".context/steering/a.md", "---\nname: a\ninclusion: always\npriority: 5\n---\nbody\n"
    )
    assert (sf.name, sf.inclusion, sf.priority, sf.tools, sf.body) == ("a", "always", 5, None, "body\n")
