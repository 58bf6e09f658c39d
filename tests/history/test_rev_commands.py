"""diff across revisions, the other commands at a revision, and each clear message."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.factories.history import git, make_history
from tests.history.conftest import run_cli

PACKER = ["--packer", "ctx-0.8.1"]


def _explain_fates(root, rev, capsysbinary, budget="3000"):
    out, err, code = run_cli(
        ["explain", str(root), "--all", "--format", "json", "--max-seconds", "60", "--budget", budget, *PACKER]
        + (["--rev", rev] if rev else []),
        capsysbinary,
    )
    assert code == 0, err
    return {e["key"]: e["fate"] for e in json.loads(out)["entries"]}


def test_diff_across_revisions_is_the_fate_difference(history, capsysbinary):
    root, commits = history
    out, err, code = run_cli(
        [
            "diff",
            str(root),
            "--rev",
            "HEAD",
            "--against-rev",
            "HEAD~5",
            "--budget",
            "3000",
            "--format",
            "json",
            *PACKER,
        ],
        capsysbinary,
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["from"]["rev"] == "HEAD~5" and data["to"]["rev"] == "HEAD"
    before, after = _explain_fates(root, "HEAD~5", capsysbinary), _explain_fates(root, "HEAD", capsysbinary)
    expected = {(k, before.get(k), after.get(k)) for k in {*before, *after} if before.get(k) != after.get(k)}
    assert {(c["key"], c["from"], c["to"]) for c in data["changed"]} == expected
    assert all({"key", "title", "section", "from", "to"} <= set(c) for c in data["changed"])


def test_against_rev_head_shows_uncommitted_edits(tmp_path, capsysbinary):
    root = tmp_path / "p"
    make_history(root, commits=2, seed=5)
    decisions = root / ".context" / "DECISIONS.md"
    text = decisions.read_text()
    cut = text.index("\n## [")
    decisions.write_text(text[:cut] + "\n")  # the working tree drops every decision
    out, err, code = run_cli(
        ["diff", str(root), "--against-rev", "HEAD", "--budget", "8000", "--format", "json", *PACKER], capsysbinary
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["to"]["rev"] is None and data["from"]["rev"] == "HEAD"
    gone = [c for c in data["changed"] if c["section"] == "decisions"]
    assert gone and all(c["to"] is None for c in gone)
    md, _, _ = run_cli(
        ["diff", str(root), "--against-rev", "HEAD", "--budget", "8000", "--format", "md", *PACKER], capsysbinary
    )
    text = md.decode()
    assert text.startswith("### Context packet: the working tree against HEAD\n")
    assert "this change drops" in text and "decision" in text
    assert "| entry | section | from | to |" in text


@pytest.mark.parametrize("command", ["coverage", "sweep", "check"])
def test_other_commands_take_rev(history, capsysbinary, command):
    root, commits = history
    extra = {"coverage": ["--max-seconds", "2"], "sweep": ["--to", "4000"], "check": ["--max-tokens", "100000"]}[
        command
    ]
    out, err, code = run_cli([command, str(root), "--rev", commits[4], *PACKER, *extra], capsysbinary)
    assert code == 0, err
    assert out


def _message(argv, capsysbinary) -> str:
    out, err, code = run_cli(argv, capsysbinary)
    assert code == 2 and out == b"", (out, err)
    assert err.count(b"\n") == 1, err  # one line
    return err.decode()


def test_clear_messages(tmp_path, history, capsysbinary):
    root, commits = history
    plain = tmp_path / "plain"
    (plain / ".context").mkdir(parents=True)
    assert "not in a git repository" in _message(["pack", str(plain), "--rev", "HEAD", *PACKER], capsysbinary)
    assert "not in a git repository" in _message(["log", str(plain), *PACKER], capsysbinary)
    assert "no such revision" in _message(["pack", str(root), "--rev", "nope~99", *PACKER], capsysbinary)
    assert "no such revision" in _message(["pack", str(root), "--rev", "0" * 40, *PACKER], capsysbinary)
    assert "not a revision" in _message(["explain", str(root), "x", "--rev=--output=/tmp/x", *PACKER], capsysbinary)
    message = _message(["explain", str(root), "--all", "--rev", commits[0], *PACKER], capsysbinary)
    assert "no .context/" in message and commits[0][:12] in message
    out, err, code = run_cli(["pack", str(root), "--rev", commits[0], *PACKER], capsysbinary)
    assert code == 1 and b"no .context here" in err  # ctx run on that checkout refuses: so does pack


def test_shallow_clone(tmp_path, history, capsysbinary):
    root, commits = history
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "3", f"file://{root}", str(clone)], check=True)
    assert "shallow clone" in _message(["pack", str(clone), "--rev", commits[2], *PACKER], capsysbinary)
    out, err, code = run_cli(["log", str(clone), "--format", "json", *PACKER], capsysbinary)
    assert code == 0 and b"shallow clone" in err
    assert len(json.loads(out)["commits"]) <= 3


def test_memory_store_is_joined_as_it_is_now(history, tmp_path, capsysbinary):
    root, commits = history
    db = tmp_path / "memory.db"
    assert run_cli(["memory", "init", "--db", str(db)], capsysbinary)[2] == 0
    run_cli(["memory", "add", "--db", str(db), "--kind", "decision", "--title", "Joined from the store"], capsysbinary)
    out, err, code = run_cli(["pack", str(root), "--rev", commits[3], "--db", str(db), *PACKER], capsysbinary)
    assert code == 0 and b"Joined from the store" in out
    assert b"not in git" in err and b"as it is now" in err


def test_a_subdirectory_project(tmp_path, capsysbinary):
    """The project may be a folder inside the repository: .context/ is read at its path."""
    import shutil

    source = tmp_path / "source"
    make_history(source, commits=2, seed=6)
    repo = tmp_path / "repo"
    shutil.copytree(source, repo / "svc", ignore=shutil.ignore_patterns(".git"))
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "monorepo", date="1780000000 +0000")
    shutil.rmtree(repo / "svc" / ".context")  # the working tree has none: the commit's is read
    out, err, code = run_cli(["pack", str(repo / "svc"), "--rev", "HEAD", *PACKER], capsysbinary)
    assert code == 1 and b".git/ not found at" in err  # ctx 0.8.1 run in svc/ of a checkout refuses
    out, err, code = run_cli(["pack", str(repo / "svc"), "--rev", "HEAD", "--ignore-refusal", *PACKER], capsysbinary)
    assert code == 0, err
    assert f"{repo / 'svc'}/.context/TASKS.md".encode() in out
    assert b"Generated: 2026-05-28T20:26:40Z" in out


def test_explain_history_lists_the_commits_where_the_fate_changed(history, capsysbinary):
    root, commits = history
    log = json.loads(run_cli(["log", str(root), "--format", "json", "--budget", "3000", *PACKER], capsysbinary)[0])
    moved: dict[str, list[str]] = {}
    for record in log["commits"]:
        for change in record["changed"]:
            moved.setdefault(change["key"], []).append(record["commit"])
    key = next(k for k, found in moved.items() if len(found) >= 1 and k.startswith("decisions:"))
    out, err, code = run_cli(
        ["explain", str(root), key, "--history", "--rev", "HEAD", "--budget", "3000", "--format", "json", *PACKER],
        capsysbinary,
    )
    if code == 1 and b"no entry matches" in err:
        pytest.skip("that key is not a candidate at HEAD")
    assert code == 0, err
    data = json.loads(out)
    assert [m["commit"] for m in data["history"]] == moved[key]
    assert all(m["reasons"] or m["cause"] for m in data["history"])
    text, _, _ = run_cli(["explain", str(root), key, "--history", "--budget", "3000", *PACKER], capsysbinary)
    assert moved[key][0][:10].encode() in text


def test_a_missing_project_folder_is_a_message(tmp_path, capsysbinary):
    message = _message(["pack", str(tmp_path / "nope"), "--rev", "HEAD", *PACKER], capsysbinary)
    assert "nope: no such folder" in message and "git" not in message  # not "git is not installed"
