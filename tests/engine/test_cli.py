"""The headless CLI: pack, explain, sweep, and clear failures."""

from __future__ import annotations

import json

import pytest
from ctxtui.cli import main

from tests.conftest import CORPUS, generated_time, needs_corpus, write_context

DECISIONS = (
    "# Decisions\n\n## [2026-02-28-120000] Use SQLite for memories\n\nEmbedded and fast.\n\n"
    "## [2026-02-01-120000] Prefer tabs\n\n~~Superseded by spaces~~\n"
)


@pytest.fixture
def project(tmp_path):
    return write_context(tmp_path, {"TASKS.md": "- [ ] Move memories to SQLite\n", "DECISIONS.md": DECISIONS})


@needs_corpus
@pytest.mark.parametrize("fmt", ["md", "json"])
def test_pack_matches_ctx(tmp_path, capsysbinary, fmt):
    expected = (CORPUS / "ctx-large" / "expected" / f"budget_4000.{fmt}").read_bytes()
    now = generated_time(expected.decode()).strftime("%Y-%m-%dT%H:%M:%SZ")
    args = [
        "pack",
        str(CORPUS / "ctx-large"),
        "--budget",
        "4000",
        "--format",
        fmt,
        "--now",
        now,
        "--root-path",
        "/project",
    ]
    assert main(args) == 0
    assert capsysbinary.readouterr().out == expected
    assert main([*args, "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out").read_bytes() == expected


def test_budget_from_environment_and_ctxrc(project, capsys, monkeypatch):
    (project / ".ctxrc").write_text("token_budget: 1234\n")
    main(["pack", str(project), "--format", "json"])
    assert json.loads(capsys.readouterr().out)["budget"] == 1234
    monkeypatch.setenv("CTX_TOKEN_BUDGET", "777")
    main(["pack", str(project), "--format", "json"])
    assert json.loads(capsys.readouterr().out)["budget"] == 777
    main(["pack", str(project), "--format", "json", "--budget", "55"])
    assert json.loads(capsys.readouterr().out)["budget"] == 55


def test_missing_context_is_one_line_and_status_2(tmp_path, capsys):
    assert main(["pack", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no .context/" in err and "Traceback" not in err


def test_bad_now_is_a_usage_error(project, capsys):
    assert main(["pack", str(project), "--now", "yesterday"]) == 2
    assert "ISO 8601" in capsys.readouterr().err


def test_explain_one_entry(project, capsys):
    assert main(["explain", str(project), "Use SQLite", "--budget", "4000", "--now", "2026-03-01T00:00:00Z"]) == 0
    out = capsys.readouterr().out
    assert "Use SQLite for memories" in out and "included" in out and "80%" in out
    assert "budgets:" in out and ".context/DECISIONS.md:3" in out


def test_explain_json(project, capsys):
    main(["explain", str(project), "Prefer tabs", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["fate"] == "dropped" and data["reason"] == "superseded"
    assert data["thresholds"]["any_at"] is None


def test_explain_no_match_and_several(project, capsys):
    assert main(["explain", str(project), "zzz-nothing"]) == 1
    assert "no entry matches" in capsys.readouterr().err
    assert main(["explain", str(project), "e"]) == 1
    assert "entries match" in capsys.readouterr().err


def test_sweep_table_and_json(project, capsys):
    assert main(["sweep", str(project), "--from", "0", "--to", "400", "--step", "100"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["budget", "used", "included", "summarized", "dropped"] and len(lines) == 7
    assert lines[-1].startswith("used: the packet's Used line")  # what the column counts
    main(["sweep", str(project), "--from", "0", "--to", "400", "--step", "200", "--format", "json"])
    rows = json.loads(capsys.readouterr().out)
    assert [r["budget"] for r in rows] == [0, 200, 400]
    assert all(r["included"] + r["summarized"] + r["dropped"] == 3 for r in rows)


def test_sweep_rejects_bad_step(project, capsys):
    assert main(["sweep", str(project), "--step", "0"]) == 2
