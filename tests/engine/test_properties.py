"""Invariants on generated workspaces: outcomes agree with the packet, exactly.

For any workspace and budget: included blocks appear whole, summarized titles
appear under "Also Noted", dropped entries appear nowhere; tokens used is the
sum of the parts; thresholds hold at themselves and fail just below.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from ctxtui.engine.explain.thresholds import thresholds
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.packers.ctx.mcp import McpPacker
from ctxtui.engine.packers.ctx.versions import V0_8_0, V0_8_1
from ctxtui.engine.sources.steering import read_skill
from ctxtui.engine.sources.workspace import load_workspace
from ctxtui.engine.text.tokens import estimate, estimate_list
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import write_context

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
WORDS = [
    "hook",
    "agent",
    "budget",
    "cache",
    "scoring",
    "parser",
    "tier",
    "session",
    "token",
    "drift",
    "index",
    "release",
    "memory",
    "steering",
    "render",
    "config",
    "sqlite",
    "watch",
    "Straße",
    "ﬁle",
    "İndex",
    "ſcope",
]
DATES = ["2026-03-01", "2026-02-25", "2026-02-10", "2026-01-05", "2025-06-01", "2026-02-30"]

words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join)


@st.composite
def workspaces(draw):
    n_tasks = draw(st.integers(0, 12))
    tasks = [f"- [{draw(st.sampled_from([' ', ' ', 'x']))}] task {i} {draw(words)}" for i in range(n_tasks)]
    conventions = [f"- convention {i} {draw(words)}" for i in range(draw(st.integers(0, 8)))]

    def blocks(kind, count):
        out = []
        for i in range(count):
            body = draw(words)
            if draw(st.integers(0, 9)) == 0:
                body = "~~Superseded by later work~~\n" + body
            out.append(f"## [{draw(st.sampled_from(DATES))}-120000] {kind} {i} {draw(words)}\n\n{body}\n")
        return "# Heading\n\n" + "\n".join(out)

    files = {
        "TASKS.md": "# Tasks\n\n" + "\n".join(tasks) + "\n",
        "CONVENTIONS.md": "# Conventions\n\n" + "\n".join(conventions) + "\n",
        "DECISIONS.md": blocks("decision", draw(st.integers(0, 10))),
        "LEARNINGS.md": blocks("learning", draw(st.integers(0, 10))),
        "CONSTITUTION.md": "# Constitution\n\n- [ ] Never push to main\n- [ ] Always run tests\n",
    }
    for i in range(draw(st.integers(0, 3))):
        inclusion = draw(st.sampled_from(["always", "always", "manual"]))
        files[f"steering/s{i}.md"] = (
            f"---\nname: s{i}\ninclusion: {inclusion}\npriority: {draw(st.integers(0, 3))}\n"
            f"---\n\nSteering {i} {draw(words)}\n"
        )
    if draw(st.booleans()):
        files["skills/review/SKILL.md"] = f"---\nname: review\n---\n\nSkill {draw(words)}\n"
    return files


def _engine(tmp_path_factory, files, version=V0_8_1):
    """ctx `version` over the files, with `--skill review` when the workspace has that skill."""
    root = write_context(tmp_path_factory.mktemp("ws"), files)
    skill = read_skill(root, "review") if "skills/review/SKILL.md" in files else None
    return packer_for(load_workspace(root), now=NOW, root_path="/project", version=version, skill=skill)


versions = st.sampled_from([V0_8_0, V0_8_1])


settings.register_profile(
    "ctxtui",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.load_profile("ctxtui")


@given(files=workspaces(), budget=st.integers(-10, 1500), version=versions)
def test_outcomes_agree_with_the_rendered_packet(tmp_path_factory, files, budget, version):
    """ctx-0.8.1 and ctx-0.8.0: every outcome matches both renderings (Markdown and JSON)."""
    engine = _engine(tmp_path_factory, files, version)
    packet = engine.plan(budget)
    lists = engine.packet(packet)
    markdown = packet.render("md")
    data = json.loads(packet.render("json"))
    assert data["tasks"] == (lists.tasks or None) and data["conventions"] == (lists.conventions or None)
    assert data.get("steering", []) == lists.steering and data.get("skill", "") == lists.skill
    assert data.get("summaries", []) == lists.summaries
    if version is V0_8_0:
        assert "steering" not in data and "skill" not in data
    also_noted = markdown.split("## Also Noted\n", 1)[1].split("\n\n", 1)[0] if "## Also Noted\n" in markdown else ""
    full_blocks = lists.decisions + lists.learnings
    for outcome in packet.outcomes:
        entry = outcome.entry
        if entry.section == "tasks":
            assert (entry.text in lists.tasks) == (outcome.fate is Fate.INCLUDED)
        elif entry.section == "conventions":
            assert (entry.text in lists.conventions) == (outcome.fate is Fate.INCLUDED)
        elif entry.section == "steering":
            assert (entry.text in lists.steering) == (outcome.fate is Fate.INCLUDED)
            assert outcome.fate is not Fate.INCLUDED or "## Steering\n" in markdown
        elif entry.section == "skill":
            assert (lists.skill == entry.text != "") == (outcome.fate is Fate.INCLUDED)
            assert (f"## Skill\n{entry.text}\n\n" in markdown) == (outcome.fate is Fate.INCLUDED)
        elif entry.section in ("decisions", "learnings"):
            if outcome.fate is Fate.INCLUDED:
                assert entry.text in full_blocks and entry.text + "\n\n" in markdown
                assert entry.title not in lists.summaries
            elif outcome.fate is Fate.SUMMARIZED:
                assert entry.title in lists.summaries and f"- {entry.title}" in also_noted
                assert entry.text not in full_blocks
            else:
                assert entry.text not in full_blocks and entry.title not in lists.summaries
                assert entry.text not in markdown
    counts = packet.counts()
    assert counts["included"] == (
        len(lists.tasks)
        + len(lists.conventions)
        + len(full_blocks)
        + len(lists.steering)
        + len(lists.constitution or [])
        + (1 if lists.skill else 0)
    )
    assert counts["summarized"] == len(lists.summaries)


@given(files=workspaces(), budget=st.integers(-10, 1500), version=versions)
def test_tokens_used_is_the_sum_of_the_parts(tmp_path_factory, files, budget, version):
    engine = _engine(tmp_path_factory, files, version)
    packet = engine.plan(budget)
    lists = engine.packet(packet)
    parts = (
        estimate_list(lists.read_order)
        + estimate_list(lists.constitution or [])
        + estimate(lists.instruction)
        + estimate_list(lists.tasks)
        + estimate_list(lists.conventions)
        + estimate_list(lists.decisions)
        + estimate_list(lists.learnings)
        + estimate_list(lists.summaries)
        + estimate_list(lists.steering)
        + (estimate(lists.skill) if lists.skill else 0)
    )
    assert packet.tokens_used == parts
    bars = packet.buckets
    assert sum(bar.used + bar.summarized for bar in bars) == packet.tokens_used


@given(files=workspaces(), version=versions)
def test_thresholds_hold_at_and_just_below_themselves(tmp_path_factory, files, version):
    engine = _engine(tmp_path_factory, files, version)
    for key, threshold in thresholds(engine).items():
        for lo, hi in threshold.full_ranges:
            assert engine.plan(lo).outcome(key).fate is Fate.INCLUDED
            if lo > 0:
                assert engine.plan(lo - 1).outcome(key).fate is not Fate.INCLUDED
            if hi is not None:
                assert engine.plan(hi - 1).outcome(key).fate is Fate.INCLUDED
                assert engine.plan(hi).outcome(key).fate is not Fate.INCLUDED
        for lo, hi in threshold.any_ranges:
            assert engine.plan(lo).outcome(key).fate is not Fate.DROPPED
            if lo > 0:
                assert engine.plan(lo - 1).outcome(key).fate is Fate.DROPPED
            if hi is not None:
                assert engine.plan(hi).outcome(key).fate is Fate.DROPPED


@given(files=workspaces(), budget=st.integers(0, 1500), version=versions)
def test_stretches_match_every_budget(tmp_path_factory, files, budget, version):
    """Between two computed change points nothing changes: check a random budget."""
    from ctxtui.engine.explain.thresholds import budget_stretches

    engine = _engine(tmp_path_factory, files, version)
    stretches = budget_stretches(engine)
    here = next(s for s in stretches if s.start <= budget and (s.end is None or budget < s.end))
    assert engine.fate_vector(engine.plan(budget)) == here.fates


@given(files=workspaces(), budget=st.integers(-10, 1500))
def test_mcp_outcomes_agree_with_the_rendered_packet(tmp_path_factory, files, budget):
    """ctx-mcp: an included file's section is in the text, a dropped one is listed as omitted, in read order."""
    packer = McpPacker(load_workspace(write_context(tmp_path_factory.mktemp("ws"), files)).parsed)
    plan = packer.plan(budget)
    text = plan.render("md")
    omitted = text.split("## Also Noted\n\n", 1)[1] if "## Also Noted\n\n" in text else ""
    position = 0
    for outcome in plan.outcomes:
        name = outcome.entry.title
        if outcome.fate is Fate.INCLUDED:
            found = text.find(outcome.entry.text, position)
            assert found >= 0
            position = found + len(outcome.entry.text)
        else:
            assert f"- {name} (omitted for budget)\n" in omitted and budget > 0
    assert plan.tokens_used <= budget or budget <= 0 or plan.tokens_used == packer.header_tokens


