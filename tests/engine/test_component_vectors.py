"""A score component for every candidate at once equals what each candidate's outcome says (issue 21, part 4).

The table sorts by a number column on every slider step from these vectors
(`Packer.component_vector`) instead of 50,000 outcomes; a packer without one
answers None and the table reads the outcomes.
"""

from __future__ import annotations

import pytest
from ctxtui.engine.explain.components import components_for
from ctxtui.opening.packer import open_named
from ctxtui.opening.request import PackRequest

from tests.conftest import CORPORA, corpus_path, needs_corpus
from tests.engine.test_lazy_outcomes import NOW
from tests.factories.memory_dbs import build_native_db

BUDGETS = (0, 40, 400, 1200, 4000, 8000, 20000, 200000)


def assert_vectors_agree(packer) -> None:
    for budget in BUDGETS:
        plan = packer.plan(budget)
        for component in components_for(packer.name):
            vector = packer.component_vector(plan, component.id)
            if vector is None:
                continue
            expected = [component.value(packer.plan(budget).outcome_at(i)) for i in range(len(vector))]
            assert list(vector) == expected, (budget, component.id)


@needs_corpus
@pytest.mark.parametrize("corpus", CORPORA)
def test_ctx_vectors_on_the_corpora(corpus):
    request = PackRequest(packer="ctx-0.8.1", project=str(corpus_path(corpus)), now=NOW.isoformat(), root_path="/p")
    assert_vectors_agree(open_named("ctx-0.8.1", request).packer)


@needs_corpus
@pytest.mark.parametrize("indexed", [False, True])
def test_ctx_vectors_with_memories_active_and_not(tmp_path, monkeypatch, indexed):
    # Indexed: the scorer's first-matches path, as at 50,000 memories; else the text search.
    monkeypatch.setattr("ctxtui.engine.packers.ctx.score.INDEX_THRESHOLD", 0 if indexed else 10**12)
    db = build_native_db(tmp_path / "m.db", 300, 3, NOW)
    request = PackRequest(
        packer="ctx-0.8.1", project=str(corpus_path("ctx-large")), db=str(db), now=NOW.isoformat(), root_path="/p"
    )
    packer = open_named("ctx-0.8.1", request).packer
    assert packer.scorer.indexed is indexed
    assert any(e.status not in (None, "active") for e in packer.candidates())
    assert_vectors_agree(packer)
