"""ctx's constitution, convention and header patterns: each reading finds exactly what its pattern finds.

`constitution_rule` is a scan (Python's engine is quadratic on its pattern), the others the
patterns as ctx writes them; the patterns here are the reference (what ctx's Go regexes mean, with RE2's
ASCII `\\s` written out).
"""

from __future__ import annotations

import re

from ctxtui.engine.sources.context import constitution_rule, convention_bullets, entry_header
from hypothesis import given, settings
from hypothesis import strategies as st

WS = r"[\t\n\f\r ]"
CHECKBOX = "^(" + WS + "*)-" + WS + r"*\[([x ]?)\]" + WS + "*(.+)"
CONSTITUTION_PATTERN = re.compile(CHECKBOX + r"\Z")
CONVENTION_PATTERN = re.compile(r"^-" + WS + r"*(.+)$", re.M)
ENTRY_HEADER = re.compile(r"## \[([0-9]{4}-[0-9]{2}-[0-9]{2})-([0-9]{6})\] (.+)")

markdownish = st.text(alphabet=st.sampled_from(["-", "[", "]", "x", " ", "\t", "\n", "\r", "\f", "a", "#", "X", "é"]))


@settings(max_examples=4000, deadline=None)
@given(markdownish)
def test_constitution_rule_is_the_pattern(text):
    match = CONSTITUTION_PATTERN.search(text)
    assert constitution_rule(text) == (match.group(3) if match else None), repr(text)


@settings(max_examples=4000, deadline=None)
@given(markdownish)
def test_convention_bullets_are_the_pattern(text):
    want = [(m.start(), m.group(1)) for m in CONVENTION_PATTERN.finditer(text)]
    assert convention_bullets(text) == want, repr(text)


def _header_line():
    digits = st.text(alphabet="0123456789٣a", min_size=0, max_size=7)
    stamp = st.builds(lambda a, b, c, d: f"{a}-{b}-{c}-{d}", digits, digits, digits, digits)
    piece = st.one_of(
        st.builds(lambda s, t: f"## [{s}] {t}", stamp, st.text(alphabet="ab ]\r", max_size=4)),
        st.sampled_from(["## [", "## [2026-11-26-120000]", "## [2026-11-26-120000] ", "#", " ", "x"]),
    )
    return st.lists(piece, max_size=4).map("".join)


@settings(max_examples=4000, deadline=None)
@given(_header_line())
def test_entry_header_is_the_pattern(line):
    match = ENTRY_HEADER.search(line)
    assert entry_header(line) == ((match.group(1), match.group(3)) if match else None), repr(line)


def test_edges():
    assert constitution_rule("\n\n - [x]  rule") == "rule"
    assert constitution_rule("- [ ] rule\n") is None  # Go's $ is the end of the text
    assert constitution_rule("- [ ] \t") == "\t"  # the pattern backtracks into the trailing run
    assert convention_bullets("-\n\n- next") == [(0, "- next")]
    assert convention_bullets("- a\n- b\n -c") == [(0, "a"), (4, "b")]
    assert convention_bullets("- \n") == [(0, " ")]
    assert entry_header("x ## [2026-11-26-120000] Title") == ("2026-11-26", "Title")
    assert entry_header("## [2026-11-26-12000] T ## [2026-11-26-120000] U") == ("2026-11-26", "U")


def test_the_constitution_scan_stays_linear_where_a_backtracking_regex_is_quadratic():
    """`- [x]` and 200,000 spaces before a newline: Python's engine on ctx's pattern needs ~200 s (2.1 s at
    20,000 spaces, quadratic); RE2 and the scan are linear. A hostile CONSTITUTION.md must not hang a load."""
    import time

    text = "- [x]" + " " * 200_000 + "\nmore\n"
    started = time.process_time()
    assert constitution_rule(text) is None
    assert time.process_time() - started < 1.0
