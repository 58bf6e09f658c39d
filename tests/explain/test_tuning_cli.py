"""The tuning loop from the command line: --set, tune, diff, coverage, sweep --by-section, explain --all, check."""

from __future__ import annotations

import json

from ctxtui.cli import main
from ctxtui.opening.ctxrc_save import BACKUP_MARK

from tests.conftest import corpus_path, needs_corpus, write_context

TASKS = "# Tasks\n\n" + "".join(f"- [ ] Task {i} about the parser and the budget\n" for i in range(12))
DECISIONS = "# Decisions\n\n" + "".join(
    f"## [2026-11-0{i + 1}-120000] Decision {i}\n\nWe chose option {i} for the parser because it is simple.\n\n"
    for i in range(6)
)


def project(tmp_path):
    return write_context(
        tmp_path / "p", {"TASKS.md": TASKS, "DECISIONS.md": DECISIONS, "CONSTITUTION.md": "# Constitution\n"}
    )


def test_set_changes_the_packet_for_this_run_only(tmp_path, capsys):
    root = project(tmp_path)
    main(["pack", str(root), "--format", "json", "--budget", "400"])
    base = json.loads(capsys.readouterr().out)
    main(["pack", str(root), "--format", "json", "--budget", "400", "--set", "task_budget_pct=0.1"])
    tuned = json.loads(capsys.readouterr().out)
    assert len(tuned["tasks"]) < len(base["tasks"])
    assert not (root / ".ctxrc").exists()


def test_tune_shows_a_diff_and_writes_only_with_write(tmp_path, capsys):
    root = project(tmp_path)
    (root / ".ctxrc").write_text("# mine\nunknown_key: 1\n")
    assert main(["tune", str(root), "--set", "task_budget_pct=0.25"]) == 0
    out = capsys.readouterr().out
    assert "+task_budget_pct: 0.25" in out and "not written" in out
    assert (root / ".ctxrc").read_text() == "# mine\nunknown_key: 1\n"
    assert main(["tune", str(root), "--set", "task_budget_pct=0.25", "--write"]) == 0
    assert (root / ".ctxrc").read_text() == "# mine\nunknown_key: 1\ntask_budget_pct: 0.25\n"
    assert (root / ".ctxrc.bak").read_text() == BACKUP_MARK + "# mine\nunknown_key: 1\n"  # marked as ctxtui's
    assert sorted(p.name for p in root.iterdir()) == [".context", ".ctxrc", ".ctxrc.bak"]
    capsys.readouterr()
    main(["pack", str(root), "--format", "json", "--budget", "400"])
    tuned = json.loads(capsys.readouterr().out)
    main(["pack", str(root), "--format", "json", "--budget", "400", "--set", "task_budget_pct=0.25"])
    assert tuned["tasks"] == json.loads(capsys.readouterr().out)["tasks"]


