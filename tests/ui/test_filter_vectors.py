"""Every filter and sort of the table reads per-candidate vectors and gives the plain path's rows and order
(issue 21, part 4), for every packer.

A text that is part of a reason's label and a sort by the reason read
`Packer.reason_vector`; a sort by a score column reads `Packer.component_vector`
or, for a number the entry carries itself (Shabka's signals, nous's logged
ranks), the load's index. Neither builds the plan's outcomes or rows
(`ViewRows.complete` stays False), and each must give what the rows built
from every outcome give.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from ctxtui.engine.explain.components import components_for
from ctxtui.engine.explain.reasons import REASON_SHORT
from ctxtui.engine.fate import Fate
from ctxtui.opening.packer import open_named
from ctxtui.opening.request import PackRequest
from ctxtui.tui.widgets.entries.columns import columns_for
from ctxtui.tui.widgets.entries.rows import RowFilter, ViewRows, rows_from_outcomes, sorted_indices
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import corpus_path, needs_corpus
from tests.engine.test_lazy_outcomes import assert_lazy_agrees
from tests.engine.test_properties import _engine, versions, workspaces
from tests.factories.memory_dbs import build_cortex_db, build_native_db, build_shabka_db
from tests.packers.nous.test_properties import turns

NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)
BUDGETS = (0, 40, 400, 1200, 4000, 20000)


def _by_candidate(plan) -> list:
    """The plan's outcomes in `candidates()` order (the vectors' order)."""
    found = [None] * len(plan.packer.candidates())
    for index, outcome in zip(plan.order, plan.outcomes, strict=True):
        found[index] = outcome
    return found


def assert_vectors_are_the_outcomes(packer, budget: int) -> None:
    fresh = packer.plan(budget)  # nothing derived yet: the vectors come first
    reasons = packer.reason_vector(fresh)
    components = {c.id: packer.component_vector(fresh, c.id) for c in components_for(packer.name)}
    outcomes = _by_candidate(packer.plan(budget))
    if reasons is not None:
        assert list(reasons) == [o.reason for o in outcomes], budget
    for component in components_for(packer.name):
        vector = components[component.id]
        if vector is not None:
            assert list(vector) == [component.value(o) for o in outcomes], (budget, component.id)


def _texts(plan) -> list[str]:
    """Every reason label the plan shows (each also a filter text), a part of one, and a title's word."""
    labels = {REASON_SHORT.get(o.reason, "") for o in plan.outcomes} - {""}
    words = [o.entry.title.split()[0] for o in plan.outcomes[:3] if o.entry.title.split()]
    return sorted(labels) + [label[:3] for label in sorted(labels)] + words + ["e"]


def assert_rows_agree(packer, budget: int, every_column: bool = True) -> None:
    """Every filter (text, reason label, fate, section) and every column's sort, both ways, lazy = eager."""
    columns = columns_for(packer.name)
    plan = packer.plan(budget)
    eager = rows_from_outcomes(packer.plan(budget).outcomes, columns)
    lazy = ViewRows(plan, columns)
    sections = sorted({e.section for e in packer.candidates()})
    filters = [RowFilter(text=text) for text in _texts(packer.plan(budget))]
    filters += [RowFilter(fates=frozenset({fate})) for fate in Fate]
    filters += [RowFilter(sections=frozenset(sections[:1])), RowFilter(text="a", fates=frozenset({Fate.DROPPED}))]
    for row_filter in filters:
        assert row_filter.apply(lazy) == row_filter.apply(eager), (budget, row_filter)
    assert not lazy.complete, "a filter built every row"
    everything = list(range(len(eager)))
    some = everything[::3]
    for column in (None, *(c.id for c in columns.columns)) if every_column else (None, "reason"):
        for reverse in (False, True):
            for indices in (everything, some):
                got = sorted_indices(lazy, indices, column, reverse, columns)
                assert got == sorted_indices(eager, indices, column, reverse, columns), (budget, column, reverse)
    assert not lazy.complete, "a sort built every row"


@needs_corpus
@pytest.mark.parametrize("name", ["ctx-0.8.1", "ctx-0.8.0"])
def test_ctx_with_memories(tmp_path, name):
    db = build_native_db(tmp_path / "m.db", 400, 3, NOW)  # archived and superseded memories among them
    request = PackRequest(packer=name, project=str(corpus_path("ctx-large")), db=str(db), now=NOW.isoformat())
    packer = open_named(name, request).packer
    assert any(e.status not in (None, "active") for e in packer.candidates())
    for budget in (*BUDGETS, 60000):
        assert_vectors_are_the_outcomes(packer, budget)
        assert_rows_agree(packer, budget)


@pytest.mark.parametrize(
    ("name", "build", "extra"),
    [
        ("shabka", build_shabka_db, {"query": "cache"}),
        ("shabka-mcp", build_shabka_db, {"query": "cache"}),
        ("cortex", build_cortex_db, {"query": "cache"}),
    ],
)
def test_memory_packers(tmp_path, name, build, extra):
    db = build(tmp_path / f"{name}.db", 300, 5, NOW)
    packer = open_named(name, PackRequest(packer=name, db=str(db), now=NOW.isoformat(), **extra)).packer
    assert packer.reason_vector(packer.plan(100)) is not None
    for budget in (0, 200, 2000, 20000):
        assert_vectors_are_the_outcomes(packer, budget)
        assert_rows_agree(packer, budget)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns(), st.integers(0, 40_000))
def test_nous_turns(p, budget):
    assert_lazy_agrees(p.plan(budget))  # one outcome at a time, as the table makes them
    assert_vectors_are_the_outcomes(p, budget)
    assert_rows_agree(p, budget)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(files=workspaces(), budget=st.integers(-10, 1500), version=versions)
def test_ctx_generated_workspaces(tmp_path_factory, files, budget, version):
    packer = _engine(tmp_path_factory, files, version)
    assert_vectors_are_the_outcomes(packer, budget)
    assert_rows_agree(packer, budget, every_column=False)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns(), st.integers(0, 40_000))
def test_nous_sections_at_every_cut_and_block_count(p, budget):
    """nous's fates section by section (bisections over the cut) = `_fate` for each candidate, at every
    cut that lands on an item's start or end (or just past it) and every count of blocks shown."""
    from dataclasses import replace
    from types import SimpleNamespace

    from ctxtui.engine.packers.nous.vectors import _section

    plan = p.plan(budget)
    for s_index, section in enumerate(p.sections):
        state = plan.state.sections[s_index]
        keeps = {None, 0, *section.starts, *section.ends, *(end + 1 for end in section.ends)}
        for keep, shown, on in [(k, state.shown, o) for k in keeps for o in (True, False)] + [
            (state.keep, n, True) for n in range(len(section.items) + 2)
        ]:
            changed = replace(state, keep=keep, shown=shown, on=on)
            states = list(plan.state.sections)
            states[s_index] = changed
            fake = SimpleNamespace(state=SimpleNamespace(sections=states))
            assert _section(section, changed) == [p._fate(fake, i) for i in section.items], (keep, shown, on)
