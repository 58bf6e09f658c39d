"""Thresholds and budget stretches checked against assembling at every budget."""

from __future__ import annotations

import pytest

from ctxtui.engine.explain import FateIndex, budget_stretches, describe_threshold, thresholds
from ctxtui.engine.workspace import load_workspace
from tests.conftest import NOW, corpus_path, needs_corpus


@needs_corpus
@pytest.mark.parametrize("corpus, step", [("ctx-init", 1), ("ctx-dogfood", 1), ("ctx-large", 7)])
def test_stretches_agree_with_every_budget(corpus, step):
    engine = load_workspace(corpus_path(corpus)).engine(NOW, "/project")
    stretches = budget_stretches(engine)
    index = FateIndex(engine)
    here = 0
    for budget in range(0, stretches[-1].start + 2000, step):
        while stretches[here].end is not None and budget >= stretches[here].end:
            here += 1
        assert index.vector(engine.plan(budget)) == stretches[here].fates, budget


@needs_corpus
def test_non_monotone_entries_are_reported_with_ranges():
    engine = load_workspace(corpus_path("ctx-large")).engine(NOW, "/project")
    found = [t for t in thresholds(engine).values() if not t.monotone]
    assert found
    text = describe_threshold(found[0])
    assert text.startswith("not monotone") and "–" in text


@needs_corpus
def test_a_cut_scan_says_how_far_it_looked():
    engine = load_workspace(corpus_path("ctx-large")).engine(NOW, "/project")
    found = thresholds(engine, max_seconds=0.0)
    some = next(iter(found.values()))
    assert some.scanned_to is not None and some.scanned_to > 0
    assert "not examined" in describe_threshold(some)
    assert all(t.scanned_to == some.scanned_to for t in found.values())
