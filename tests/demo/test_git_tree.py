"""The demo workspace is a git working tree, so ctx would pack it: one commit, the same for the same "now",
made with no git configuration of the user's; without git, a note and the refusal ctx would print."""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import UTC, datetime, timedelta

import pytest
from ctxtui.demo import write_demo
from ctxtui.demo.git_tree import GIT_MARKER
from ctxtui.engine.sources.ctx_gates import refusal_0_8_1

from tests.conftest import NOW

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(project, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(["git", "-C", str(project), *args], capture_output=True, text=True, check=True, env=env)
    return done.stdout


@pytest.fixture
def no_git_identity(tmp_path, monkeypatch):
    """A user with no git configuration at all: no user.name, no user.email, no HOME config."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"):
        monkeypatch.delenv(name, raising=False)


@needs_git
def test_the_demo_is_a_clean_git_working_tree_ctx_would_pack(tmp_path, no_git_identity):
    notes: list[str] = []
    project = write_demo(tmp_path / "demo", NOW, notes=notes)
    assert notes == []
    assert git(project, "rev-parse", "--is-inside-work-tree").strip() == "true"
    assert git(project, "status", "--porcelain") == ""  # everything committed; memory.db ignored
    committed = git(project, "ls-files").split()
    assert ".context/TASKS.md" in committed and ".context/memory.db" not in committed
    assert (
        git(project, "log", "--format=%an|%ae|%at|%ct").strip()
        == f"ctxtui demo|demo@ctxtui.invalid|{int(NOW.timestamp())}|{int(NOW.timestamp())}"
    )
    assert refusal_0_8_1(str(project), str(project)) is None


@needs_git
def test_the_same_now_gives_the_same_commit_anywhere(tmp_path, no_git_identity):
    first = write_demo(tmp_path / "a", NOW)
    second = write_demo(tmp_path / "b" / "elsewhere", NOW)
    later = write_demo(tmp_path / "c", NOW + timedelta(days=1))
    head = git(first, "rev-parse", "HEAD")
    assert git(second, "rev-parse", "HEAD") == head
    assert git(later, "rev-parse", "HEAD") != head


@needs_git
def test_a_relaunch_rewrites_the_demo_repository_with_one_commit(tmp_path, no_git_identity):
    project = write_demo(tmp_path / "demo", NOW)
    write_demo(project, datetime(2027, 1, 2, 3, 4, 5, tzinfo=UTC))
    assert len(git(project, "log", "--format=%H").split()) == 1
    assert git(project, "status", "--porcelain") == ""


@needs_git
def test_a_repository_ctxtui_did_not_make_is_left_alone(tmp_path, no_git_identity):
    project = tmp_path / "demo"
    project.mkdir()
    git(project, "init", "--quiet")
    (project / ".git" / "keep").write_text("mine")
    notes: list[str] = []
    write_demo(project, NOW, notes=notes)
    assert notes == []
    assert (project / ".git" / "keep").read_text() == "mine"
    assert not (project / ".git" / GIT_MARKER).exists()
    assert (
        subprocess.run(["git", "-C", str(project), "rev-parse", "HEAD"], capture_output=True).returncode != 0
    )  # no commit


def test_without_git_the_demo_opens_with_a_note_and_ctx_s_refusal(tmp_path, monkeypatch):
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    notes: list[str] = []
    project = write_demo(tmp_path / "demo", NOW, notes=notes)
    assert (project / ".context" / "TASKS.md").is_file() and not (project / ".git").exists()
    assert len(notes) == 1 and notes[0].startswith("git not found") and "ctx 0.8.1 would refuse it" in notes[0]
    refusal = refusal_0_8_1(str(project), str(project))
    assert refusal is not None and "git working tree required" in refusal.reason
