"""Every expected file of the real `ctx agent` 0.8.1, reproduced byte for byte."""

from __future__ import annotations

import pytest
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.sources.workspace import load_workspace

from tests.conftest import CORPORA, CORPUS, corpus_path, generated_time, needs_corpus

BUDGETS = (-5, 0, 1, 100, 200, 300, 500, 800, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 12000, 16000, 32000, 200000)
_workspaces: dict = {}


def _workspace(name):
    if name not in _workspaces:
        _workspaces[name] = load_workspace(corpus_path(name))
    return _workspaces[name]


@needs_corpus
@pytest.mark.parametrize("fmt", ["md", "json"])
@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_packet_is_byte_identical(corpus, budget, fmt):
    expected_path = CORPUS / corpus / "expected" / f"budget_{budget}.{fmt}"
    expected = expected_path.read_bytes()
    packer = packer_for(
        _workspace(corpus), now=generated_time(expected.decode("utf-8", "replace")), root_path="/project"
    )
    rendered = packer.plan(budget).render(fmt)
    assert rendered.encode("utf-8", "surrogateescape") == expected


@needs_corpus
@pytest.mark.parametrize("corpus", CORPORA)
def test_all_expected_files_are_covered(corpus):
    found = {p.name for p in (CORPUS / corpus / "expected").iterdir()}
    assert found == {f"budget_{b}.{f}" for b in BUDGETS for f in ("md", "json")}
