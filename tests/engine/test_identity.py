"""An entry's key is what it is, not where it sits: edits elsewhere in its file leave every other key as it was.

Property tests over generated `.context/` files: inserting or removing
unrelated lines (blank lines, HTML comments, headings, prose) anywhere keeps
every key; moving a task keeps its key; identical tasks stay separate
entries; a decision whose body grew keeps its key and is *edited*.
"""

from __future__ import annotations

from ctxtui.engine.sources.context import ContextFiles, parse_context
from ctxtui.engine.sources.identity import Keys, normalised
from hypothesis import given, settings
from hypothesis import strategies as st

# Few words, so that equal texts (duplicates) are common.
words = st.lists(
    st.sampled_from(["fix", "the", "build", "ship", "docs", "x", "é", "#1", "a  b"]), min_size=1, max_size=4
)
item = words.map(" ".join)
stamp = st.builds(
    lambda d, t: f"2026-11-{d:02d}-{t:06d}", st.integers(1, 28), st.sampled_from([0, 91500, 120000, 235959])
)
block = st.tuples(stamp, item, st.lists(item, max_size=3))
unrelated = st.sampled_from(
    ["", "<!-- a comment -->", "# Notes", "Some prose here.", "   ", "## Later", "***", "1. a numbered line"]
)


def _files(tasks, conventions, rules, decisions, learnings) -> dict[str, list[str]]:
    def blocks(found):
        lines = ["# Decisions"]
        for when, title, body in found:
            lines += [f"## [{when}] {title}", "", *body, ""]
        return lines

    return {
        "TASKS.md": ["# Tasks", "", *(f"- [{'x' if done else ' '}] {text}" for text, done in tasks)],
        "CONVENTIONS.md": ["# Conventions", "", *(f"- {text}" for text in conventions)],
        "CONSTITUTION.md": ["# Constitution", "", *(f"- [ ] {text}" for text in rules)],
        "DECISIONS.md": blocks(decisions),
        "LEARNINGS.md": blocks(learnings),
    }


workspace = st.builds(
    _files,
    st.lists(st.tuples(item, st.booleans()), max_size=8),
    st.lists(item, max_size=6),
    st.lists(item, max_size=4),
    st.lists(block, max_size=4),
    st.lists(block, max_size=4),
)


def keys_of(files: dict[str, list[str]]) -> dict[str, list[str]]:
    """Every candidate key of each section, in file order."""
    parsed = parse_context(
        ContextFiles("/p", ".context", {name: "\n".join(lines) + "\n" for name, lines in files.items()})
    )
    sections = {
        "tasks": parsed.tasks,
        "conventions": parsed.conventions + parsed.conventions_skipped,
        "constitution": parsed.constitution_candidates,
        "decisions": parsed.decisions,
        "learnings": parsed.learnings,
    }
    return {name: [e.key for e in entries] for name, entries in sections.items()}


def all_keys(files) -> list[str]:
    return [key for keys in keys_of(files).values() for key in keys]


@settings(max_examples=200, deadline=None)
@given(
    workspace,
    st.sampled_from(["TASKS.md", "CONVENTIONS.md", "CONSTITUTION.md", "DECISIONS.md", "LEARNINGS.md"]),
    st.integers(0, 10_000),
    st.lists(unrelated, min_size=1, max_size=3),
)
def test_unrelated_lines_inserted_anywhere_change_no_key(files, name, at, lines):
    before = all_keys(files)
    edited = {
        **files,
        name: files[name][: at % (len(files[name]) + 1)] + lines + files[name][at % (len(files[name]) + 1) :],
    }
    assert all_keys(edited) == before


@settings(max_examples=200, deadline=None)
@given(
    workspace,
    st.sampled_from(["TASKS.md", "CONVENTIONS.md", "CONSTITUTION.md", "DECISIONS.md", "LEARNINGS.md"]),
    st.integers(0, 10_000),
    st.lists(unrelated, min_size=1, max_size=3),
)
def test_unrelated_lines_removed_change_no_key(files, name, at, lines):
    place = at % (len(files[name]) + 1)
    padded = {**files, name: files[name][:place] + lines + files[name][place:]}
    assert all_keys(files) == all_keys(padded)  # removing them again gives the keys back


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(item, st.booleans()), min_size=1, max_size=8), st.integers(0, 100), st.integers(0, 100))
def test_a_moved_task_keeps_its_key(tasks, source, target):
    files = _files(tasks, [], [], [], [])
    moved_task = tasks[source % len(tasks)]
    rest = tasks[: source % len(tasks)] + tasks[source % len(tasks) + 1 :]
    place = target % (len(rest) + 1)
    moved = _files([*rest[:place], moved_task, *rest[place:]], [], [], [], [])
    before, after = keys_of(files)["tasks"], keys_of(moved)["tasks"]
    assert sorted(before) == sorted(after)  # the same entries: none new, none gone
    text, done = moved_task
    if not done and sum(1 for t in tasks if normalised(t[0]) == normalised(text) and not t[1]) == 1:
        assert f"tasks:.context/TASKS.md:{normalised(text)}#1" in after


@settings(max_examples=300, deadline=None)
@given(workspace)
def test_every_key_is_unique_and_holds_no_line_number(files):
    keys = all_keys(files)
    assert len(keys) == len(set(keys))
    pending = [t for t in files["TASKS.md"] if t.startswith("- [ ]")]
    assert len(keys_of(files)["tasks"]) == len(pending)  # identical tasks stay separate entries


def test_two_identical_tasks_are_two_entries_numbered_from_the_top():
    keys = keys_of(_files([("Ship it", False), ("Other", False), ("Ship  it", False)], [], [], [], []))["tasks"]
    assert keys == [
        "tasks:.context/TASKS.md:Ship it#1",
        "tasks:.context/TASKS.md:Other#1",
        "tasks:.context/TASKS.md:Ship it#2",
    ]


def test_a_decision_whose_body_grew_keeps_its_key_and_its_location_is_its_line():
    old = _files([], [], [], [("2026-11-02-091500", "Use SQLite", ["Because."])], [])
    new = {
        **old,
        "DECISIONS.md": ["<!-- moved down -->", *old["DECISIONS.md"][:4], "More reasons.", *old["DECISIONS.md"][4:]],
    }
    parse = lambda files: parse_context(  # noqa: E731
        ContextFiles("/p", ".context", {n: "\n".join(lines) + "\n" for n, lines in files.items()})
    ).decisions[0]
    before, after = parse(old), parse(new)
    assert before.key == after.key == "decisions:.context/DECISIONS.md:[2026-11-02-091500] Use SQLite#1"
    assert before.text != after.text
    assert (before.location, after.location) == (".context/DECISIONS.md:2", ".context/DECISIONS.md:3")


def test_no_text_poses_as_another_entrys_occurrence():
    key = Keys("tasks", "T.md")
    assert len({key("fix #2"), key("fix"), key("fix")}) == 3


@settings(max_examples=2000, deadline=None)
@given(st.text())
def test_normalised_is_the_words_joined_by_one_space(text):
    assert normalised(text) == " ".join(text.split())
