"""Generated git histories of a `.context/`: the edits people make, one commit at a time.

Each commit makes one or two edits chosen from a seeded stream: a comment
line inserted at the top of a file (every line below shifts), tasks added,
checked off or removed, a decision added, its body edited, a learning
removed, a `.ctxrc` setting changed, a context file renamed away and back,
a file deleted (ctx refuses that commit), a commit that touches no context
file (only time passes). Committer dates advance by hours to days, with
offsets other than UTC. The same seed gives the same history, bytes and
dates (the hashes too, given the same git).
"""

from __future__ import annotations

import os
import random
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.factories.workspace import build_workspace

EPOCH = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
OFFSETS = ("+0000", "+0200", "-0700", "+0530")


def git(root: Path, *args: str, date: str | None = None, capture: bool = False) -> str:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    if date is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    done = subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)
    return done.stdout.decode() if capture else ""


class Edits:
    """The edit kinds, each a method on the files dict; `step` picks and applies some."""

    def __init__(self, rng: random.Random, files: dict[str, str], now: datetime) -> None:
        self.rng, self.files, self.now, self.count = rng, files, now, 0

    def _lines(self, name: str) -> list[str]:
        return self.files.get(name, "").split("\n")

    def comment_on_top(self) -> str:
        name = self.rng.choice(
            [n for n in ("TASKS.md", "DECISIONS.md", "LEARNINGS.md", "CONVENTIONS.md") if n in self.files]
        )
        self.files[name] = f"<!-- note {self.count} -->\n" + self.files[name]
        return f"comment atop {name}"

    def add_tasks(self) -> str:
        lines = self._lines("TASKS.md")
        for _ in range(self.rng.randint(1, 4)):
            at = self.rng.randint(0, len(lines))
            lines.insert(
                at, f"- [ ] task {self.count}-{self.rng.randint(0, 999)}: wire the cache #added:{self.now:%Y-%m-%d}"
            )
        self.files["TASKS.md"] = "\n".join(lines)
        return "add tasks"

    def check_off(self) -> str:
        lines = self._lines("TASKS.md")
        open_ = [i for i, line in enumerate(lines) if line.lstrip().startswith("- [ ]")]
        if open_:
            i = self.rng.choice(open_)
            lines[i] = lines[i].replace("- [ ]", "- [x]", 1)
        self.files["TASKS.md"] = "\n".join(lines)
        return "check off a task"

    def remove_task(self) -> str:
        lines = self._lines("TASKS.md")
        open_ = [i for i, line in enumerate(lines) if line.lstrip().startswith("- [")]
        if open_:
            del lines[self.rng.choice(open_)]
        self.files["TASKS.md"] = "\n".join(lines)
        return "remove a task"

    def add_decision(self) -> str:
        stamp = self.now - timedelta(hours=self.rng.randint(0, 30))
        block = (
            f"## [{stamp:%Y-%m-%d-%H%M%S}] Decision {self.count}: use a ring buffer\n\n"
            f"**Status**: Accepted\n\n**Context**: load {self.rng.randint(1, 99)}\n\n**Decision**: ring buffer\n"
        )
        text = self.files.get("DECISIONS.md", "# Decisions\n")
        marker = text.find("\n## [")
        self.files["DECISIONS.md"] = (
            text + "\n" + block if marker < 0 else text[: marker + 1] + block + "\n" + text[marker + 1 :]
        )
        return "add a decision"

    def edit_decision(self) -> str:
        lines = self._lines("DECISIONS.md")
        heads = [i for i, line in enumerate(lines) if line.startswith("## [")]
        if heads:
            i = self.rng.choice(heads)
            lines.insert(i + 1, f"Amended in edit {self.count}: the rationale grew by some words.")
        self.files["DECISIONS.md"] = "\n".join(lines)
        return "edit a decision's body"

    def remove_learning(self) -> str:
        lines = self._lines("LEARNINGS.md")
        heads = [i for i, line in enumerate(lines) if line.startswith("## [")]
        if len(heads) > 1:
            k = self.rng.randrange(len(heads) - 1)
            del lines[heads[k] : heads[k + 1]]
        self.files["LEARNINGS.md"] = "\n".join(lines)
        return "remove a learning"

    def ctxrc(self) -> str:
        budget = self.rng.choice((3000, 6000, 8000, 12000))
        pct = self.rng.choice((0.3, 0.4, 0.5))
        self.files["../.ctxrc"] = f"token_budget: {budget}\ntask_budget_pct: {pct}\n"
        return "change .ctxrc"

    def rename_away(self) -> str:
        if "LEARNINGS.md" in self.files:
            self.files["LEARNINGS.md.old"] = self.files.pop("LEARNINGS.md")
            return "rename LEARNINGS.md away"
        if "LEARNINGS.md.old" in self.files:
            self.files["LEARNINGS.md"] = self.files.pop("LEARNINGS.md.old")
            return "rename LEARNINGS.md back"
        return "nothing to rename"

    def delete_decisions(self) -> str:
        if "DECISIONS.md" in self.files:
            self.files["DECISIONS.gone"] = self.files.pop("DECISIONS.md")
            return "delete DECISIONS.md"
        self.files["DECISIONS.md"] = self.files.pop("DECISIONS.gone", "# Decisions\n")
        return "restore DECISIONS.md"

    def nothing(self) -> str:
        self.files["../README.md"] = f"readme {self.count}\n"
        return "touch only README.md"

    KINDS = (
        ("comment_on_top", 3),
        ("add_tasks", 4),
        ("check_off", 3),
        ("remove_task", 2),
        ("add_decision", 3),
        ("edit_decision", 2),
        ("remove_learning", 1),
        ("ctxrc", 1),
        ("rename_away", 1),
        ("delete_decisions", 1),
        ("nothing", 2),
    )

    def step(self) -> str:
        self.count += 1
        names = [name for name, _ in self.KINDS]
        weights = [w for _, w in self.KINDS]
        done = [getattr(self, name)() for name in self.rng.choices(names, weights, k=self.rng.choice((1, 1, 2)))]
        return "; ".join(done)


