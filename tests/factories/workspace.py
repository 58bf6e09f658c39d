"""Synthetic `.context/` workspaces of any size, in ctx's real file formats.

Benchmarks and property tests need workspaces far larger than any real one
(10k decisions and learnings, thousands of tasks) that still look like what
`ctx` writes: the same headings, entry headers, tags and template comments, and
an engineering vocabulary shared between tasks and entries, so that keyword
relevance picks real winners. Output is a pure function of the arguments: the
same seed and "now" give the same bytes, and each file has its own random
stream, so asking for more learnings does not change the decisions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from tests.factories.workspace_vocabulary import (
    COMPONENTS,
    CONCERNS,
    CONSTITUTION_HEADER,
    CONSTITUTION_RULES,
    CONVENTION_EXAMPLES,
    CONVENTION_SECTIONS,
    CONVENTIONS,
    CONVENTIONS_HEADER,
    DECISION_CONSEQUENCE,
    DECISION_CONTEXT,
    DECISION_RATIONALE,
    DECISION_TITLES,
    DECISIONS_HEADER,
    GLOSSARY_TERMS,
    GOTCHAS,
    LEARNING_APPLICATION,
    LEARNING_CONTEXT,
    LEARNING_LESSON,
    LEARNING_TITLES,
    LEARNINGS_HEADER,
    STEERING_BULLETS,
    STEERING_FILES,
    SYMPTOMS,
    TASK_CONTINUATIONS,
    TASK_TEMPLATES,
    TASKS_HEADER,
    TECH,
    TRIGGERS,
    VERBS,
)

__all__ = ["ENTRY_DAYS", "build_workspace", "write_workspace"]

ENTRY_DAYS = 400  # entries and tasks are dated within this many days before "now"
STAMP = "%Y-%m-%d-%H%M%S"

# ---------------------------------------------------------------- filling templates


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _title(text: str) -> str:
    return " ".join(_cap(word) for word in text.split())


class _Slots(dict):
    """One entry's vocabulary: `{comp}`, `{Comp}` (capitalised), `{concern}`, ... stay
    consistent across every sentence of the entry, so it reads as one story."""

    def __missing__(self, key: str) -> str:
        if key[:1].isupper():
            value = _cap(self[key.lower()])
            self[key] = value
            return value
        raise KeyError(key)


def _slots(rng: random.Random) -> _Slots:
    choice = rng.choice
    comp, path = choice(COMPONENTS)
    comp2 = choice(COMPONENTS)[0]
    tech = choice(TECH)
    slots = _Slots(
        comp=comp,
        comp2=comp2 if comp2 != comp else "API server",
        path=path,
        concern=choice(CONCERNS),
        concern2=choice(CONCERNS),
        tech=tech,
        tech2=choice(TECH),
        symptom=choice(SYMPTOMS),
        gotcha=choice(GOTCHAS),
        verb=choice(VERBS).lower(),
        n=str(rng.randint(2, 40)),
        m=str(rng.randint(5, 90)),
    )
    slots["trigger"] = choice(TRIGGERS).format_map(slots)
    return slots


def _fill(rng: random.Random, templates: tuple[str, ...], slots: _Slots) -> str:
    return rng.choice(templates).format_map(slots)


def _stamps(rng: random.Random, count: int, now: datetime, days: int = ENTRY_DAYS) -> list[str]:
    """`count` timestamps before `now`, newest first, denser near `now` (as real files are),
    so every recency bracket (≤7, ≤30, ≤90 days, older) is populated."""
    span = days * 86400
    offsets = sorted(int(span * rng.random() ** 1.7) for _ in range(count))
    return [(now - timedelta(seconds=s)).strftime(STAMP) for s in offsets]


# ---------------------------------------------------------------- files


def _decisions(rng: random.Random, count: int, now: datetime, quirks: bool) -> str:
    stamps = _stamps(rng, count, now)
    slots_list = [_slots(rng) for _ in range(count)]
    titles = [_fill(rng, DECISION_TITLES, s) for s in slots_list]
    superseded = _superseded_indexes(rng, count)
    undetected = _quirk_index(rng, count, superseded) if quirks else -1
    h3 = _quirk_index(rng, count, superseded | {undetected}) if quirks else -1
    out = [DECISIONS_HEADER, "\n<!-- INDEX:START -->\n| Date | Decision |\n|----|--------|\n"]
    out.extend(f"| {stamps[i][:10]} | {titles[i]} |\n" for i in range(count))
    out.append("<!-- INDEX:END -->\n")
    for i in range(count):
        s = slots_list[i]
        # The undetected one says so only in its status line, which ctx does not read.
        status = "Superseded" if i == undetected or i in superseded else "Accepted"
        out.append(f"\n{'###' if i == h3 else '##'} [{stamps[i]}] {titles[i]}\n\n**Status**: {status}\n\n")
        if i in superseded:
            newer = rng.randrange(i)
            out.append(f"~~Superseded by [{stamps[newer]}] {titles[newer]}~~\n\n")
        out.append(
            f"**Context**: {_fill(rng, DECISION_CONTEXT, s)}\n\n"
            f"**Decision**: {titles[i]}.\n\n"
            f"**Rationale**: {_fill(rng, DECISION_RATIONALE, s)}\n\n"
            f"**Consequence**: {_fill(rng, DECISION_CONSEQUENCE, s)}\n"
        )
        if i + 1 < count:
            out.append("\n---\n")
    return "".join(out)


def _learnings(rng: random.Random, count: int, now: datetime, quirks: bool) -> str:
    stamps = _stamps(rng, count, now)
    superseded = _superseded_indexes(rng, count)
    out = [LEARNINGS_HEADER, "\n<!-- INDEX:START -->\n| Date | Learning |\n|----|--------|\n"]
    entries = []
    for i in range(count):
        s = _slots(rng)
        title = _fill(rng, LEARNING_TITLES, s)
        out.append(f"| {stamps[i][:10]} | {title} |\n")
        note = ""
        if i in superseded:
            note = f"~~Superseded: {s['concern']} is now handled by the {s['comp2']}~~\n\n"
        entries.append(
            f"\n## [{stamps[i]}] {title}\n\n{note}"
            f"**Context**: {_fill(rng, LEARNING_CONTEXT, s)}\n\n"
            f"**Lesson**: {_fill(rng, LEARNING_LESSON, s)}\n\n"
            f"**Application**: {_fill(rng, LEARNING_APPLICATION, s)}\n\n---\n"
        )
    out.append("<!-- INDEX:END -->\n")
    out.extend(entries)
    return "".join(out)


def _superseded_indexes(rng: random.Random, count: int) -> set[int]:
    """About 3% of entries, never the newest (it has nothing newer to point to)."""
    if count < 2:
        return set()
    return set(rng.sample(range(1, count), max(1, count * 3 // 100)))


def _quirk_index(rng: random.Random, count: int, taken: set[int]) -> int:
    """An entry not already used for another quirk, or -1 when there is none."""
    if count < 64:  # small files: taken may cover everything
        free = [i for i in range(count) if i not in taken]
        return rng.choice(free) if free else -1
    while True:  # taken is a few percent of a large file
        i = rng.randrange(count)
        if i not in taken:
            return i


@dataclass(slots=True)
class _Task:
    text: str
    done: bool
    depth: int = 0
    continuation: str = ""


def _task(rng: random.Random, stamp: str, done_ratio: float, depth: int = 0) -> _Task:
    s = _slots(rng)
    text = _fill(rng, TASK_TEMPLATES, s)
    tags = []
    roll = rng.random()
    if roll < 0.5:
        tags.append(f"#priority:{rng.choice(('high', 'medium', 'low'))}")
    done = rng.random() < done_ratio
    if not done and roll > 0.95:
        tags.append("#in-progress")
    tags.append(f"#added:{stamp}")
    continuation = ""
    if depth == 0 and rng.random() < 0.25:
        # ctx keeps only a task's first line, so tags on a continuation are invisible to it.
        continuation = f"{_fill(rng, TASK_CONTINUATIONS, s)} {' '.join(tags)}"
    else:
        text = f"{text} {' '.join(tags)}"
    return _Task(text, done, depth, continuation)


def _task_line(t: _Task) -> str:
    indent = "  " * t.depth
    line = f"{indent}- [{'x' if t.done else ' '}] {t.text}\n"
    if t.continuation:
        line += f"{indent}  {t.continuation}\n"
    return line


def _tasks(rng: random.Random, count: int, now: datetime, quirks: bool) -> str:
    """`count` lines that ctx's task pattern matches, in phases; about a third done."""
    hidden = 3 if quirks and count >= 10 else 0
    stamps = _stamps(rng, count, now)[::-1]  # file order is oldest first
    out = [TASKS_HEADER]
    written, phase = 0, 0
    visible = count - hidden
    while written < visible:
        phase += 1
        size = min(visible - written, rng.randint(6, 30))
        s = _slots(rng)
        out.append(f"\n## Phase {phase}: {_title(s['comp'])} {_title(s['concern'])}\n\n")
        # Older phases are mostly finished, as in a real project.
        done_ratio = 0.7 if written < visible * 0.3 else 0.25 if written < visible * 0.7 else 0.05
        in_phase = 0
        while in_phase < size:
            out.append(_task_line(_task(rng, stamps[written + in_phase], done_ratio)))
            in_phase += 1
            while in_phase < size and rng.random() < 0.2:
                out.append(_task_line(_task(rng, stamps[written + in_phase], done_ratio, depth=1)))
                in_phase += 1
        written += size
        if quirks and phase == 2:
            out.append(f"- [-] {_fill(rng, TASK_TEMPLATES, _slots(rng))} (skipped: superseded by phase 3)\n")
            out.append(f"- [X] {_fill(rng, TASK_TEMPLATES, _slots(rng))}\n")
    if hidden:
        s = _slots(rng)
        out.append(
            f"\n## Parked\n\n<!-- Parked until the {s['comp']} rewrite lands:\n"
            f"- [ ] {_fill(rng, TASK_TEMPLATES, s)} #added:{stamps[0]}\n"
            f"- [ ] {_fill(rng, TASK_TEMPLATES, _slots(rng))} #added:{stamps[0]}\n-->\n"
            "\n## How to Add a Task\n\n```markdown\n"
            f"- [ ] Describe the outcome, not the steps #added:{stamps[-1]}\n```\n"
        )
    return "".join(out)


