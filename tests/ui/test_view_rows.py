"""The table's rows for a view are made on demand and agree with rows made from every outcome (issue 11).

`ViewRows` makes row k from the plan's single outcome of candidate
`plan.order[k]`; filters by fate, section and key read the fate vector and the
entries; a text filter or a sort by a number builds every row at once. Each
path must give exactly what the eager rows (`rows_from_outcomes`) give.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.session import Session
from ctxtui.tui.widgets.entries.columns import columns_for
from ctxtui.tui.widgets.entries.rows import (
    RowFilter,
    ViewRows,
    position_of,
    rows_from_outcomes,
    rows_of,
    sorted_indices,
)

from tests.app.helpers import SIZE, make_app, settle
from tests.factories.workspace import write_workspace

NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return write_workspace(
        tmp_path_factory.mktemp("ws") / "p", tasks=300, decisions=900, learnings=900, conventions=40, seed=4, now=NOW
    )


def views(project, budgets=(300, 3000, 30000)):
    session = Session(project=project, clock=lambda: NOW, root_path="/p")
    session.load(4000)
    for budget in budgets:
        session.set_budget(budget)
        yield session.view()


def test_rows_made_one_by_one_are_the_eager_rows(project):
    for view in views(project):
        lazy = rows_of(view)
        eager = rows_from_outcomes(view.plan.outcomes, columns_for(view.packer_name))
        assert len(lazy) == len(eager)
        for k in (0, 1, len(eager) // 2, len(eager) - 1):
            row = lazy[k]
            assert (row.key, row.fate, row.order, row.cells()) == (eager[k].key, eager[k].fate, k, eager[k].cells())
            assert lazy.key_at(k) == row.key and lazy.fate_at(k) is row.fate and lazy.entry_at(k) is row.outcome.entry
        assert not lazy.complete  # nothing above needed every row
        assert [(r.key, r.cells()) for r in lazy] == [(r.key, r.cells()) for r in eager]


@pytest.mark.parametrize(
    "spec",
    [
        RowFilter(fates=frozenset({Fate.SUMMARIZED})),
        RowFilter(sections=frozenset({"learnings"})),
        RowFilter(fates=frozenset({Fate.DROPPED}), sections=frozenset({"tasks", "decisions"})),
        RowFilter(keys=frozenset({"nope"})),
        RowFilter(text="release"),
        RowFilter(text="over", fates=frozenset({Fate.SUMMARIZED, Fate.DROPPED})),
        RowFilter(text="CAP"),  # a reason's label ("over cap") and titles alike
        RowFilter(text="task", keys=frozenset({"nope"})),
        RowFilter(text="t", sections=frozenset({"tasks"}), fates=frozenset({Fate.INCLUDED})),
    ],
)
def test_filters_agree_and_compact_ones_build_no_row(project, spec):
    for view in views(project):
        lazy = rows_of(view)
        eager = rows_from_outcomes(view.plan.outcomes, columns_for(view.packer_name))
        assert spec.apply(lazy) == spec.apply(eager)
        assert not lazy.complete  # from the fate vector, the load's titles and the reason vector


@pytest.mark.parametrize(
    "column", [None, "score", "tokens", "reason", "title", "fate", "age", "recency", "relevance", "section", "mark"]
)
@pytest.mark.parametrize("reverse", [False, True])
def test_sorts_agree(project, column, reverse):
    for view in views(project, budgets=(300, 3000)):
        lazy = rows_of(view)
        eager = rows_from_outcomes(view.plan.outcomes, columns_for(view.packer_name))
        columns = columns_for(view.packer_name)
        indices = list(range(len(eager)))
        assert sorted_indices(lazy, indices, column, reverse, columns) == sorted_indices(
            eager, indices, column, reverse, columns
        )
        some = indices[::3]
        assert sorted_indices(lazy, some, column, reverse, columns) == sorted_indices(
            eager, some, column, reverse, columns
        )
        assert not lazy.complete  # a number, a title, a fate or a reason: from vectors


def test_an_entry_is_found_again_without_building_rows(project):
    before, after = list(views(project, budgets=(3000, 3100)))
    eager = rows_from_outcomes(after.plan.outcomes, columns_for(after.packer_name))
    lazy = rows_of(after)
    for row in rows_of(before)[:50:7]:
        entry = row.outcome.entry
        everything = list(range(len(eager)))
        assert position_of(lazy, everything, entry) == position_of(eager, everything, entry)
        some = everything[::3]
        assert position_of(lazy, some, entry) == position_of(eager, some, entry)
    assert not lazy.complete


@pytest.mark.asyncio
async def test_a_slider_step_makes_only_the_rows_on_screen(project):
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        rows = rows_of(app.main.view)
        assert isinstance(rows, ViewRows) and len(rows) > 2000
        assert not rows.complete and len(rows._made) <= SIZE[1]  # the rows drawn (and the selected one)


def test_optional_columns_are_found_through_the_entries(tmp_path):
    """Importance and usage show when a memory has them; asking the entries gives what every row gives."""
    from ctxtui.tui.widgets.entries.rows import optional_present

    from tests.conftest import corpus_path
    from tests.factories.memory_dbs import build_native_db

    if not (corpus_path("ctx-dogfood") / ".context").is_dir():
        pytest.skip("needs ../shared/corpus")
    db = build_native_db(tmp_path / "m.db", 200, 2, NOW)
    for database in (None, db):
        session = Session(project=corpus_path("ctx-dogfood"), db=database, clock=lambda: NOW, root_path="/p")
        session.load(4000)
        view = session.view()
        eager = rows_from_outcomes(view.plan.outcomes, columns_for(view.packer_name))
        found = optional_present(rows_of(view))
        assert found == optional_present(eager)
        assert (found == {"importance", "usage"}) is (database is not None)
