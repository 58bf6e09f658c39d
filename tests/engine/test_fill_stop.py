"""A scored section's fill stops where nothing left can fit; everything it reports equals the fill that looks at every entry."""

from __future__ import annotations

from datetime import UTC, datetime

from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.packers.ctx.budget import full_limit
from ctxtui.engine.sources.workspace import load_workspace
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import write_context
from tests.engine.test_properties import versions, workspaces

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


def reference_fill(packer, order, share):
    """ctx's fill as written (`assemble.go`): every entry in score order, whole entries while they fit."""
    limit = full_limit(share)
    used = summary = 0
    full, before = [], []
    for i in order:
        before.append(used)
        entry = packer.scored[i]
        if entry.superseded:
            full.append(False)
        elif used + entry.tokens <= limit:
            full.append(True)
            used += entry.tokens
        else:
            full.append(False)
            summary += packer.title_tokens[i]
    return full, before, used, summary


def check(packer, budgets):
    for budget in budgets:
        plan = packer.plan(budget)
        for fill in plan.state.sections:
            full, before, used, summary = reference_fill(packer, fill.order, fill.share)
            assert fill.fulls() == full
            assert fill.befores() == before
            assert (fill.full_tokens, fill.summary_tokens) == (used, summary)
            assert [fill.position(p) for p in range(len(fill.order))] == list(zip(full, before, strict=True))
        assert packer.next_change(plan) == packer.rebuilt().next_change(packer.rebuilt().plan(budget))


@settings(max_examples=60, deadline=None)
@given(files=workspaces(), budget=st.integers(0, 3000), version=versions)
def test_fill_stop_equals_the_whole_fill(tmp_path_factory, files, budget, version):
    root = write_context(tmp_path_factory.mktemp("ws"), files)
    packer = packer_for(load_workspace(root), now=NOW, root_path="/project", version=version)
    check(packer, [budget, budget + 1, budget + 100])


def test_fill_stop_with_thousands_of_memories(tmp_path):
    from ctxtui.engine.packers.ctx.memories import attach_memories

    from tests.factories.memory_dbs import build_native_db

    root = write_context(tmp_path / "ws", {"TASKS.md": "# Tasks\n\n- [ ] fix the parser cache and the scoring\n"})
    db = tmp_path / "m.db"
    build_native_db(db, 3000, 1, NOW)
    workspace = load_workspace(root)
    attach_memories(workspace, db, now=NOW)
    packer = packer_for(workspace, now=NOW, root_path="/project")
    check(packer, [0, 300, 1500, 4000, 4001, 4100, 20_000, 200_000])
    stops = [fill.stop < len(fill.order) for fill in packer.plan(4000).state.sections]
    assert any(stops)  # the early stop is exercised


@settings(max_examples=60, deadline=None)
@given(files=workspaces(), budget=st.integers(-10, 3000), version=versions)
def test_counts_without_outcomes_equal_counts_of_the_outcomes(tmp_path_factory, files, budget, version):
    root = write_context(tmp_path_factory.mktemp("ws"), files)
    packer = packer_for(load_workspace(root), now=NOW, root_path="/project", version=version)
    quick = packer.plan(budget).counts()  # from the fate vector: no outcome built
    plan = packer.plan(budget)
    counted = {fate: 0 for fate in quick}
    for outcome in plan.outcomes:
        counted[outcome.fate.value] += 1
    assert quick == counted == plan.counts()