def _conventions(rng: random.Random, count: int, quirks: bool) -> str:
    """`count` top-level `- **...**` bullets under section headings."""
    out = [CONVENTIONS_HEADER if quirks else "# Conventions\n"]
    written, section = 0, 0
    while written < count:
        size = min(count - written, rng.randint(3, 9))
        if quirks and section:
            out.append("\n---\n")
        out.append(f"\n## {CONVENTION_SECTIONS[section % len(CONVENTION_SECTIONS)]}\n\n")
        for template in rng.sample(CONVENTIONS, size):
            s = _slots(rng)
            out.append(f"- {template.format_map(s)}\n")
            if rng.random() < 0.2:
                out.append(f"{_fill(rng, CONVENTION_EXAMPLES, s)}\n")
        written += size
        section += 1
    return "".join(out)


def _constitution(rng: random.Random) -> str:
    rules = sorted(rng.sample(range(len(CONSTITUTION_RULES)), 8))
    out = [CONSTITUTION_HEADER]
    section = None
    for i in rules:
        heading, rule = CONSTITUTION_RULES[i]
        if heading != section:
            out.append(f"\n## {heading}\n\n")
            section = heading
        out.append(f"- [ ] {rule}\n")
    return "".join(out)


def _architecture(rng: random.Random, project: str) -> str:
    comps = rng.sample(COMPONENTS, 8)
    out = [
        "# Architecture\n\n## Overview\n\n",
        f"{project} is a Go service with a worker fleet. Requests enter through the "
        f"{comps[0][0]} and fan out over the {comps[1][0]}; everything durable lives in PostgreSQL.\n\n",
        "## Components\n\n",
    ]
    out.extend(f"- **{_cap(name)}** (`{path}`): owns {rng.choice(CONCERNS)}\n" for name, path in comps)
    out.append("\n## Data Flow\n\n```mermaid\ngraph TD\n")
    out.extend(f"    {comps[i][1].rsplit('/', 1)[-1]} --> {comps[i + 1][1].rsplit('/', 1)[-1]}\n" for i in range(7))
    out.append("```\n")
    return "".join(out)


