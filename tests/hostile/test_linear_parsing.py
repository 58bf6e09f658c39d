"""TASKS.md / CONSTITUTION.md parsing is linear and exactly ctx's pattern; the template test reads lines as a split would.

Python's backtracking regex took 48 s on 100 KB of blank lines (each line
start scanned every following blank line); `checkbox_lines` walks the text
once. The time bound lives in bench/bench_parse.py (a 10 MB file), not in a
unit-test timer; here we prove the scanner returns exactly what the pattern
matches.
"""

from __future__ import annotations

from ctxtui.engine.sources.context import checkbox_lines, is_effectively_empty, task_pattern
from ctxtui.engine.text.go import go_trim, utf8_len
from hypothesis import given, settings
from hypothesis import strategies as st

PIECES = st.sampled_from(
    ["-", "[", "]", "x", "X", " ", "\t", "\n", "\r", "\f", "a", "\n\n", "- [ ] ", "- [x] ", "  -", "[ ]", "[]", "é"]
)


@settings(max_examples=3000, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join))
def test_scanner_equals_the_pattern(text):
    want = [(m.group(2), m.start(3), m.group(3)) for m in task_pattern().finditer(text)]
    assert [(m.box, m.start, m.text) for m in checkbox_lines(text)] == want


def test_the_quirky_cases():
    assert [(m.box, m.text) for m in checkbox_lines("- [ ]\nswallowed line\n")] == [(" ", "swallowed line")]
    assert [(m.box, m.text) for m in checkbox_lines("- [ ]  ")] == [(" ", " ")]  # backtracks to one space
    assert [(m.box, m.text) for m in checkbox_lines("\n\n  -\n\n[x]  done\n")] == [("x", "done")]
    assert checkbox_lines("- [X] upper\n* [ ] star\n- [-] dash\n") == []


def _empty_by_split(text: str) -> bool:
    """ctx's template test as it reads (`utf8.RuneCount`-free: byte length), line by line of a split."""
    if utf8_len(text) < 20:
        return True
    for line in text.split("\n"):
        line = go_trim(line)
        if not line or line.startswith("#") or line.startswith("<!--") or line.endswith("-->"):
            continue
        if line.startswith("-") and utf8_len(line) < 5:
            continue
        return False
    return True


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(st.sampled_from(["#", "<!--", "-->", "- ", "-", "ab", "é", "\n", " ", "\t", "abcdefghij"]), max_size=30)
)
def test_template_test_equals_the_split_reading(pieces):
    text = "".join(pieces)
    assert is_effectively_empty(text) == _empty_by_split(text)


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(
        st.sampled_from(["-", " -", "\t-", "\r-", "\f-", "\n", " ", "\t", "a", "x -", "\n\n", "\r\n-", "é"]),
        max_size=30,
    )
)
def test_dash_lines_are_the_lines_whose_first_non_blank_is_a_dash(pieces):
    """As ctx's pattern finds them."""
    import re

    from ctxtui.engine.sources import context

    text = "".join(pieces)
    want = [m.end() - 1 for m in re.finditer(r"(?m)^[\t\f\r ]*-", text)]
    assert list(context._dash_lines(text)) == want


def test_dash_lines_hold_few_offsets_at_a_time():
    """A generator over windows: 5 million dash lines are never all in one list."""
    from ctxtui.engine.sources import context

    lines = context._dash_lines("-\n" * 5_000_000)
    assert next(lines) == 0 and next(lines) == 2
    assert not isinstance(context._dash_lines(""), list)
