"""Thresholds and budget stretches checked against assembling at every budget."""

from __future__ import annotations

import pytest
from ctxtui.engine.explain.reasons import describe_threshold
from ctxtui.engine.explain.thresholds import budget_stretches, thresholds
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.sources.workspace import load_workspace

from tests.conftest import NOW, corpus_path, needs_corpus


@needs_corpus
@pytest.mark.parametrize("corpus, step", [("ctx-init", 1), ("ctx-dogfood", 1), ("ctx-large", 7)])
def test_stretches_agree_with_every_budget(corpus, step):
    engine = packer_for(load_workspace(corpus_path(corpus)), now=NOW, root_path="/project")
    stretches = budget_stretches(engine)
    here = 0
    for budget in range(0, stretches[-1].start + 2000, step):
        while stretches[here].end is not None and budget >= stretches[here].end:
            here += 1
        assert engine.fate_vector(engine.plan(budget)) == stretches[here].fates, budget


@needs_corpus
def test_non_monotone_entries_are_reported_with_ranges():
    engine = packer_for(load_workspace(corpus_path("ctx-large")), now=NOW, root_path="/project")
    found = [t for t in thresholds(engine).values() if not t.monotone]
    assert found
    text = describe_threshold(found[0])
    assert text.startswith("not monotone") and "–" in text


@needs_corpus
def test_a_cut_scan_says_how_far_it_looked():
    engine = packer_for(load_workspace(corpus_path("ctx-large")), now=NOW, root_path="/project")
    found = thresholds(engine, should_stop=lambda: True)
    some = next(iter(found.values()))
    assert some.scanned_to is not None and some.scanned_to > 0
    assert "not examined" in describe_threshold(some)
    assert all(t.scanned_to == some.scanned_to for t in found.values())


def _reference_ranges(stretches, n, test):
    """The ranges as the first implementation read them: every stretch's whole fate vector kept."""
    ranges: list[list] = []
    for stretch in stretches:
        if test(stretch.fates[n]):
            if ranges and ranges[-1][1] == stretch.start:
                ranges[-1][1] = stretch.end
            else:
                ranges.append([stretch.start, stretch.end])
    return [tuple(r) for r in ranges]


@needs_corpus
@pytest.mark.parametrize("corpus", ["ctx-init", "ctx-dogfood", "ctx-large"])
def test_thresholds_kept_per_change_agree_with_every_stretch(corpus):
    """The scan keeps one fate vector at a time; its ranges equal those read off every stretch's vector."""
    from ctxtui.engine.packers.base import DROPPED, INCLUDED

    engine = packer_for(load_workspace(corpus_path(corpus)), now=NOW, root_path="/project")
    stretches = budget_stretches(engine)
    found = thresholds(engine)
    for n, entry in enumerate(engine.candidates()):
        got = found[entry.key]
        if got.entry is not entry:
            continue  # a duplicate key: the dict holds the last one
        assert got.full_ranges == _reference_ranges(stretches, n, lambda fate: fate == INCLUDED), entry.key
        assert got.any_ranges == _reference_ranges(stretches, n, lambda fate: fate != DROPPED), entry.key
        assert got.scanned_to is None
