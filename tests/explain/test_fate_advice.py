"""Advice for fates the budget does not decide, each confirmed by editing the files and assembling again."""

from __future__ import annotations

from ctxtui.engine.explain.advice import advise, describe_advice
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.sources.workspace import load_workspace

from tests.app.helpers import decision, small_workspace
from tests.conftest import NOW

SUPERSEDED = decision("2026-11-15-120000", "Use Postgres", "Superseded.") + "\n~~Superseded by [2026-11-20-120000]~~\n"


def _packer(project):
    return packer_for(load_workspace(project), now=NOW, root_path="/project")


def _outcome(packer, budget, title):
    return next(o for o in packer.plan(budget).outcomes if o.entry.title == title)


def test_a_superseded_decision_says_which_line_to_remove_and_removing_it_brings_it_in(tmp_path):
    project = small_workspace(tmp_path / "p")
    path = project / ".context" / "DECISIONS.md"
    path.write_text(path.read_text(encoding="utf-8") + SUPERSEDED, encoding="utf-8")
    packer = _packer(project)
    outcome = _outcome(packer, 8000, "Use Postgres")
    assert outcome.reason is Reason.SUPERSEDED
    moves = advise(packer, 8000, outcome.entry.key, None, "any")
    assert [m.kind for m in moves] == ["superseded"]
    lines = path.read_text(encoding="utf-8").split("\n")
    line = next(i for i, text in enumerate(lines, 1) if text.startswith("~~Superseded"))
    assert f"line {line} of .context/DECISIONS.md" in moves[0].text and "~~Superseded by" in moves[0].text
    assert describe_advice(moves, "any").startswith("To get it in: it is marked superseded")
    # Do what it says, and assemble again.
    del lines[line - 1]
    path.write_text("\n".join(lines), encoding="utf-8")
    assert _outcome(_packer(project), 8000, "Use Postgres").fate is not Fate.DROPPED


def test_a_rule_ctxs_pattern_misses_says_what_the_file_must_be(tmp_path):
    project = small_workspace(tmp_path / "p")
    packer = _packer(project)
    outcome = _outcome(packer, 8000, "Never commit secrets")
    assert outcome.reason is Reason.CONSTITUTION_PATTERN
    moves = advise(packer, 8000, outcome.entry.key, None, "any")
    assert [m.kind for m in moves] == ["pattern"] and "`- [ ] Never commit secrets`" in moves[0].text
    (project / ".context" / "CONSTITUTION.md").write_text("- [ ] Never commit secrets", encoding="utf-8")
    assert _outcome(_packer(project), 8000, "Never commit secrets").fate is Fate.INCLUDED


def test_an_archived_memory_says_set_it_active_and_that_brings_it_in(tmp_path):
    from ctxtui.engine.model import Entry

    project = small_workspace(tmp_path / "p")
    memory = Entry(
        "memory:memory.db:7",
        "memories",
        "Retry binds",
        "## [2026-11-19-120000] Retry binds\n\nRetry.",
        9,
        "memory.db:7",
        "2026-11-19",
        status="archived",
        kind="fact",
        importance=0.5,
    )
    workspace = load_workspace(project)
    workspace.memories = [memory]
    packer = packer_for(workspace, now=NOW, root_path="/project")
    outcome = packer.plan(8000).outcome(memory.key)
    assert outcome.reason is Reason.ARCHIVED
    moves = advise(packer, 8000, memory.key, None, "any")
    assert [m.kind for m in moves] == ["status"] and "set it back to active" in moves[0].text
    workspace.memories = [memory._replace(status="active")]
    assert packer_for(workspace, now=NOW, root_path="/project").plan(8000).outcome(memory.key).fate is not Fate.DROPPED
