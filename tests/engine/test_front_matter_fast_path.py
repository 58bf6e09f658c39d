"""Steering front matter read without PyYAML (the cold `ctxtui pack` path) agrees with the full yaml.v3 decoder.

`_decode_simple_front_matter` accepts only `key: word...` and `key: 123`
lines and hands anything else to the full decoder; on every input it accepts,
the fields must be exactly what the full decoder gives.
"""

from __future__ import annotations

import re
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


# The fast path's line checks as regular expressions, as they were written before they became string
# checks (compiling these cost a cold `pack` ~0.3 ms): the checks must accept exactly what these match.
PLAIN_LINE = re.compile(r"([A-Za-z][A-Za-z0-9_-]*): +([A-Za-z](?:[A-Za-z0-9 ,./()+_-]*[A-Za-z0-9./()+_-])?)")
PLAIN_INT_LINE = re.compile(r"([A-Za-z][A-Za-z0-9_-]*): +(0|[1-9][0-9]{0,17})")


def _by_checks(line: str) -> tuple[str, tuple[str, str] | None]:
    pair = steering._key_and_value(line)
    if pair is not None and steering._is_plain_text(pair[1]):
        return "text", pair
    if pair is not None and steering._is_plain_int(pair[1]):
        return "int", pair
    return "none", None


def _by_patterns(line: str) -> tuple[str, tuple[str, str] | None]:
    for kind, pattern in (("text", PLAIN_LINE), ("int", PLAIN_INT_LINE)):
        match = pattern.fullmatch(line)
        if match is not None:
            return kind, (match.group(1), match.group(2))
    return "none", None


@settings(max_examples=3000, deadline=None)
@given(
    st.one_of(
        st.text(alphabet="aZ09_-: ,./()+#'\"\t\n\r\xa0é٣", max_size=24),
        st.builds(
            lambda k, sep, v: f"{k}:{sep}{v}",
            st.text(alphabet="aZ9_- :", max_size=6),
            st.sampled_from(["", " ", "  ", "\t", " \t"]),
            st.one_of(st.sampled_from(VALUES), st.text(alphabet="a9 ,./()+_-0٣", max_size=22)),
        ),
    )
)
def test_the_line_checks_accept_what_the_patterns_matched(line):
    assert _by_checks(line) == _by_patterns(line), line


def test_the_line_checks_at_their_edges():
    assert _by_checks("priority: " + "9" * 18) == ("int", ("priority", "9" * 18))
    assert _by_checks("priority: " + "9" * 19)[0] == "none"
    for line in ("name: a,", "name: a ", "name:a", ": a", "1name: a", "name: ٣", "name: 00", "name: -1"):
        assert _by_checks(line) == _by_patterns(line) and _by_checks(line)[0] == "none", line
