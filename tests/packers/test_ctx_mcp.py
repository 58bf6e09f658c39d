"""ctx's MCP agent packet, worked out from `internal/mcp/server/resource/resource.go:72-123` (ce5a832)
and the strings in `internal/assets/commands/text/mcp.yaml` (packet-header, format-section,
also-noted, omitted-format); 0.8.0 has the same function (only EstimateTokensString was renamed)."""

from __future__ import annotations

import pytest
from ctxtui.engine.explain.thresholds import thresholds
from ctxtui.engine.fate import Fate
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


# --- more of readAgentPacket, line by line (ce5a832; v0.8.0 has it at resource.go:71-122) -----------------


def test_header_and_sections_are_ctx_s_strings():
    """mcp.packet-header (mcp.yaml:45-47, a `|+` block: "# Context Packet\\n\\n", 18 bytes = 5 tokens, counted
    first at resource.go:76-79); mcp.format-section (mcp.yaml:73-79): "---\\n## %s\\n\\n%s\\n\\n" (resource.go:88-91)."""
    from ctxtui.engine.packers.ctx.mcp import HEADER, section_text
    from ctxtui.engine.text.tokens import estimate

    assert (HEADER, estimate(HEADER)) == ("# Context Packet\n\n", 5)
    assert section_text("TASKS.md", "body") == "---\n## TASKS.md\n\nbody\n\n"


def test_file_bytes_go_in_raw_and_empty_files_are_left_out(tmp_path):
    """`string(f.Content)` (resource.go:90): CRLF and invalid UTF-8 bytes are copied through; `f == nil ||
    f.IsEmpty` (:84) skips a file under 20 bytes or with only headings — it is not listed as omitted either."""
    tasks = b"# Tasks\r\n\r\n- [ ] caf\xe9 task here\r\n"
    root = write_context(tmp_path, {"TASKS.md": tasks, "DECISIONS.md": "# Decisions\n", "GLOSSARY.md": GLOSSARY})
    packer = McpPacker(load_workspace(root).parsed)
    assert [e.title for e in packer.files] == ["TASKS.md", "GLOSSARY.md"]
    text = packer.plan(0).render("md").encode("utf-8", "surrogateescape")
    assert b"---\n## TASKS.md\n\n" + tasks + b"\n\n" in text
    assert b"DECISIONS.md" not in packer.plan(1).render("md").encode("utf-8", "surrogateescape")


def test_a_skipped_file_s_numbers_say_by_how_much(packer):
    """`budget > 0 && tokensUsed+sectionTokens > budget` (resource.go:94): the outcome keeps the running total
    the file was tried at and its cost, so the shortfall is used_before + needs - budget."""
    budget = 5 + 12 + 10  # header + TASKS.md, then 10 tokens: DECISIONS.md (17) is skipped, GLOSSARY.md tried at 17
    plan = packer.plan(budget)
    decisions = next(o for o in plan.outcomes if o.entry.title == "DECISIONS.md")
    assert (decisions.numbers.used_before, decisions.numbers.needs, decisions.numbers.cap) == (17, 17, 27)
    glossary = next(o for o in plan.outcomes if o.entry.title == "GLOSSARY.md")
    assert glossary.numbers.used_before == 17 and (glossary.fate is Fate.INCLUDED) == (17 + glossary.entry.tokens <= 27)


def test_budget_is_the_server_s_default_and_zero_means_no_limit(tmp_path, capsys, monkeypatch):
    """The server takes rc.TokenBudget() once (mcp/server/server.go:41): CTX_TOKEN_BUDGET (Atoi, > 0) >
    .ctxrc token_budget > 8000. A .ctxrc `token_budget: 0` is used as is, and readAgentPacket's `budget > 0`
    (resource.go:94) makes it unlimited — where `ctx agent` would print tier 1 alone. `ctx mcp serve` skips the
    init and .git gates (AnnotationSkipInit, cli/mcp/serve.go:29). Recorded: mcp-default-budget-ctxrc."""
    from ctxtui.cli import main

    root = write_context(tmp_path, {"TASKS.md": TASKS, "DECISIONS.md": DECISIONS, "GLOSSARY.md": GLOSSARY})
    (root / ".ctxrc").write_text("token_budget: 0\n")
    monkeypatch.delenv("CTXTUI_IGNORE_REFUSAL")
    monkeypatch.delenv("CTX_TOKEN_BUDGET", raising=False)
    monkeypatch.chdir(root)
    assert main(["pack", ".", "--packer", "ctx-mcp"]) == 0
    out = capsys.readouterr().out
    assert "## GLOSSARY.md" in out and "Also Noted" not in out
    monkeypatch.setenv("CTX_TOKEN_BUDGET", "20")  # the environment wins: header + TASKS.md only
    assert main(["pack", ".", "--packer", "ctx-mcp"]) == 0
    assert capsys.readouterr().out.endswith(
        "- DECISIONS.md (omitted for budget)\n- GLOSSARY.md (omitted for budget)\n\n"
    )