def write_files(root: Path, files: dict[str, str]) -> None:
    context = root / ".context"
    for path in list(context.rglob("*")) if context.exists() else []:
        if path.is_file():
            path.unlink()
    for name, text in files.items():
        target = (context / name).resolve() if name.startswith("../") else context / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode())
    if "../.ctxrc" not in files and (root / ".ctxrc").exists():
        (root / ".ctxrc").unlink()


def make_history(
    root: Path,
    *,
    commits: int = 20,
    seed: int = 0,
    tasks: int = 40,
    decisions: int = 12,
    learnings: int = 12,
    conventions: int = 10,
    steering: int = 2,
    before_context: bool = True,
) -> list[str]:
    """A repository at `root` with `commits` commits after the first; their hashes, oldest first.

    With `before_context`, the first commit has no `.context/` yet.
    """
    rng = random.Random(f"ctxtui-history:{seed}")
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    when = EPOCH
    hashes: list[str] = []

    def commit(message: str) -> None:
        stamp = f"{int(when.timestamp())} {rng.choice(OFFSETS)}"
        git(root, "add", "-A")
        git(root, "commit", "-q", "--allow-empty", "-m", message, date=stamp)
        hashes.append(git(root, "rev-parse", "HEAD", capture=True).strip())

    if before_context:
        (root / "README.md").write_text("a project\n")
        commit("start")
        when += timedelta(hours=5)
    files = build_workspace(
        tasks=tasks,
        conventions=conventions,
        decisions=decisions,
        learnings=learnings,
        steering=steering,
        seed=seed,
        now=when,
    )
    write_files(root, files)
    commit("ctx init and first notes")
    edits = Edits(rng, files, when)
    for _ in range(commits - 1):
        when += timedelta(hours=rng.choice((1, 3, 9, 26, 50, 170)))
        edits.now = when
        message = edits.step()
        write_files(root, files)
        commit(message)
    return hashes
