"""Parsing a huge context file costs a bounded multiple of the file in memory (issue 20, medium 17).

The attack: 10 MB of "-" lines in CONVENTIONS.md are 2.5 million bullets,
and each became an entry (a dropped one: ctx scans the first 1,000 bullets
only), about 80 times the file in memory (1.09 GB for 10 MB). Now the
bullets past the scan are listed up to `SKIPPED_LISTED` and the rest
counted in one problem; the packet does not change, since ctx never reads
them. Tasks are still one entry each (about 10 times the file: see
docs/reading-files.md); the bound here is on how the parsers hold matches
(one at a time, never a list of all of them).
"""

from __future__ import annotations

import tracemalloc

from ctxtui.engine.sources.context import (
    CONVENTION_SCAN_LIMIT,
    SKIPPED_LISTED,
    parse_context,
    parse_conventions,
    parse_tasks,
    read_context_files,
)

from tests.conftest import write_context


def peak_of(work) -> tuple[object, int, int]:
    """(work(), the memory its result holds, the peak of memory traced while it ran)."""
    tracemalloc.start()
    try:
        result = work()
        return (result, *tracemalloc.get_traced_memory())
    finally:
        tracemalloc.stop()


def test_a_file_of_dash_lines_costs_a_few_times_its_size():
    text = "-\n" * 250_000  # 500 KB: 125,000 bullets, each "-"
    (kept, skipped, unlisted), _, peak = peak_of(lambda: parse_conventions(text))
    assert peak < 5 * len(text), f"{peak / len(text):.1f} times the file"
    assert len(kept) == CONVENTION_SCAN_LIMIT and len(skipped) == SKIPPED_LISTED
    assert unlisted is not None and unlisted.line == 2 * (CONVENTION_SCAN_LIMIT + SKIPPED_LISTED) + 1
    assert unlisted.message.startswith(f"{125_000 - CONVENTION_SCAN_LIMIT - SKIPPED_LISTED:,} more conventions")


def test_the_unlisted_bullets_are_a_problem_and_the_listed_ones_keep_their_keys(tmp_path):
    bullets = "".join(f"- rule {i}\n" for i in range(3_000))
    project = write_context(tmp_path / "p", {"CONVENTIONS.md": bullets})
    parsed = parse_context(read_context_files(project))
    assert [e.title for e in parsed.conventions][-1] == f"rule {CONVENTION_SCAN_LIMIT - 1}"
    assert [e.title for e in parsed.conventions_skipped][-1] == f"rule {CONVENTION_SCAN_LIMIT + SKIPPED_LISTED - 1}"
    assert parsed.conventions_skipped[0].source == f".context/CONVENTIONS.md:{CONVENTION_SCAN_LIMIT + 1}"
    (problem,) = [p for p in parsed.problems if "more conventions" in p.message]
    assert problem.line == CONVENTION_SCAN_LIMIT + SKIPPED_LISTED + 1 and problem.message.startswith("1,000 more")


def test_tasks_are_made_entries_one_match_at_a_time():
    """Parsing holds little beyond the entries it returns (it held every match first: 7 times the file more)."""
    text = "".join(f"- [ ] Task {i:07d}: refactor the parser\n" for i in range(20_000))
    tasks, held, peak = peak_of(lambda: parse_tasks(text))
    assert len(tasks) == 20_000
    assert peak - held < 4 * len(text), f"{(peak - held) / len(text):.1f} times the file above the entries"
