"""Parsing a huge context file costs a bounded multiple of the file in memory (issue 20, medium 17).

The attack: 10 MB of "-" lines in CONVENTIONS.md are 2.5 million bullets,
and each became an entry (a dropped one: ctx scans the first 1,000 bullets
only), about 80 times the file in memory (1.09 GB for 10 MB). Now the
bullets past the scan are listed up to `SKIPPED_LISTED` and the rest
counted in one problem; the packet does not change, since ctx never reads
them. A million tasks took 19 times the file (an entry and four strings
each); they are now positions in the file's text (`TaskList`), each entry
made when read, and the same entries as before. A steering file whose front
matter held 20,000 quoted keys peaked at 83 times the file (a PyYAML node
and two marks per key and value); the keys ctx ignores are now counted, not
composed (`yaml_prune`).
"""

from __future__ import annotations

import tracemalloc

from ctxtui.engine.model import Entry
from ctxtui.engine.sources.context import (
    CONVENTION_SCAN_LIMIT,
    SKIPPED_LISTED,
    LineNumbers,
    checkbox_lines,
    parse_context,
    parse_conventions,
    parse_tasks,
    read_context_files,
)
from ctxtui.engine.sources.identity import Keys
from ctxtui.engine.sources.steering import parse_steering_file
from ctxtui.engine.sources.task_list import COMPACT_AT
from ctxtui.engine.text.go import go_trim
from ctxtui.engine.text.tokens import estimate
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_a_million_tasks_cost_a_few_times_the_file():
    """Parsing 20,000 tasks peaked at 19 times the file (an entry and four strings each); now under 5."""
    text = "".join(f"- [ ] Task {i:07d}: refactor the parser\n" for i in range(20_000))
    tasks, held, peak = peak_of(lambda: parse_tasks(text))
    assert len(tasks) == 20_000 and len(tasks) > COMPACT_AT
    assert peak < 5 * len(text) and held < 1.5 * len(text), f"peak {peak / len(text):.1f}, held {held / len(text):.1f}"


def eager_tasks(text: str, path: str = ".context/TASKS.md") -> list[Entry]:
    """What parse_tasks made before: an entry per pending task, keys from `Keys`."""
    key, line_of, out = Keys("tasks", path), LineNumbers(text), []
    for match in checkbox_lines(text):
        if match.box != "x":
            line = f"- [ ] {go_trim(match.text)}"
            source = f"{path}:{line_of(match.start)}"
            out.append(Entry(key(line[6:]), "tasks", line[6:], line, estimate(line), source))
    return out


PIECES = ["- [ ] ", "- [x] ", "-[]", " ", "\t", "\n", "a", "b", "\u00a0", "\u2003", "x", "[", "]", "-", "é", "\r"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60), st.integers(0, 30))
def test_the_task_list_is_the_entries_parse_tasks_made(pieces, first):
    text = "".join(pieces)
    tasks, want = parse_tasks(text), eager_tasks(text)
    if want:  # an entry asked for before those above it: the occurrence numbers are counted up to it
        assert tasks[min(first, len(want) - 1)] == want[min(first, len(want) - 1)]
    assert list(tasks) == want and tasks == want and tasks[1:3] == want[1:3]
    assert list(tasks.lines()) == [e.text for e in want] and list(tasks.tokens) == [e.tokens for e in want]


def test_repeated_titles_past_the_compact_size_keep_their_occurrence_numbers():
    text = "".join(f"- [ ] dup  {i % 3} \n- [x] done\n- [ ] t{i}\n" for i in range(COMPACT_AT))
    tasks = parse_tasks(text)
    last = (COMPACT_AT - 1) % 3
    nth = sum(1 for i in range(COMPACT_AT) if i % 3 == last)
    assert tasks[-2].key == f"tasks:.context/TASKS.md:dup {last}#{nth}"  # asked first: counts all before it
    assert tasks == eager_tasks(text)


def test_steering_front_matter_with_many_keys_costs_a_few_times_the_file():
    """20,000 quoted keys ctx does not read (not the plain fast path): 83 times the file before, now under 5."""
    keys = "".join(f"k{i}: 'v{i}'\n" for i in range(20_000))
    text = f"---\nname: big\ninclusion: always\n{keys}priority: 7\n---\nBe brief.\n"
    import yaml  # noqa: F401  # imported before measuring: the module, not the parse
    from ctxtui.engine.text import yaml_v3_decode  # noqa: F401

    parsed, _, peak = peak_of(lambda: parse_steering_file("big.md", ".context/steering/big.md", text))
    assert (parsed.name, parsed.inclusion, parsed.priority, parsed.body) == ("big", "always", 7, "Be brief.\n")
    assert peak < 5 * len(text), f"{peak / len(text):.1f} times the file"
