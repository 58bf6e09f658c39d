"""A `git cat-file` that stops answering cannot hang `--rev`, `log` or the history view.

The batch process's answers were read with a buffered pipe's `readline` and
`read`, which wait for ever: a stuck object store (a network filesystem, a
FUSE mount) or a git blocked on anything held the command, and the TUI's
worker, with no way out but a kill.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
from ctxtui.opening import git
from ctxtui.opening.git import GitError, Repository


def make_repo(path):
    path.mkdir()
    run = dict(cwd=path, check=True, capture_output=True, env=git.git_env())
    subprocess.run(["git", "init", "-q"], **run)
    (path / ".context").mkdir()
    (path / ".context" / "TASKS.md").write_text("# Tasks\n\n- [ ] one\n")
    subprocess.run(["git", "add", "."], **run)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first"],
        **run,
    )
    return path


def silent_process(self):
    """A stand-in for `git cat-file --batch-command` that reads its questions and never answers."""
    if self._batch is None:
        self._batch = subprocess.Popen(
            [sys.executable, "-c", "import sys, time\nfor _ in sys.stdin: time.sleep(3600)"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
        self._answers = git._Answers(self._batch.stdout.fileno())
    return self._batch


def ask_in_thread(call):
    outcome: list[object] = []
    thread = threading.Thread(target=lambda: outcome.append(_catch(call)), daemon=True)
    thread.start()
    thread.join(timeout=10)
    return thread.is_alive(), outcome


def _catch(call):
    try:
        return call()
    except GitError as exc:
        return exc


@pytest.mark.parametrize("question", ["info", "read"])
def test_a_silent_cat_file_is_stopped_at_the_deadline(tmp_path, monkeypatch, question):
    repo = Repository(str(make_repo(tmp_path / "p")))
    monkeypatch.setattr(git, "CALL_SECONDS", 0.5)
    monkeypatch.setattr(Repository, "_process", silent_process)
    started = time.monotonic()
    stuck, outcome = ask_in_thread(lambda: getattr(repo, question)("HEAD:.context/TASKS.md"))
    assert not stuck, "the read waited for ever"
    assert time.monotonic() - started < 5
    (error,) = outcome
    assert isinstance(error, GitError) and str(error) == "git cat-file gave no answer in 0.5 s: stopped"
    assert repo._batch is None  # killed: the next question starts a new process
    repo.close()


def test_answers_are_read_whole_and_a_big_blob_is_skipped(tmp_path, monkeypatch):
    repo_path = make_repo(tmp_path / "p")
    (repo_path / ".context" / "BIG.md").write_bytes(b"x" * (3 << 20))
    env = dict(cwd=repo_path, check=True, capture_output=True, env=git.git_env())
    subprocess.run(["git", "add", "."], **env)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "big"], **env)
    with Repository(str(repo_path)) as repo:
        with pytest.raises(git.FileTooBigInGit):
            repo.read("HEAD:.context/BIG.md", limit=1 << 20)
        kind, data = repo.read("HEAD:.context/TASKS.md")  # the pipe is still in step after the skip
        assert (kind, data) == ("blob", b"# Tasks\n\n- [ ] one\n")
        assert repo.read("HEAD:.context/BIG.md", limit=4 << 20)[1] == b"x" * (3 << 20)
