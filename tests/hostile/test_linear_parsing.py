"""TASKS.md / CONSTITUTION.md parsing is linear and exactly ctx's pattern.

Python's backtracking regex took 48 s on 100 KB of blank lines (each line
start scanned every following blank line); `checkbox_lines` walks the text
once. The time bound lives in bench/bench_parse.py (a 10 MB file), not in a
unit-test timer; here we prove the scanner returns exactly what the pattern
matches.
"""

from __future__ import annotations

from ctxtui.engine.sources.context import TASK_PATTERN, checkbox_lines
from hypothesis import given, settings
from hypothesis import strategies as st

PIECES = st.sampled_from(
    ["-", "[", "]", "x", "X", " ", "\t", "\n", "\r", "\f", "a", "\n\n", "- [ ] ", "- [x] ", "  -", "[ ]", "[]", "é"]
)


@settings(max_examples=3000, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join))
def test_scanner_equals_the_pattern(text):
    want = [(m.group(2), m.start(3), m.group(3)) for m in TASK_PATTERN.finditer(text)]
    assert [(m.box, m.start, m.text) for m in checkbox_lines(text)] == want


def test_the_quirky_cases():
    assert [(m.box, m.text) for m in checkbox_lines("- [ ]\nswallowed line\n")] == [(" ", "swallowed line")]
    assert [(m.box, m.text) for m in checkbox_lines("- [ ]  ")] == [(" ", " ")]  # backtracks to one space
    assert [(m.box, m.text) for m in checkbox_lines("\n\n  -\n\n[x]  done\n")] == [("x", "done")]
    assert checkbox_lines("- [X] upper\n* [ ] star\n- [-] dash\n") == []
