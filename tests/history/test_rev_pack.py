"""`pack --rev`: byte for byte what packing a checkout of the commit prints with --now at the commit's date."""

from __future__ import annotations

import pytest

from tests.history.conftest import checkout, commit_date, repo_state, run_cli

BUDGETS = ("-5", "0", "900", "3000", "8000", "32000")
PACKERS = ("ctx-0.8.1", "ctx-0.8.0", "ctx-mcp")


@pytest.mark.parametrize("packer", PACKERS)
def test_every_commit_packs_as_its_checkout(history, tmp_path, capsysbinary, monkeypatch, packer):
    root, commits = history
    monkeypatch.delenv("CTX_TOKEN_BUDGET", raising=False)
    monkeypatch.delenv("CTX_DIR", raising=False)
    for index, commit in enumerate(commits):
        tree = checkout(root, commit, tmp_path / f"c{index}")
        date = commit_date(root, commit)
        for budget in BUDGETS[index % 2 :: 2] if packer != "ctx-0.8.1" else BUDGETS:
            for fmt in ("md", "json"):
                common = ["--packer", packer, f"--budget={budget}", "--format", fmt, "--root-path", str(root)]
                got = run_cli(["pack", str(root), "--rev", commit, *common], capsysbinary)
                want = run_cli(["pack", str(tree), "--now", date, *common], capsysbinary)
                assert got == want, (index, commit, budget, fmt)


def test_default_root_path_is_the_projects(history, tmp_path, capsysbinary):
    """Without --root-path, the packet names the project's own path, as ctx run in it then did."""
    root, commits = history
    tree = checkout(root, commits[-1], tmp_path / "c")
    got = run_cli(["pack", str(root), "--rev", "HEAD", "--packer", "ctx-0.8.1"], capsysbinary)
    want = run_cli(
        ["pack", str(tree), "--now", commit_date(root, commits[-1]), "--packer", "ctx-0.8.1", "--root-path", str(root)],
        capsysbinary,
    )
    assert got == want
    assert f"{root}/.context/".encode() in got[0]


def test_now_pins_the_clock(history, tmp_path, capsysbinary):
    root, commits = history
    tree = checkout(root, commits[5], tmp_path / "c")
    now = ["--now", "2027-01-01T00:00:00Z", "--packer", "ctx-0.8.1", "--root-path", str(root)]
    assert run_cli(["pack", str(root), "--rev", commits[5], *now], capsysbinary) == run_cli(
        ["pack", str(tree), *now], capsysbinary
    )


def test_the_repository_is_never_touched(history, capsysbinary):
    """No checkout, no stash, no index change: work tree, index, refs and objects are as they were."""
    root, commits = history
    (root / ".context" / "TASKS.md").write_bytes(b"- [ ] an uncommitted edit\n")  # a dirty work tree
    before = repo_state(root)
    for argv in (
        ["pack", str(root), "--rev", commits[3], "--packer", "ctx-0.8.1"],
        ["explain", str(root), "--all", "--rev", "HEAD~2", "--packer", "ctx-0.8.1", "--format", "json"],
        ["diff", str(root), "--rev", "HEAD", "--against-rev", "HEAD~4", "--packer", "ctx-0.8.1"],
        ["log", str(root), "--packer", "ctx-0.8.1", "--limit", "5"],
    ):
        run_cli(argv, capsysbinary)
    assert repo_state(root) == before
