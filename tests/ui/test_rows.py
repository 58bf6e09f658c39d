"""rows_from_outcomes: formatting only, and the filter and sort helpers."""

from __future__ import annotations

from ctxtui.engine.explain.reasons import reason_cell
from ctxtui.engine.fate import Fate
from ctxtui.tui.widgets.entries.columns import COLUMN_BY_ID, COLUMNS
from ctxtui.tui.widgets.entries.rows import Row, RowFilter, rows_from_outcomes, sorted_indices

from tests.ui.fakes import sample_outcomes


def by_key() -> dict[str, Row]:
    return {row.key: row for row in rows_from_outcomes(sample_outcomes())}


def test_formatting_of_scores_tokens_and_reasons():
    rows = by_key()
    decision = rows["decisions:1"]
    assert (decision.age, decision.recency, decision.relevance, decision.score) == ("3d", "1.00", "0.67", "1.67")
    assert decision.importance == "" and decision.tokens == "420"
    assert decision.reason == "full 0+420≤800"
    assert rows["tasks:2"].tokens == "1,400"
    assert rows["tasks:2"].reason == "fits 120+1,400≤1,600"
    assert rows["tasks:3"].reason == "over cap 1,520+300>1,600"
    assert rows["tasks:4"].reason == "after misfit"
    assert rows["decisions:2"].reason == "summarized 420+610>800"
    memory = rows["memories:7"]
    assert (memory.importance, memory.usage) == ("0.90", "0.35")
    assert rows["tasks:1"].age == "" and rows["tasks:1"].score == ""


def test_rows_keep_packet_order_and_every_text_column_is_a_cell():
    rows = rows_from_outcomes(sample_outcomes())
    assert [r.order for r in rows] == list(range(len(rows)))
    text_columns = [c.id for c in COLUMNS if c.cell is not None]
    # The fate column is the theme's glyph and the mark column the view's marks: the table draws both.
    assert text_columns == [c.id for c in COLUMNS if c.id not in ("fate", "mark")]
    assert all(isinstance(getattr(r, column), str) for r in rows for column in text_columns)


def test_every_reason_has_a_short_text():
    for outcome in sample_outcomes():
        assert reason_cell(outcome)


def test_filter_and_sort_helpers():
    rows = rows_from_outcomes(sample_outcomes())
    summarized = RowFilter(fates=frozenset({Fate.SUMMARIZED})).apply(rows)
    assert [rows[i].key for i in summarized] == ["decisions:2", "learnings:1"]
    assert RowFilter().apply(rows) == list(range(len(rows)))
    order = sorted_indices(rows, list(range(len(rows))), "tokens", reverse=True)
    tokens = [COLUMN_BY_ID["tokens"].sort_key(rows[i].outcome) for i in order]
    assert tokens == sorted(tokens, reverse=True)
    ages = [rows[i].age for i in sorted_indices(rows, list(range(len(rows))), "age", reverse=True)]
    assert ages[:5] == ["689d", "81d", "50d", "3d", "1d"] and set(ages[5:]) == {""}


def test_position_of_finds_an_entry_by_identity_not_by_its_line_key():
    from ctxtui.engine.model import Outcome
    from ctxtui.engine.packers.ctx.reason import Reason
    from ctxtui.tui.widgets.entries.rows import position_of

    from tests.ui.fakes import entry

    def rows_of(*entries):
        return rows_from_outcomes(Outcome(e, 2, Fate.INCLUDED, Reason.FITS) for e in entries)

    docs, parser, fresh = (
        entry("tasks:4", "tasks", "Write the docs", 9),
        entry("tasks:3", "tasks", "Ship the parser", 9),
        entry("tasks:3", "tasks", "Fix the flaky build", 9),
    )
    before = rows_of(parser, docs)
    assert position_of(before, [0, 1], docs) == 1  # the same entry: found by key
    # A task inserted above: line 4 is now "Ship the parser", "Write the docs" moved to line 5.
    after = rows_of(
        fresh, entry("tasks:4", "tasks", "Ship the parser", 9), entry("tasks:5", "tasks", "Write the docs", 9)
    )
    assert position_of(after, [0, 1, 2], docs) == 2
    # Its text edited but not its title, or its title edited but not its body: still found.
    edited = rows_of(parser, docs._replace(key="tasks:8", text="Write the docs, all of them"))
    assert position_of(edited, [0, 1], docs) == 1
    # Gone: the entry now on its line, by key; nothing on that line: None.
    assert position_of(rows_of(fresh), [0], entry("tasks:3", "tasks", "Gone", 9)) == 0
    assert position_of(rows_of(fresh), [0], entry("tasks:7", "tasks", "Gone", 9)) is None
    # Duplicates: the one nearest the old place.
    twins = rows_of(*(entry(f"tasks:{n}", "tasks", "Same", 9) for n in range(5)))
    assert position_of(twins, list(range(5)), entry("tasks:3", "tasks", "Same", 9)) == 3
    assert position_of(twins, list(range(5)), entry("tasks:9", "tasks", "Same", 9), near=4) == 4
