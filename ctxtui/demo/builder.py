"""Builds the demo project from the data files in `content/`.

The files say *what* the demo contains (prose, titles, ages, templates); this
module says *how* it becomes a `.context/` directory and a memory database:
the markdown layout ctx writes, dates relative to the caller's "now", and the
seeded draws that fill the memory templates. The same "now" always gives the
same bytes, files and database alike.

Content (read with `importlib.resources`, so it works from a wheel):

- `context/`: files copied into `.context/` as they are (constitution,
  conventions, architecture, glossary, steering).
- `tasks-header.md`, `tasks.toml`, `tasks-parked.md`: TASKS.md, with each
  task's `#added` stamp `days_ago` before "now".
- `decisions.toml`, `learnings.toml`: DECISIONS.md and LEARNINGS.md entries,
  newest first, each `days_ago` at a fixed `time` of day.
- `memories.toml`: the hand-written memories and the older ones they replaced.
- `memory_templates.toml`: components, word lists and per-component templates
  for the generated memories.
"""

from __future__ import annotations

import random
import shutil
import tomllib
from datetime import UTC, datetime, time, timedelta
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from ctxtui.demo.git_tree import commit_demo
from ctxtui.paths import demo_root

PROJECT = "acme-billing"
MARKER = ".ctxtui-demo"  # not *.md, so ctx never reads it; guards the delete in write_demo
MEMORY_SEED = 20261121  # with "now", fixes every draw: same "now", same database
CONTEXT_FILES = (
    "CONSTITUTION.md",
    "TASKS.md",
    "CONVENTIONS.md",
    "ARCHITECTURE.md",
    "DECISIONS.md",
    "LEARNINGS.md",
    "GLOSSARY.md",
)
STEERING_FILES = ("product.md", "tech.md", "release.md")
TASK_TIME = time(9, 15)  # every task's #added stamp is at this time of day
SUPERSEDED_FORMS = ("~~", "status")


# ---------------------------------------------------------------- reading the content


def _content(name: str) -> Traversable:
    node = resources.files(__package__).joinpath("content")
    for part in name.split("/"):
        node = node.joinpath(part)
    return node


@cache
def _text(name: str) -> str:
    return _content(name).read_text(encoding="utf-8")


@cache
def _data(name: str) -> dict[str, Any]:
    """A TOML content file, parsed once. Callers copy what they change."""
    return tomllib.loads(_text(name))


# ---------------------------------------------------------------- the .context/ files


def _at(now: datetime, days: int, at: time) -> datetime:
    """`days` before `now` at a fixed time of day, never after `now`."""
    day = now - timedelta(days=days)
    when = day.replace(hour=at.hour, minute=at.minute, second=at.second, microsecond=0)
    return min(when, now.replace(microsecond=0))


def _stamp(now: datetime, days: int, at: time) -> str:
    return _at(now, days, at).strftime("%Y-%m-%d-%H%M%S")


def _index(title: str, entries: list[dict], stamps: list[str]) -> list[str]:
    out = [f"# {title}s\n\n<!-- INDEX:START -->\n| Date | {title} |\n|----|--------|\n"]
    out.extend(f"| {stamp[:10]} | {entry['title']} |\n" for stamp, entry in zip(stamps, entries, strict=True))
    out.append("<!-- INDEX:END -->\n")
    return out


def _decisions(now: datetime) -> str:
    entries = _data("decisions.toml")["decision"]
    stamps = [_stamp(now, e["days_ago"], e["time"]) for e in entries]
    out = _index("Decision", entries, stamps)
    for i, entry in enumerate(entries):
        status_line, note = "Accepted", ""
        superseded = entry.get("superseded")
        if superseded:
            if superseded["form"] not in SUPERSEDED_FORMS:
                raise ValueError(
                    f"decisions.toml: superseded form {superseded['form']!r} is not one of {SUPERSEDED_FORMS}"
                )
            newer = next(j for j, other in enumerate(entries) if other["title"].startswith(superseded["by"]))
            by = f"Superseded by [{stamps[newer]}] {entries[newer]['title']}"
            status_line = "Superseded" if superseded["form"] == "~~" else by
            note = f"~~{by}~~\n\n" if superseded["form"] == "~~" else ""
        out.append(
            f"\n## [{stamps[i]}] {entry['title']}\n\n**Status**: {status_line}\n\n{note}"
            f"**Context**: {entry['context']}\n\n**Decision**: {entry['decision']}\n\n"
            f"**Rationale**: {entry['rationale']}\n\n**Consequence**: {entry['consequence']}\n"
        )
        if i + 1 < len(entries):
            out.append("\n---\n")
    return "".join(out)


