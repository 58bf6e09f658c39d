"""The demo workspace as a git working tree, so ctx would pack it (`ctx agent` refuses a folder without `.git`).

`commit_demo` makes `target` a repository holding one commit of the demo's
files, made the same way every time: no user configuration is read (no
`user.name` needed, no hooks, no signing), author and committer are fixed
and dated at the demo's "now", so the same "now" gives the same commit.
The memory database stays out of the commit (`.git/info/exclude`): its
bytes carry the SQLite library's version, and ctx never reads it.

A `.git` that ctxtui did not make (no marker file inside it) is left alone:
the folder is already a working tree and nothing is committed into it.
Without git, or when git fails, the demo still opens: the note returned
says why ctx would refuse it (the TUI's banner says the same).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

GIT_MARKER = "ctxtui-demo"  # a file inside .git/: this repository is the demo's, rewritten on each launch
AUTHOR = ("ctxtui demo", "demo@ctxtui.invalid")
MESSAGE = "acme-billing: the ctxtui demo workspace"
EXCLUDED = ".context/memory.db\n.context/memory.db-*\n"
TIMEOUT_SECONDS = 15.0


def _environment(now: datetime) -> dict[str, str]:
    """git's environment: the caller's, without any user or system configuration, with fixed names and dates."""
    stamp = f"@{int(now.timestamp())} +0000"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME=AUTHOR[0],
        GIT_AUTHOR_EMAIL=AUTHOR[1],
        GIT_COMMITTER_NAME=AUTHOR[0],
        GIT_COMMITTER_EMAIL=AUTHOR[1],
        GIT_AUTHOR_DATE=stamp,
        GIT_COMMITTER_DATE=stamp,
        LC_ALL="C",
    )
    return env


def commit_demo(target: Path, now: datetime) -> str | None:
    """Make `target` a git working tree with the demo committed; None when done, else a one-line note."""
    git = shutil.which("git")
    if git is None:
        return "git not found: the demo folder is not a git working tree, so ctx 0.8.1 would refuse it (install git to see it as ctx packs it)"
    repository = Path(target) / ".git"
    if repository.exists() or repository.is_symlink():
        if not (repository / GIT_MARKER).is_file():
            return None  # someone's own repository: a working tree already, never touched
        shutil.rmtree(repository)
    env = _environment(now)
    steps = (
        ["-c", "init.defaultBranch=main", "init", "--quiet", "--template="],
        ["add", "--all", "--", ".context"],
        ["-c", "commit.gpgSign=false", "commit", "--quiet", "--no-verify", "-m", MESSAGE],
    )
    try:
        for number, step in enumerate(steps):
            subprocess.run(
                [git, *step],
                cwd=target,
                env=env,
                check=True,
                capture_output=True,
                stdin=subprocess.DEVNULL,
                timeout=TIMEOUT_SECONDS,
            )
            if number == 0:
                (repository / GIT_MARKER).write_text("made by ctxtui for its demo; rewritten on every launch\n")
                (repository / "info").mkdir(exist_ok=True)
                (repository / "info" / "exclude").write_text(EXCLUDED)
    except (OSError, subprocess.SubprocessError) as exc:
        shutil.rmtree(repository, ignore_errors=True)  # there was none before `git init`: this one is ours
        stderr = getattr(exc, "stderr", None)  # CalledProcessError and TimeoutExpired carry git's words
        detail = stderr.decode("utf-8", "replace").strip().splitlines() if isinstance(stderr, bytes) else []
        reason = detail[-1] if detail else str(exc)
        return f"git failed ({reason}): the demo folder is not a git working tree, so ctx 0.8.1 would refuse it"
    return None
