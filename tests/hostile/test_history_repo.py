"""A repository is untrusted input: reading its history runs nothing it names, and every read is bounded.

Each trap is shown to be live first (git's own porcelain springs it), then
every history command runs without springing it.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from tests.factories.history import git, make_history
from tests.history.conftest import run_cli

PACKER = ["--packer", "ctx-0.8.1"]


@pytest.fixture(autouse=True)
def _as_ctx(monkeypatch):
    monkeypatch.delenv("CTXTUI_IGNORE_REFUSAL", raising=False)


def _trap(root: Path, marker: Path) -> None:
    """Every program a repository's own config or attributes can make git run writes `marker`."""
    script = root.parent / "spring.sh"
    script.write_text(f'#!/bin/sh\necho "$0 $*" >> {marker}\ncat\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    hooks = root.parent / "hooks"
    hooks.mkdir()
    for hook in ("post-checkout", "pre-commit", "post-index-change", "reference-transaction", "post-rewrite"):
        (hooks / hook).write_text(f"#!/bin/sh\necho {hook} >> {marker}\n")
        (hooks / hook).chmod(0o755)
    for key, value in (
        ("core.fsmonitor", str(script)),
        ("core.hooksPath", str(hooks)),
        ("diff.external", str(script)),
        ("diff.x.textconv", str(script)),
        ("filter.x.smudge", str(script)),
        ("filter.x.clean", str(script)),
        ("filter.x.process", str(script)),
        ("core.pager", str(script)),
        ("core.askPass", str(script)),
        ("core.sshCommand", str(script)),
        ("uploadpack.packObjectsHook", str(script)),
    ):
        git(root, "config", key, value)
    (root / ".gitattributes").write_text("* diff=x filter=x\n")


def test_hostile_config_runs_nothing(tmp_path, capsysbinary):
    root = tmp_path / "repo"
    commits = make_history(root, commits=4, seed=21, tasks=10, decisions=3, learnings=3)
    marker = tmp_path / "sprung"
    _trap(root, marker)
    subprocess.run(["git", "status"], cwd=root, capture_output=True, check=False)  # porcelain: the trap is live
    assert marker.exists(), "the trap does not work: the test would prove nothing"
    marker.unlink()
    for argv in (
        ["pack", str(root), "--rev", commits[-2]],
        ["explain", str(root), "--all", "--rev", "HEAD~1", "--max-seconds", "0"],
        ["diff", str(root), "--rev", "HEAD", "--against-rev", "HEAD~2", "--format", "md"],
        ["diff", str(root), "--against-rev", "HEAD"],
        ["log", str(root), "--format", "json"],
        ["explain", str(root), "Decision", "--history"],
    ):
        run_cli([*argv, *PACKER], capsysbinary)
    assert not marker.exists(), marker.read_text()


def test_a_blob_over_the_bound_is_never_read(tmp_path, capsysbinary, monkeypatch):
    from ctxtui.engine.sources import revision

    root = tmp_path / "repo"
    make_history(root, commits=1, seed=22, tasks=10, decisions=3, learnings=3)
    (root / ".context" / "LEARNINGS.md").write_bytes(b"# Learnings\n" + b"x" * 200_000)
    git(root, "commit", "-qam", "a big file", date="1780000000 +0000")
    monkeypatch.setattr(revision, "MAX_FILE_BYTES", 100_000)
    out, err, code = run_cli(
        ["explain", str(root), "--all", "--rev", "HEAD", "--format", "json", *PACKER], capsysbinary
    )
    assert code == 0, err
    assert b"LEARNINGS.md" in err and b"over the 100,000-byte limit" in err
    assert not [e for e in json.loads(out)["entries"] if e["section"] == "learnings"]


def test_links_in_history_are_not_followed_outside(tmp_path, capsysbinary):
    root = tmp_path / "repo"
    make_history(root, commits=1, seed=23, tasks=10, decisions=3, learnings=3, steering=1)
    secret = tmp_path / "secret.md"
    secret.write_text("---\ninclusion: always\n---\nTOP SECRET steering\n")
    steering = root / ".context" / "steering"
    os.symlink(secret, steering / "evil.md")
    os.symlink("/etc/passwd", root / ".context" / "GLOSSARY.md.md")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "links", date="1780000000 +0000")
    out, err, code = run_cli(["pack", str(root), "--rev", "HEAD", "--ignore-refusal", *PACKER], capsysbinary)
    assert code == 0, err
    assert b"TOP SECRET" not in out and b"root:" not in out
    assert b"outside the project" in err
    out, err, code = run_cli(["pack", str(root), "--rev", "HEAD", *PACKER], capsysbinary)
    assert code == 1 and b"is a symlink" in err  # as ctx run on that checkout refuses


@pytest.mark.parametrize("rev", ["HEAD\ncontents HEAD:.context/TASKS.md", "--output=/tmp/x", "-n1", "HEAD\x00"])
def test_a_revision_cannot_smuggle_a_command(tmp_path, capsysbinary, rev):
    root = tmp_path / "repo"
    make_history(root, commits=1, seed=24, tasks=4, decisions=2, learnings=2)
    out, err, code = run_cli(["pack", str(root), f"--rev={rev}", *PACKER], capsysbinary)
    assert code == 2 and out == b"" and err.count(b"\n") == 1, err


def test_commit_subjects_reach_the_terminal_cleaned(tmp_path, capsysbinary):
    root = tmp_path / "repo"
    make_history(root, commits=1, seed=25, tasks=4, decisions=2, learnings=2)
    (root / ".context" / "TASKS.md").write_text("- [ ] x\n")
    git(root, "commit", "-qam", "evil \x1b]52;c;cHduZWQ=\x07 \x1b[2J subject", date="1780000000 +0000")
    out, err, code = run_cli(["log", str(root), *PACKER], capsysbinary)
    assert code == 0 and b"\x1b" not in out and b"\x07" not in out
    md, _, _ = run_cli(
        ["diff", str(root), "--rev", "HEAD", "--against-rev", "HEAD~1", "--format", "md", *PACKER], capsysbinary
    )
    assert b"\x1b" not in md