def _learnings(now: datetime) -> str:
    entries = _data("learnings.toml")["learning"]
    stamps = [_stamp(now, e["days_ago"], e["time"]) for e in entries]
    out = _index("Learning", entries, stamps)
    for stamp, entry in zip(stamps, entries, strict=True):
        out.append(
            f"\n## [{stamp}] {entry['title']}\n\n**Context**: {entry['context']}\n\n"
            f"**Lesson**: {entry['lesson']}\n\n**Application**: {entry['application']}\n\n---\n"
        )
    return "".join(out)


def _tasks(now: datetime) -> str:
    data = _data("tasks.toml")
    out = [_text("tasks-header.md")]
    for phase in data["phase"]:
        out.append(f"\n## {phase['heading']}\n\n")
        for task in phase["tasks"]:
            indent = "  " if task.get("nested") else ""
            box = "x" if task["done"] else " "
            tail = f" {task['tags']}" if task.get("tags") else ""
            out.append(f"{indent}- [{box}] {task['text']}{tail} #added:{_stamp(now, task['days_ago'], TASK_TIME)}\n")
    parked = data["parked"]
    out.append(_text("tasks-parked.md").format(added=_stamp(now, parked["days_ago"], parked["time"])))
    return "".join(out)


def demo_files(now: datetime) -> dict[str, str]:
    """The demo's files as {path relative to .context: text}."""
    built = {"TASKS.md": _tasks, "DECISIONS.md": _decisions, "LEARNINGS.md": _learnings}
    files = {name: built[name](now) if name in built else _text(f"context/{name}") for name in CONTEXT_FILES}
    files.update({f"steering/{name}": _text(f"context/steering/{name}") for name in STEERING_FILES})
    return files


def write_demo(target: Path, now: datetime, *, notes: list[str] | None = None) -> Path:
    """Write the demo project to `target` (its `.context/` replaced, the memory
    database included, the files committed in a git working tree) and return `target`.

    An existing `.context/` is deleted only when an earlier `write_demo` made
    it (it carries a marker file), so pointing this at a real project fails
    instead of destroying it; the same holds for `.git` (`git_tree`). What
    could not be done (no git) is appended to `notes` as one line each.
    """
    target = Path(target)
    context = target / ".context"
    if context.exists():
        if not (context / MARKER).is_file():
            raise FileExistsError(f"{context} exists and is not a ctxtui demo; refusing to replace it")
        shutil.rmtree(context)
    (context / "steering").mkdir(parents=True)
    (context / MARKER).write_text(
        f"written by ctxtui for the {PROJECT} demo; rewritten on every launch\n", encoding="utf-8"
    )
    for name, text in demo_files(now).items():
        (context / name).write_bytes(text.encode("utf-8"))
    write_demo_memory_db(target, now)
    note = commit_demo(target, now)
    if note is not None and notes is not None:
        notes.append(note)
    return target


def prepare_demo(now: datetime) -> Path:
    """Rewrite the demo in `demo_root()` and return the project directory to open."""
    return write_demo(demo_root(), now)


def demo_memory_db_path(root: Path) -> Path:
    """Where the demo's memory database belongs: `root/.context/memory.db`.

    `write_demo` removes it with the rest of `.context/` on every launch and
    then writes it afresh (`write_demo_memory_db`).
    """
    return Path(root) / ".context" / "memory.db"


# ---------------------------------------------------------------- the demo memory database
#
# What an agent working on acme-billing would have remembered besides the
# markdown files: about 300 memories of every kind, in ctxtui's own schema, so
# the demo shows database memories ranked beside markdown entries. The seed
# makes the draws the same for the same "now"; every date is relative to "now".
# The order of the draws is part of the output: change it and every memory moves.