def test_diff_json_lists_changes_and_tokens(tmp_path, capsys):
    root = project(tmp_path)
    assert main(["diff", str(root), "--budget", "600", "--against", "300", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["changed"] and {"key", "title", "section", "from", "to"} <= set(data["changed"][0])
    assert data["tokens"]["used"]["delta"] == data["tokens"]["used"]["to"] - data["tokens"]["used"]["from"]


def test_coverage_and_sweep_by_section(tmp_path, capsys):
    root = project(tmp_path)
    assert main(["coverage", str(root), "--budget", "300", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    sections = {s["section"]: s for s in data["sections"]}
    assert sections["tasks"]["can_be_full"] == 12 and data["settles_at"] is not None
    assert (
        main(["sweep", str(root), "--from", "0", "--to", "600", "--step", "300", "--by-section", "--format", "json"])
        == 0
    )
    rows = json.loads(capsys.readouterr().out)
    assert set(rows[0]["sections"]["tasks"]) == {"included", "summarized", "dropped"}


def test_explain_all_and_check(tmp_path, capsys):
    root = project(tmp_path)
    assert main(["explain", str(root), "--all", "--format", "json", "--budget", "300"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["entries"]) == 12 + 6
    assert {"key", "title", "section", "source", "fate", "reason", "numbers", "thresholds"} <= set(data["entries"][0])
    assert main(["check", str(root), "--budget", "300", "--max-tokens", "100000"]) == 0
    assert main(["check", str(root), "--budget", "300", "--max-tokens", "10"]) == 1
    assert "over by" in capsys.readouterr().out


def test_every_option_is_described_with_its_default(capsys):
    """`--help` of every command explains every option (first-use issue): no bare option lines."""
    import argparse

    from ctxtui.cli.parser import build_parser, build_tui_parser

    parsers = [build_tui_parser()]
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                parsers.append(sub)
                parsers += [
                    a for b in sub._actions if isinstance(b, argparse._SubParsersAction) for a in b.choices.values()
                ]
    for parser in parsers:
        for action in parser._actions:
            if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help, f"{parser.prog} {action.option_strings or action.dest}: no help"


def test_version_and_sweep_budget(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.startswith("ctxtui ")
    assert main(["sweep", ".", "--budget", "5"]) == 2
    assert "not --budget" in capsys.readouterr().err


def test_threshold_words_never_say_in_full_at_never():
    """A threshold without any budget in full reads "never in full at any budget"; numbers carry their unit."""
    from ctxtui.engine.explain.reasons import describe_threshold
    from ctxtui.engine.explain.thresholds import Threshold

    from tests.ui.fakes import entry

    e = entry("learnings:1", "learnings", "A lesson", 40)
    never = Threshold(e, full_at=None, any_at=300, full_ranges=[], any_ranges=[(300, 400), (500, None)])
    assert describe_threshold(never) == (
        "not monotone in the budget: never in full at any budget; in the packet at 300–399, 500+ tokens"
    )
    never_monotone = Threshold(e, full_at=None, any_at=300, full_ranges=[], any_ranges=[(300, None)])
    assert describe_threshold(never_monotone) == "never in full at any budget; summarized from 300 tokens"
    scanned = Threshold(e, full_at=None, any_at=300, full_ranges=[], any_ranges=[(300, None)], scanned_to=9000)
    assert describe_threshold(scanned).startswith("never in full up to 9,000 tokens; in the packet at 300+")
    full = Threshold(e, full_at=2340, any_at=1900, full_ranges=[(2340, None)], any_ranges=[(1900, None)])
    assert describe_threshold(full) == "in full from a budget of 2,340 tokens; summarized from 1,900 tokens"


def test_diff_text_columns_line_up_whatever_the_fates(tmp_path, capsys):
    """ "title only → in full" is longer than "dropped → in full": the section column must still line up."""
    root = project(tmp_path)
    assert main(["diff", str(root), "--budget", "600", "--against", "100"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("  ▲", "  ▼"))]
    moves = {line[4:].split("  ")[0].strip() for line in lines}
    assert len(moves) > 1  # several kinds of move, of different lengths
    assert len({line.index(" tasks ") if " tasks " in line else line.index(" decisions ") for line in lines}) == 1


@needs_corpus
def test_explain_bounds_the_advice_search_with_the_commands_max_seconds(capsys, monkeypatch):
    """--max-seconds bounds the whole command: a load that used the time leaves the advice search none (each
    search had a fresh bound of its own before, so two goals and the scan could take three times the bound)."""
    import time

    import ctxtui.cli.explain as explain_module

    real = explain_module.load_packer

    def slow_load(*args, **kwargs):
        time.sleep(0.6)
        return real(*args, **kwargs)

    monkeypatch.setattr(explain_module, "load_packer", slow_load)
    code = main(
        ["explain", str(corpus_path("ctx-large")), "Agents reliably introduce", "--budget", "4000"]
        + ["--max-seconds", "0.5", "--ignore-refusal", "--now", "2026-11-21T23:56:08Z"]
    )
    out = capsys.readouterr().out
    advice = next(line for line in out.splitlines() if line.startswith("  advice:"))
    assert code == 0 and "time bound" in advice  # the scan was cut too: no budget found to name