def _glossary(rng: random.Random) -> str:
    terms = sorted(rng.sample(GLOSSARY_TERMS, 6))
    return "# Glossary\n\n## Domain Terms\n\n" + "".join(f"- **{t}**: {d}\n" for t, d in terms)


def _steering(rng: random.Random, count: int) -> dict[str, str]:
    files = {}
    for i in range(count):
        base, description = STEERING_FILES[i % len(STEERING_FILES)]
        name = base if i < len(STEERING_FILES) else f"{base}-{i // len(STEERING_FILES) + 1}"
        inclusion = "manual" if i % 3 == 2 else "always"
        priority = "" if i == 3 else f"priority: {10 * (1 + i % 3)}\n"  # missing → ctx uses 50
        bullets = rng.sample(STEERING_BULLETS, rng.randint(3, len(STEERING_BULLETS)))
        body = "".join(f"- {template.format_map(_slots(rng))}\n" for template in bullets)
        files[f"steering/{name}.md"] = (
            f"---\nname: {name}\ndescription: {description}\ninclusion: {inclusion}\n{priority}---\n\n"
            f"# {_cap(name.replace('-', ' '))}\n\n{body}"
        )
    return files


def build_workspace(
    *,
    tasks: int = 200,
    conventions: int = 40,
    decisions: int = 100,
    learnings: int = 150,
    steering: int = 4,
    seed: int = 0,
    now: datetime,
    with_quirks: bool = True,
) -> dict[str, str]:
    """The files of a synthetic `.context/`, as {relative path: text}; nothing is written.

    `tasks` counts lines ctx reads as tasks (pending and done); `conventions`
    counts authored `- **...**` bullets (template and `---` lines come on top
    when `with_quirks`); `decisions`/`learnings` count entry headers.
    """

    def stream(name: str) -> random.Random:
        return random.Random(f"ctxtui-synth:{seed}:{name}")

    project = f"{stream('project').choice(('acme', 'orbit', 'lumen', 'quarry'))}-service"
    files = {
        "CONSTITUTION.md": _constitution(stream("constitution")),
        "TASKS.md": _tasks(stream("tasks"), tasks, now, with_quirks),
        "CONVENTIONS.md": _conventions(stream("conventions"), conventions, with_quirks),
        "ARCHITECTURE.md": _architecture(stream("architecture"), project),
        "DECISIONS.md": _decisions(stream("decisions"), decisions, now, with_quirks),
        "LEARNINGS.md": _learnings(stream("learnings"), learnings, now, with_quirks),
        "GLOSSARY.md": _glossary(stream("glossary")),
    }
    files.update(_steering(stream("steering"), steering))
    return files


def write_workspace(
    root: Path,
    *,
    tasks: int = 200,
    conventions: int = 40,
    decisions: int = 100,
    learnings: int = 150,
    steering: int = 4,
    seed: int = 0,
    now: datetime,
    with_quirks: bool = True,
) -> Path:
    """Write a synthetic workspace to `root/.context/` and return `root` (the project).

    Existing files of the same names are overwritten; others are left alone.
    Files are written as bytes so the output is identical on every platform.
    """
    files = build_workspace(
        tasks=tasks,
        conventions=conventions,
        decisions=decisions,
        learnings=learnings,
        steering=steering,
        seed=seed,
        now=now,
        with_quirks=with_quirks,
    )
    context = Path(root) / ".context"
    (context / "steering").mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (context / name).write_bytes(text.encode("utf-8"))
    return Path(root)