def demo_memories(now: datetime) -> list[dict]:
    """The demo's memories, as `schema.add_memories` takes them; the same for the same `now`."""
    handwritten, words = _data("memories.toml"), _data("memory_templates.toml")
    rng = random.Random(MEMORY_SEED)
    drafts: list[dict] = []

    def draft(kind, title, body, importance, tags, age=None, project=PROJECT) -> dict:
        memory = dict(
            kind=kind,
            title=title,
            body=body,
            importance=round(importance, 2),
            tags=list(tags),
            project=project,
            age=age if age is not None else min(420.0, rng.expovariate(1 / 70)),
        )
        drafts.append(memory)
        return memory

    for m in handwritten["memory"]:
        # A preference is the user's, not the project's: it belongs to no project.
        draft(
            m["kind"],
            m["title"],
            m["body"],
            m["importance"],
            m["tags"],
            project=None if m["kind"] == "preference" else PROJECT,
        )
    originals = list(drafts)
    for m in handwritten["superseded"]:
        replacement = next(r for r in originals if r["title"].startswith(m["newer"]))
        old = draft(
            m["kind"],
            m["title"],
            m["body"],
            max(0.1, replacement["importance"] - 0.2),
            replacement["tags"],
            age=replacement["age"] + rng.uniform(40, 200),
        )
        old["superseded_by"] = replacement

    people, slow_parts, warnings, weekdays = (words[k] for k in ("people", "slow_parts", "warnings", "weekdays"))
    for c in words["component"]:
        error, error2 = rng.sample(words["error"], 2)
        fix_a, fix_b = rng.sample(words["fix"], 2)
        a = rng.randrange(40, 400)
        slots = dict(
            Name=c["Name"],
            name=c["name"],
            module=c["module"],
            table=c["table"],
            metric=c["metric"],
            slug=c["slug"],
            person=rng.choice(people),
            n=rng.randrange(3, 60),
            a=a,
            b=a * rng.randrange(3, 12),
            pct=rng.randrange(3, 25),
            rows=rng.randrange(2, 480),
            wait=rng.choice(slow_parts).format(table=c["table"]),
            warning=rng.choice(warnings),
            weekday=rng.choice(weekdays),
            exc=error["exception"],
            message=error["message"],
            why=error["why"],
            exc2=error2["exception"],
            message2=error2["message"],
            why2=error2["why"],
            fix_title=fix_a["title"],
            symptom=fix_a["symptom"],
            cause=fix_a["cause"],
            fix=fix_a["fix"],
            issue=rng.randrange(200, 990),
            fix_title2=fix_b["title"],
            symptom2=fix_b["symptom"],
            cause2=fix_b["cause"],
            fix2=fix_b["fix"],
            issue2=rng.randrange(200, 990),
        )
        for t in words["template"]:
            if rng.random() >= t["likely"]:
                continue  # not every component has a memory of every sort
            importance = rng.betavariate(2, 2.5) + (0.15 if t["kind"] in ("decision", "procedure") else 0)
            draft(t["kind"], t["title"].format(**slots), t["body"].format(**slots), min(1.0, importance), c["tags"])

    # The oldest observations are archived; one decision is still a proposal (pending).
    observations = sorted((m for m in drafts if m["kind"] == "observation"), key=lambda m: -m["age"])
    for memory in observations[:8]:
        memory["status"] = "archived"
    for memory in drafts:
        if memory["title"].endswith("(proposed)"):
            memory["status"] = "pending"

    memories = []
    ids = {id(m): f"demo-{n:03d}" for n, m in enumerate(drafts, start=1)}
    for memory in drafts:
        created = (now - timedelta(days=memory["age"])).replace(microsecond=0)
        if memory.get("superseded_by") is not None:
            memory["status"] = "superseded"
        events = _demo_events(rng, created, now)
        memories.append(
            dict(
                id=ids[id(memory)],
                kind=memory["kind"],
                title=memory["title"],
                body=memory["body"],
                tags=memory["tags"],
                project=memory["project"],
                importance=memory["importance"],
                status=memory.get("status", "active"),
                superseded_by=ids[id(memory["superseded_by"])] if memory.get("superseded_by") else None,
                created_at=_utc(created),
                updated_at=_utc(created),
                last_accessed=_utc(max(at for at, _ in events)) if events else None,
                events=[(_utc(at), event, f"demo-session-{at:%m%d}") for at, event in events],
            )
        )
    return memories


def _demo_events(rng: random.Random, created: datetime, now: datetime) -> list[tuple[datetime, str]]:
    """Usage for about half the memories: some always used when retrieved, some never."""
    if rng.random() < 0.5:
        return []
    usefulness = rng.choice((0.0, 0.2, 0.5, 0.8, 1.0))
    span = max(60.0, (now - created).total_seconds())
    events = []
    for _ in range(rng.randint(1, 9)):
        at = min(now, created + timedelta(seconds=rng.uniform(0, span))).replace(microsecond=0)
        events.append((at, "retrieved"))
        if rng.random() < 0.5:
            events.append((at + timedelta(seconds=1), "included"))
        if rng.random() < usefulness:
            events.append((at + timedelta(seconds=2), "referenced"))
    return sorted(set(events))


def _utc(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_demo_memory_db(root: Path, now: datetime) -> Path:
    """Create the demo's `.context/memory.db` (ctxtui's schema) and return its path.

    Called by `write_demo` after `.context/` is written; refuses to touch an
    existing file, as `write_demo` has just removed the old one.
    """
    from ctxtui.engine.sources.memory.native.schema import add_memories

    path = demo_memory_db_path(root)
    if path.exists():
        raise FileExistsError(f"{path} exists; the demo database is only written fresh")
    add_memories(path, demo_memories(now))
    return path
