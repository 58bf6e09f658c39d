"""`ctxtui turns` and `--packer nous` from the command line, against a real PostgreSQL."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from ctxtui.cli import main

from tests.conftest import write_context
from tests.factories import nous_db as F


@pytest.fixture
def logged(nous_db, monkeypatch):
    """A turn (r1) of the task frame, nous configured with gpt-4o (NOUS_MODEL: unscaled): 30 facts of 127-character
    lines, one gated."""
    monkeypatch.setenv("NOUS_MODEL", "gpt-4o")
    with nous_db.connect() as conn:
        facts = [F.add_fact(conn, i, "a" * 100, subject=f"s{i:02d}") for i in range(30)]
        cands = [F.candidate(f, "fact", final_rank=i + 1, entry_rank=i + 1) for i, f in enumerate(facts[:29])]
        cands.append(F.candidate(facts[29], "fact", "filter_dropped", stage="conversation_dedup"))
        F.add_call(conn, "c1", model="gpt-4o", tokens={"identity": 120, "relevant_facts": (29 * 128 - 1) // 4})
        F.add_retrieval(conn, "r1", candidates=cands, query="what units?")
        F.add_call(conn, "c2", turn=2, at=F.T0 + timedelta(minutes=1))
        F.add_retrieval(conn, "r2", turn=2, at=F.T0 + timedelta(minutes=1), candidates=None)
    return nous_db


def test_turns_lists_the_logged_turns(logged, capsys):
    assert main(["turns", "--db", logged.url]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "agent nous-default — 2 turns, newest first; * = candidates logged (rebuildable with --turn KEY)"
    assert out[1].split() == [
        "TIME",
        "(UTC)",
        "SESSION#TURN",
        "FRAME",
        "CALLS",
        "TOKENS",
        "CAND",
        "REND",
        "KEY",
        "SECTIONS",
        "(tokens)",
    ]
    assert out[2].split()[:8] == ["2026-08-21", "10:01:00", "s1#2", "task", "1", "0", "0", "0"]
    assert out[3].split() == [
        "2026-08-21",
        "10:00:00",
        "s1#1",
        "task",
        "1",
        "1,047",
        "30",
        "29",
        "r1",
        "*",
        "identity",
        "120",
        "·",
        "facts",
        "927",
    ]


def test_turns_as_json(logged, capsys):
    assert main(["turns", "--db", logged.url, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["agent"] == "nous-default" and "trace_id NULL" in data["note"]
    assert data["database"].startswith("postgresql://ctxtui_ro@/")
    assert [t["key"] for t in data["turns"]] == ["r2", "r1"]
    assert data["turns"][1]["tokens"] == {"identity": 120, "relevant_facts": 927} and data["turns"][1]["sampled"]


def test_one_turn_in_full(logged, capsys):
    assert main(["turns", "--db", logged.url, "--turn", "r1"]) == 0
    out = capsys.readouterr().out
    assert "frame task · model gpt-4o · 1 API call · query 'what units?'" in out
    assert (
        "  Relevant Facts              927 tokens  budget 1,500 (1,500 ×1), 3,711 of 6,000 chars: no cut  "
        "rebuilt 927 vs logged 927 ✓"
    ) in out
    assert "not rebuilt (no candidates; logged tokens): identity 120" in out
    assert "filter_dropped @ conversation_dedup" in out


def test_one_turn_at_another_budget_as_json(logged, capsys):
    assert main(["turns", "--db", logged.url, "--turn", "r1", "--budget", "3000", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rebuild = data["rebuild"]
    [facts] = rebuild["sections"]
    # 3,000 of the turn's 6,000: facts get 750 tokens = 3,000 characters, cut after 2,997
    numbers = (facts["budget"], facts["base_budget"], facts["kept_chars"], facts["logged_tokens"])
    assert numbers == (750, 1500, 2997, 927)
    fates = [c["fate"] for c in rebuild["candidates"]]
    assert fates.count("included") == 23 and fates.count("summarized") == 1 and fates.count("dropped") == 6
    gated = rebuild["candidates"][-1]
    assert (gated["logged_disposition"], gated["logged_stage"], gated["reason"]) == (
        "filter_dropped",
        "conversation_dedup",
        "gate",
    )
    assert "it repeats what the recent conversation already says" in gated["explanation"]
    cut = [c for c in rebuild["candidates"] if c["fate"] == "summarized"][0]
    assert cut["explanation"].startswith(
        "section 'facts' budget 750 tokens (its share of the total 3,000; the "
        "turn's own is 1,500): cut mid-text after 2,997 characters"
    )
    assert rebuild["checks"] == [
        {"section": "Relevant Facts", "log_key": "relevant_facts", "rebuilt": 927, "logged": 927, "agrees": True}
    ]


def test_an_unsampled_turn_shows_its_logged_tokens(logged, capsys):
    assert main(["turns", "--db", logged.url, "--turn", "r2"]) == 0
    out = capsys.readouterr().out
    assert "not sampled: nous logs candidates for a sample of turns" in out


def test_pack_with_the_nous_packer(logged, capsys):
    assert main(["pack", "--packer", "nous", "--db", logged.url]) == 0  # the newest sampled turn: r1
    out = capsys.readouterr().out
    assert out.startswith("## Relevant Facts\n\n- [s00] ") and out.count("\n- [s") == 29
    assert main(["pack", "--packer", "nous", "--db", logged.url, "--turn", "r1", "--frame", "conversation"]) == 0
    cut = capsys.readouterr().out
    assert len(cut) == len("## Relevant Facts\n\n") + 2000 and cut.endswith("...")  # facts 500 → 2,000 characters


def test_explain_and_sweep_work_on_the_nous_packer(logged, capsys):
    assert main(["explain", "--packer", "nous", "--db", logged.url, "--turn", "r1", "--budget", "3000", "[s23]"]) == 0
    out = capsys.readouterr().out
    assert "fate:    summarized at budget 3,000 (cut-mid-text)" in out
    assert "in full from a budget of" in out  # thresholds through next_change
    assert (
        main(["sweep", "--packer", "nous", "--db", logged.url, "--turn", "r1", "--to", "6000", "--step", "3000"]) == 0
    )
    rows = capsys.readouterr().out.splitlines()
    assert rows[1].split() == ["0", "0", "0", "0", "30"] and rows[3].split() == ["6,000", "927", "29", "0", "1"]


def test_the_nous_packer_needs_a_postgres_url(tmp_path, capsys):
    assert main(["pack", "--packer", "nous", "--db", str(tmp_path / "memory.db")]) == 2
    assert "give --db postgresql://USER@HOST/DB" in capsys.readouterr().err


def test_an_unsampled_turn_cannot_be_packed(logged, capsys):
    assert main(["pack", "--packer", "nous", "--db", logged.url, "--turn", "r2"]) == 2
    assert "turn r2 has no logged candidates to rebuild from" in capsys.readouterr().err


def test_pack_joins_nous_memories_to_a_ctx_packet(logged, tmp_path, capsys):
    root = write_context(tmp_path, {"TASKS.md": "- [ ] pick units\n"})
    assert main(["pack", str(root), "--db", logged.url, "--now", "2026-09-01T00:00:00Z", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    text = json.dumps(data)
    assert "s00" in text
