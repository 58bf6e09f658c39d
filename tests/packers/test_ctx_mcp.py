"""ctx's MCP agent packet, worked out from `internal/mcp/server/resource/resource.go:72-123` (ce5a832)
and the strings in `internal/assets/commands/text/mcp.yaml` (packet-header, format-section,
also-noted, omitted-format); 0.8.0 has the same function (only EstimateTokensString was renamed)."""

from __future__ import annotations

import pytest
from ctxtui.engine.explain.thresholds import thresholds
from ctxtui.engine.model import Fate
from ctxtui.engine.packers.ctx.mcp import McpPacker, McpReason
from ctxtui.engine.sources.workspace import load_workspace

from tests.conftest import write_context

TASKS = "# Tasks\n\n- [ ] one task here\n"  # 29 bytes → section 29 + 19 = 48 bytes → 12 tokens
DECISIONS = "# Decisions\n\n## [2026-01-01-120000] D\n\nbody\n"  # 43 bytes → section 66 bytes → 17 tokens
GLOSSARY = "# Glossary\n\n- **ctx**: tool\n"


@pytest.fixture
def packer(tmp_path):
    root = write_context(tmp_path, {"TASKS.md": TASKS, "DECISIONS.md": DECISIONS, "GLOSSARY.md": GLOSSARY})
    return McpPacker(load_workspace(root).parsed)


def test_unlimited_packet_is_every_file_in_read_order(packer):
    text = packer.plan(0).render("md")  # budget <= 0: `budget > 0 &&` never skips (resource.go:94)
    assert text == (
        "# Context Packet\n\n"
        f"---\n## TASKS.md\n\n{TASKS}\n\n"
        f"---\n## DECISIONS.md\n\n{DECISIONS}\n\n"
        f"---\n## GLOSSARY.md\n\n{GLOSSARY}\n\n"
    )
    assert {o.reason for o in packer.plan(-3).outcomes} == {McpReason.NO_LIMIT}


def test_a_misfit_is_skipped_and_the_loop_goes_on(packer):
    header, tasks, decisions, glossary = 5, *(e.tokens for e in packer.files)
    assert (tasks, decisions) == (12, 17)
    budget = header + tasks + glossary  # DECISIONS.md does not fit after TASKS.md, GLOSSARY.md does
    assert decisions > glossary
    plan = packer.plan(budget)
    fates = {o.entry.title: (o.fate, o.reason) for o in plan.outcomes}
    assert fates == {
        "TASKS.md": (Fate.INCLUDED, McpReason.FITS),
        "DECISIONS.md": (Fate.DROPPED, McpReason.SKIPPED),
        "GLOSSARY.md": (Fate.INCLUDED, McpReason.FITS),
    }
    text = plan.render("md")
    assert text.endswith(
        f"---\n## GLOSSARY.md\n\n{GLOSSARY}\n\n---\n## Also Noted\n\n- DECISIONS.md (omitted for budget)\n\n"
    )
    assert plan.tokens_used == budget


def test_nothing_fits_lists_every_file(packer):
    text = packer.plan(5).render("md")
    assert text == (
        "# Context Packet\n\n---\n## Also Noted\n\n- TASKS.md (omitted for budget)\n"
        "- DECISIONS.md (omitted for budget)\n- GLOSSARY.md (omitted for budget)\n\n"
    )


def test_change_points_agree_with_every_budget(packer):
    found = thresholds(packer)
    for budget in range(0, 80):
        plan = packer.plan(budget)
        for outcome in plan.outcomes:
            t = found[outcome.entry.key]
            inside = any(lo <= budget and (hi is None or budget < hi) for lo, hi in t.full_ranges)
            assert inside == (outcome.fate is Fate.INCLUDED), (budget, outcome.entry.title)
