"""One outcome at a time agrees with every outcome at once, for every packer (issue 11).

The table and the why panel ask a plan for single outcomes (`Plan.outcome_at`,
`Plan.outcome`) and for the packet order (`Plan.order`), so that a slider step
at 50,000 memories never builds 50,000 outcomes. ctx makes each one alone
(`packers/ctx/lazy.py`); the other packers read them off their built outcomes.
Either way the answer must be exactly `plan.outcomes`: checked here on the
corpora with and without memories, on generated workspaces, and on peer stores.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from ctxtui.engine.explain.diff import differing
from ctxtui.engine.fate import FATE_OF_CODE
from ctxtui.engine.model import Outcome, Plan, ScoreBreakdown
from ctxtui.opening.packer import open_named
from ctxtui.opening.request import PackRequest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import CORPORA, corpus_path, needs_corpus
from tests.engine.test_properties import _engine, versions, workspaces
from tests.factories.memory_dbs import build_cortex_db, build_native_db, build_shabka_db

NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)
BUDGETS = (0, 40, 400, 1200, 4000, 8000, 20000, 200000)


def _same(outcome: Outcome) -> Outcome:
    """The outcome as comparable data: a breakdown's keyword finder is a fresh closure each time."""
    score = outcome.score
    if isinstance(score, ScoreBreakdown):
        return outcome._replace(score=score._replace(keyword_finder=None))
    return outcome


def assert_lazy_agrees(plan: Plan) -> None:
    eager = [_same(o) for o in plan.outcomes]
    order = list(plan.order)
    assert sorted(order) == list(range(len(plan.packer.candidates())))  # every candidate once
    assert [plan.places[i] for i in order] == list(range(len(order)))
    assert [_same(plan.outcome_at(i)) for i in order] == eager
    fates = _fresh(plan).fates  # the packer's own fate vector, before any outcome exists
    assert [FATE_OF_CODE[fates[i]] for i in order] == [o.fate for o in eager]
    for k, outcome in enumerate(plan.outcomes):
        assert plan.outcome(outcome.entry.key).entry.key == outcome.entry.key
        assert outcome.entry is plan.packer.candidates()[order[k]]
    assert plan.outcome("no such key") is None


def _fresh(plan: Plan) -> Plan:
    """The same decisions on a plan with nothing derived yet (so the lazy path runs before any eager build)."""
    return plan.packer.plan(plan.budget)


@needs_corpus
@pytest.mark.parametrize("packer", ["ctx-0.8.1", "ctx-0.8.0", "ctx-mcp"])
@pytest.mark.parametrize("corpus", CORPORA)
def test_ctx_single_outcomes_are_the_outcomes_on_the_corpora(corpus, packer):
    request = PackRequest(packer=packer, project=str(corpus_path(corpus)), now=NOW.isoformat(), root_path="/p")
    made = open_named(packer, request).packer
    for budget in BUDGETS:
        lazy = made.plan(budget)
        singles = [_same(lazy.outcome_at(i)) for i in lazy.order]  # before any outcome list exists
        assert singles == [_same(o) for o in _fresh(lazy).outcomes]
        assert_lazy_agrees(lazy)


@needs_corpus
def test_ctx_with_memories_active_and_not(tmp_path):
    db = build_native_db(tmp_path / "m.db", 400, 3, NOW)  # archived and superseded memories among them
    request = PackRequest(
        packer="ctx-0.8.1", project=str(corpus_path("ctx-large")), db=str(db), now=NOW.isoformat(), root_path="/p"
    )
    made = open_named("ctx-0.8.1", request).packer
    assert any(e.status not in (None, "active") for e in made.candidates())
    for budget in (*BUDGETS, 30000, 60000):
        assert_lazy_agrees(made.plan(budget))


@given(files=workspaces(), budget=st.integers(-10, 1500), version=versions)
def test_ctx_single_outcomes_on_generated_workspaces(tmp_path_factory, files, budget, version):
    assert_lazy_agrees(_engine(tmp_path_factory, files, version).plan(budget))


@pytest.mark.parametrize(
    ("name", "build", "extra"),
    [
        ("shabka", build_shabka_db, {"query": "cache"}),
        ("cortex", build_cortex_db, {"query": "cache"}),
    ],
)
def test_peer_packers_single_outcomes(tmp_path, name, build, extra):
    db = build(tmp_path / f"{name}.db", 300, 5, NOW)
    made = open_named(name, PackRequest(packer=name, db=str(db), now=NOW.isoformat(), **extra)).packer
    for budget in (0, 200, 2000, 20000):
        assert_lazy_agrees(made.plan(budget))


@given(
    a=st.binary(min_size=0, max_size=3000),
    flips=st.lists(st.integers(0, 2999), max_size=40),
)
def test_differing_finds_every_changed_fate(a, flips):
    b = bytearray(a)
    for i in flips:
        if i < len(b):
            b[i] = (b[i] + 1) % 3
    assert differing(a, b) == [i for i in range(len(a)) if a[i] != b[i]]


def test_segments_and_places_index_like_lists():
    from ctxtui.engine.packers.ctx.order import Segments

    pieces = [(range(3), 0), ([], 5), ([7, 2], 10), (range(4, 6), -1)]
    order = Segments(pieces)
    flat = [0, 1, 2, 17, 12, 3, 4]
    assert list(order) == flat and len(order) == len(flat)
    assert [order[k] for k in range(-len(flat), len(flat))] == flat + flat
    assert order[1:5] == flat[1:5]
    with pytest.raises(IndexError):
        order[len(flat)]
