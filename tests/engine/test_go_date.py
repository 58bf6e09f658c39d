"""ctx's entry dates (`time.ParseInLocation("2006-01-02", s)`) read without a regular expression."""

from __future__ import annotations

import re

from ctxtui.engine.text.go_time import parse_date
from hypothesis import given, settings
from hypothesis import strategies as st

PATTERN = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")  # what the check replaced


def _by_pattern(s: str) -> tuple[int, int, int] | None:
    match = PATTERN.fullmatch(s)
    return None if match is None else (int(match.group(1)), int(match.group(2)), int(match.group(3)))


@settings(max_examples=3000, deadline=None)
@given(
    st.one_of(
        st.text(alphabet="0123456789-٣ x\n", max_size=12),
        st.builds(
            "{:04d}-{:02d}-{:02d}".format,
            st.integers(0, 9999),
            st.integers(0, 13),
            st.integers(0, 32),
        ),
    )
)
def test_a_date_reads_as_the_pattern_read_it(s):
    digits = _by_pattern(s)
    got = parse_date(s)
    if digits is None:
        assert got is None, s
    else:
        assert got is None or got == digits, s  # then the calendar decides


def test_the_calendar():
    assert parse_date("2026-11-26") == (2026, 11, 26)
    assert parse_date("0000-02-29") == (0, 2, 29)  # year 0 is a leap year
    for s in ("2026-02-29", "2026-13-01", "2026-00-10", "2026-01-00", "2026-1-01", "٢٠٢٦-01-01", "2026-01-01\n"):
        assert parse_date(s) is None, s
