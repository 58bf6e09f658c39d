"""TASKS.md / CONSTITUTION.md parsing is linear and exactly ctx's pattern; the template test reads lines as a split would.

Python's backtracking regex took 48 s on 100 KB of blank lines with ctx's
pattern as written (each line start scanned every following blank line);
`checkbox_lines` uses it with the blanks before "-" kept to one line, which
is linear. The time bound lives in bench/bench_parse.py (a 10 MB file), not
in a unit-test timer; here we prove it returns exactly what ctx's pattern
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


def test_task_lines_come_one_at_a_time():
    """A generator: 5 million task lines are never all in one list."""
    from ctxtui.engine.sources.context import iter_checkbox_lines

    lines = iter_checkbox_lines("- [ ] a\n" * 5_000_000)
    assert [(m.box, m.start, m.text) for m in (next(lines), next(lines))] == [(" ", 6, "a"), (" ", 14, "a")]


def test_blank_lines_before_a_dash_stay_linear():
    """200,000 blank lines, a line that is no task, then a task: ctx's pattern as written needs about an
    hour in Python's engine (5.5 s for 20,000, quadratic: each line start rescans the rest of the blank run);
    with the blanks before "-" kept to one line, milliseconds."""
    import time

    text = " \n" * 200_000 + "x\n- [ ] last\n"
    started = time.process_time()
    assert [(m.box, m.text) for m in checkbox_lines(text)] == [(" ", "last")]
    assert time.process_time() - started < 1.0