@given(files=workspaces(), budget=st.integers(-10, 1500))
def test_mcp_packet_is_rebuilt_from_its_outcomes(tmp_path_factory, files, budget):
    """ctx-mcp: the text is exactly the header, the included files' sections in read order, then the dropped
    files listed as omitted; the tokens are the header's plus the included sections'; the bars add up."""
    from ctxtui.engine.packers.ctx.mcp import ALSO_NOTED, HEADER

    packer = McpPacker(load_workspace(write_context(tmp_path_factory.mktemp("ws"), files)).parsed)
    plan = packer.plan(budget)
    kept = [o.entry for o in plan.outcomes if o.fate is Fate.INCLUDED]
    dropped = [o.entry.title for o in plan.outcomes if o.fate is not Fate.INCLUDED]
    expected = HEADER + "".join(e.text for e in kept)
    if dropped:
        expected += ALSO_NOTED + "".join(f"- {name} (omitted for budget)\n" for name in dropped) + "\n"
    assert plan.render("md") == expected
    assert (
        plan.tokens_used
        == packer.header_tokens + sum(e.tokens for e in kept)
        == estimate(HEADER) + sum(estimate(e.text) for e in kept)
    )
    assert sum(bar.used for bar in plan.buckets) == plan.tokens_used
    assert all(o.numbers.used_before + o.numbers.needs > budget for o in plan.outcomes if o.fate is not Fate.INCLUDED)


@given(files=workspaces())
def test_mcp_thresholds_hold_at_and_just_below_themselves(tmp_path_factory, files):
    packer = McpPacker(load_workspace(write_context(tmp_path_factory.mktemp("ws"), files)).parsed)
    for key, threshold in thresholds(packer).items():
        for lo, hi in threshold.full_ranges:
            assert packer.plan(lo).outcome(key).fate is Fate.INCLUDED
            if lo > 1:
                assert packer.plan(lo - 1).outcome(key).fate is not Fate.INCLUDED
            if hi is not None:
                assert packer.plan(hi - 1).outcome(key).fate is Fate.INCLUDED
                assert packer.plan(hi).outcome(key).fate is not Fate.INCLUDED
