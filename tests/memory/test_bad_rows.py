"""Bad rows are skipped or clamped, each with a problem naming the file and row; the rest loads."""

from __future__ import annotations

import sqlite3

import pytest
from ctxtui.engine.sources.memory import load_memories

from .conftest import empty_store

GOOD = "2026-04-01T00:00:00Z"
NATIVE_INSERT = (
    "INSERT INTO memories (id, kind, title, body, tags, importance, status, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def native_with(tmp_path, rows) -> tuple:
    """A native db (constraints dropped, as a foreign writer might) holding a good row plus `rows`."""
    path = empty_store(tmp_path / "memory.db", "ctxtui")
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE loose AS SELECT * FROM memories WHERE 0;
        DROP TABLE memories;
        ALTER TABLE loose RENAME TO memories;
    """)
    conn.execute(NATIVE_INSERT, ("good", "fact", "A fine memory", "Body.", "[]", 0.5, "active", GOOD, GOOD))
    conn.executemany(NATIVE_INSERT, rows)
    conn.commit()
    conn.close()
    return path, load_memories(path)


def messages(load) -> list[str]:
    return [p.message for p in load.problems]


def test_every_problem_names_file_and_row(tmp_path):
    path, load = native_with(tmp_path, [("x", "fact", "T", "B", "[]", 7.0, "active", GOOD, GOOD)])
    assert [r.id for r in load.records] == ["good", "x"]
    assert [str(p) for p in load.problems] == [f"{path}: row 2 (id 'x'): importance 7.0 is above 1: clamped to 1.0"]


@pytest.mark.parametrize(
    "importance, expected, complaint",
    [
        (-0.3, 0.0, "importance -0.3 is below 0: clamped to 0.0"),
        (1.5, 1.0, "importance 1.5 is above 1: clamped to 1.0"),
        ("NaN", 0.5, "importance is NaN: 0.5 used"),
        ("very", 0.5, "importance 'very' is not a number: 0.5 used"),
        (None, 0.5, "importance is missing: 0.5 used"),
        (float("inf"), 1.0, "importance inf is above 1: clamped to 1.0"),
        (1, 1.0, None),
    ],
)
def test_importance_is_clamped(tmp_path, importance, expected, complaint):
    _, load = native_with(tmp_path, [("x", "fact", "T", "B", "[]", importance, "active", GOOD, GOOD)])
    assert load.records[1].importance == expected
    assert messages(load) == ([f"row 2 (id 'x'): {complaint}"] if complaint else [])


@pytest.mark.parametrize(
    "created, complaint",
    [
        ("99999-01-01T00:00:00Z", "created_at '99999-01-01T00:00:00Z' is not a date: scored as undated"),
        ("yesterday-ish", "created_at 'yesterday-ish' is not a date: scored as undated"),
        ("2026-02-30", "created_at '2026-02-30' is not a date: scored as undated"),
        ("0001-01-01T00:00:00Z", "created_at '0001-01-01T00:00:00Z' is before 1970: scored as undated"),
        ("9999-12-31T00:00:00Z", "created_at '9999-12-31T00:00:00Z' is in the future: scored as undated"),
        (None, "created_at is missing: scored as undated"),
    ],
)
def test_absurd_dates_become_undated(tmp_path, created, complaint):
    _, load = native_with(tmp_path, [("x", "fact", "T", "B", "[]", 0.5, "active", created, GOOD)])
    record = load.records[1]
    assert record.created_date is None and record.created_at == (created or "")
    assert messages(load) == [f"row 2 (id 'x'): {complaint}"]


def test_future_dates_relative_to_now(tmp_path, now):
    path, _ = native_with(
        tmp_path,
        [
            ("x", "fact", "T", "B", "[]", 0.5, "active", "2026-05-02T11:00:00Z", GOOD),
            ("y", "fact", "T", "B", "[]", 0.5, "active", "2026-06-01T00:00:00Z", GOOD),
        ],
    )
    load = load_memories(path, now=now)
    assert [r.created_date for r in load.records] == ["2026-04-01", "2026-05-02", None]  # a day of skew is fine
    assert messages(load) == ["row 3 (id 'y'): created_at '2026-06-01T00:00:00Z' is in the future: scored as undated"]


def test_nulls_are_skipped_or_filled(tmp_path):
    _, load = native_with(
        tmp_path,
        [
            (None, "fact", "No id", "B", "[]", 0.5, "active", GOOD, GOOD),
            ("no-title", "fact", None, "First line\nsecond", "[]", 0.5, "active", GOOD, GOOD),
            ("nothing", "fact", None, None, "[]", 0.5, "active", GOOD, GOOD),
            ("no-kind", None, "T", "B", "[]", 0.5, "active", GOOD, GOOD),
            ("no-status", "fact", "T", "B", "[]", 0.5, None, GOOD, GOOD),
            ("odd-status", "fact", "T", "B", "[]", 0.5, "deleted", GOOD, GOOD),
            ("no-tags", "fact", "T", "B", None, 0.5, "active", GOOD, GOOD),
            ("good", "fact", "Duplicate", "B", "[]", 0.5, "active", GOOD, GOOD),
        ],
    )
    records = {r.id: r for r in load.records}
    assert list(records) == ["good", "no-title", "no-kind", "no-status", "odd-status", "no-tags"]
    assert records["good"].title == "A fine memory"
    assert records["no-title"].title == "First line"
    assert records["no-kind"].kind == "memory"
    assert records["no-status"].status == records["odd-status"].status == "active"
    assert records["no-tags"].tags == ()
    assert messages(load) == [
        "row 2: no id: skipped",
        "row 3 (id 'no-title'): title is missing: first line of the summary or body used",
        "row 4 (id 'nothing'): no title and no body: skipped",
        "row 5 (id 'no-kind'): kind is missing: treated as a plain memory",
        "row 6 (id 'no-status'): status is missing: treated as active",
        "row 7 (id 'odd-status'): unknown status 'deleted': treated as active",
        "row 9 (id 'good'): duplicate id: skipped",
    ]


def test_bad_tags(tmp_path):
    _, load = native_with(
        tmp_path,
        [
            ("a", "fact", "T", "B", "not json", 0.5, "active", GOOD, GOOD),
            ("b", "fact", "T", "B", '{"a": 1}', 0.5, "active", GOOD, GOOD),
            ("c", "fact", "T", "B", '["x", 3, null]', 0.5, "active", GOOD, GOOD),
        ],
    )
    assert [r.tags for r in load.records] == [(), (), (), ("x", "3")]
    assert messages(load) == [
        "row 2 (id 'a'): tags 'not json' is not valid JSON: ignored",
        "row 3 (id 'b'): tags '{\"a\": 1}' is not a JSON array: ignored",
    ]


def test_untrusted_text_is_kept_verbatim(tmp_path):
    nasty = "[bold red]markup[/] \x1b[31mescape\x1b[0m <script>"
    _, load = native_with(tmp_path, [("x", "fact", nasty, nasty, "[]", 0.5, "active", GOOD, GOOD)])
    assert load.records[1].title == nasty and load.records[1].body == nasty


def test_invalid_utf8_is_replaced_not_fatal(tmp_path):
    path, _ = native_with(tmp_path, [])
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO memories (id, kind, title, body, created_at, updated_at, status, importance, tags) "
        "VALUES ('bin', 'fact', CAST(X'48E9FF21' AS TEXT), 'b', ?, ?, 'active', 0.5, '[]')",
        (GOOD, GOOD),
    )
    conn.commit()
    conn.close()
    load = load_memories(path)
    assert [r.id for r in load.records] == ["good", "bin"]
    assert load.records[1].title == "H\ufffd\ufffd!"
    assert messages(load) == ["some text is not valid UTF-8: undecodable bytes were replaced"]


def test_non_text_values_are_stringified(tmp_path):
    _, load = native_with(tmp_path, [(42, "fact", 7, b"blob body", "[]", 0.5, "active", GOOD, GOOD)])
    record = load.records[1]
    assert (record.id, record.title, record.body) == ("42", "7", "blob body")


def test_cortex_bad_values(tmp_path):
    path = empty_store(tmp_path / "c.db", "cortex")
    conn = sqlite3.connect(path)
    insert = (
        "INSERT INTO memories (id, type, content, summary, importance, access_count, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)"
    )
    conn.executemany(
        insert,
        [
            ("a", "tribal", '{"topic": "Fine"}', "s", "normal", 2, GOOD),
            ("b", "tribal", "{not json", "Summary title", "enormous", -4, GOOD),
            ("c", "semantic", "{}", "", "high", "many", GOOD),
        ],
    )
    conn.commit()
    conn.close()
    load = load_memories(path)
    records = {r.id: r for r in load.records}
    assert list(records) == ["a", "b"]
    assert records["b"].title == "Summary title" and records["b"].body == "{not json"
    assert records["b"].importance == 0.5 and records["b"].times_retrieved == 0
    assert messages(load) == [
        "row 2 (id 'b'): content is not valid JSON: shown as text",
        "row 2 (id 'b'): unknown importance 'enormous': normal (0.5) used",
        "row 2 (id 'b'): access_count -4 is not a count: 0 used",
        "row 3 (id 'c'): access_count 'many' is not a count: 0 used",
        "row 3 (id 'c'): no title and no body: skipped",
    ]
