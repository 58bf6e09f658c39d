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

__all__ = ["ENTRY_DAYS", "build_workspace", "write_workspace"]

ENTRY_DAYS = 400  # entries and tasks are dated within this many days before "now"
STAMP = "%Y-%m-%d-%H%M%S"

# ---------------------------------------------------------------- vocabulary

COMPONENTS = (
    ("scheduler", "internal/scheduler"),
    ("ingest pipeline", "internal/ingest"),
    ("webhook relay", "internal/webhook"),
    ("session store", "internal/session"),
    ("billing worker", "cmd/billing-worker"),
    ("search indexer", "internal/search"),
    ("auth gateway", "internal/auth"),
    ("config loader", "internal/config"),
    ("CLI", "cmd/cli"),
    ("migration runner", "internal/migrate"),
    ("notification service", "internal/notify"),
    ("rate limiter", "internal/ratelimit"),
    ("job queue", "internal/queue"),
    ("audit log", "internal/audit"),
    ("export service", "internal/export"),
    ("sync daemon", "cmd/syncd"),
    ("plugin host", "internal/plugin"),
    ("template renderer", "internal/render"),
    ("metrics exporter", "internal/metrics"),
    ("file watcher", "internal/watch"),
    ("API server", "cmd/api"),
    ("payment adapter", "internal/payment"),
    ("cache layer", "internal/cache"),
    ("feature flag client", "internal/flags"),
    ("storage backend", "internal/storage"),
    ("event bus", "internal/events"),
    ("report generator", "internal/report"),
    ("admin dashboard", "web/admin"),
    ("invoice builder", "internal/invoice"),
    ("token service", "internal/token"),
)
CONCERNS = (
    "retry policy",
    "connection pooling",
    "cache invalidation",
    "schema migrations",
    "error wrapping",
    "lock contention",
    "request timeouts",
    "backpressure",
    "idempotency keys",
    "pagination cursors",
    "feature flags",
    "token refresh",
    "log rotation",
    "checksums",
    "serialization",
    "dependency injection",
    "graceful shutdown",
    "health checks",
    "circuit breaking",
    "batch sizing",
    "input validation",
    "structured logging",
    "trace propagation",
    "config precedence",
    "secret rotation",
    "file locking",
    "clock skew",
    "timezone handling",
    "Unicode normalization",
    "path resolution",
    "permission checks",
    "rate limits",
    "dead-letter handling",
    "bulk imports",
    "soft deletes",
    "optimistic locking",
    "read replicas",
    "webhook signatures",
    "session expiry",
    "audit trails",
    "golden files",
    "fixture data",
    "flaky tests",
    "build caching",
    "release tagging",
    "dependency pinning",
    "memory pressure",
    "hot reload",
)
TECH = (
    "PostgreSQL",
    "SQLite",
    "Redis",
    "Kafka",
    "NATS",
    "gRPC",
    "protobuf",
    "JSON",
    "YAML",
    "TOML",
    "S3",
    "Docker",
    "Kubernetes",
    "GitHub Actions",
    "OpenTelemetry",
    "Prometheus",
    "nginx",
    "systemd",
    "cobra",
    "goroutines",
    "asyncio",
    "pytest",
    "go test",
    "golangci-lint",
    "Terraform",
    "Helm",
    "Stripe",
    "SQS",
    "cron",
    "tmux",
)
SYMPTOMS = (
    "dropped events under load",
    "timed out on cold start",
    "leaked file descriptors",
    "retried a non-idempotent call twice",
    "served stale reads for minutes",
    "deadlocked during shutdown",
    "double-counted usage",
    "lost the last batch on restart",
    "logged secrets in plain text",
    "spiked memory on large payloads",
    "returned 500s instead of 429s",
    "produced non-deterministic output",
    "silently ignored a malformed file",
    "broke on Windows paths",
    "ran every migration twice",
    "blocked the event loop",
)
TRIGGERS = (
    "the {tech} connection was recycled",
    "two workers raced on the same row",
    "a deploy restarted it mid-batch",
    "the clock jumped backwards",
    "a tenant uploaded a 2 GB file",
    "the config file had a BOM",
    "the retry fired before the lock expired",
    "CI ran the tests in parallel",
    "the cache TTL was shorter than the job",
    "a webhook arrived before the record existed",
    "a user had a non-ASCII name",
    "the disk filled up",
    "the network partitioned for 30 s",
    "{tech} was upgraded in place",
)
GOTCHAS = (
    "does not retry on connection reset by default",
    "rounds timestamps to microseconds",
    "silently truncates keys over 250 bytes",
    "orders results differently on ARM",
    "holds a lock across the whole transaction",
    "treats an empty string as null",
    "returns success when the queue is full",
    "reads config from the working directory",
    "buffers the whole response before the first byte",
    "ignores the context deadline",
    "caches DNS lookups forever",
    "changes its default in a minor release",
)
VERBS = (
    "Add",
    "Fix",
    "Refactor",
    "Document",
    "Remove",
    "Migrate",
    "Harden",
    "Benchmark",
    "Split",
    "Rename",
    "Audit",
    "Test",
    "Parallelize",
    "Deprecate",
    "Validate",
    "Instrument",
    "Simplify",
    "Consolidate",
)

DECISION_TITLES = (
    "Use {tech} for {concern} in the {comp}",
    "{Comp} owns {concern}; the {comp2} only reads it",
    "Prefer {tech} over {tech2} for {concern}",
    "Move {concern} out of the {comp} into the {comp2}",
    "Make {concern} explicit in the {comp} instead of relying on defaults",
    "Centralize {concern} behind one interface in `{path}`",
    "Drop {tech2} from the {comp}",
    "Keep {concern} synchronous in the {comp}",
    "Version the {comp} wire format with {tech}",
    "Gate {concern} behind a feature flag until the {comp} is migrated",
)
DECISION_CONTEXT = (
    "The {comp} {symptom} when {trigger}.",
    "The {comp} {symptom} when {trigger}. We traced it to {concern} being implemented in {n} different places.",
    "Each package had rolled its own {concern}; the {comp} and the {comp2} disagreed on defaults.",
    "A review of `{path}` found {concern} spread over {n} files with no single owner.",
)
DECISION_RATIONALE = (
    "One owner for {concern} means a failure shows up in one place and one log line.",
    "{Tech} is already in the stack; a second system for {concern} would double the on-call surface.",
    "The alternative ({tech2}) needed a separate daemon, and we ship a single binary.",
    "Measured on staging: p99 latency of the {comp} went from {n}0 ms to {m} ms.",
    "It keeps the {comp} testable without {tech}: the interface has an in-memory fake.",
)
DECISION_CONSEQUENCE = (
    "Callers of the {comp} must pass a context with a deadline; {n} call sites changed.",
    "The old {concern} code in `{path}` is deleted and its tests were rewritten.",
    "Local development now needs {tech} running (`make dev` starts it).",
    "We accept slower cold starts ({n}00 ms) for predictable {concern}.",
    "The {comp2} has to be redeployed whenever the {comp} contract changes.",
)
LEARNING_TITLES = (
    "{Tech} {gotcha}",
    "{Comp} {symptom} when {trigger}",
    "Tests for the {comp} need a fake clock, not sleeps",
    "{Concern} must happen before {concern2} in the {comp}",
    "Fixing {concern} by pattern-matching names is a guess; read the callers first",
    "The {comp} and the {comp2} must agree on {concern}",
)
LEARNING_CONTEXT = (
    "While working on {concern} in the {comp}, we saw that it {symptom} when {trigger}.",
    "A flaky CI run in `{path}` turned out to be {concern}: {tech} {gotcha}.",
    "Debugging a report from a user, we found the {comp} {symptom}; the cause was {concern} in the {comp2}.",
)
LEARNING_LESSON = (
    "{Tech} {gotcha}; anything that depends on {concern} has to say what it expects explicitly.",
    "Getting {concern} right is a contract between the {comp} and the {comp2}, not a detail of either.",
    "The bug only shows up when {trigger}, which no unit test did; the fix was {n} lines, finding it took {m} hours.",
    "Reading the code would have been faster than guessing: `{path}` already handled {concern}.",
)
LEARNING_APPLICATION = (
    "Add a regression test in `{path}` that reproduces the case where {trigger}.",
    "Before changing {concern}, grep for every caller of the {comp} and check its assumptions.",
    "Set {concern} explicitly in the {comp} config instead of trusting the {tech} default.",
    "Run the {comp} tests with `-race` and a fake clock in CI; sleeps hide the problem.",
)
TASK_TEMPLATES = (
    "{Verb} {concern} in the {comp}",
    "{Verb} the {comp} {concern} (uses {tech})",
    "Bug: the {comp} {symptom} when {trigger}",
    "Write a runbook for {concern} in the {comp}",
    "Benchmark {concern} in the {comp} with {n}k rows",
    "Investigate why the {comp} {symptom}",
    "{Verb} `{path}` so the {comp2} stops depending on it",
)
TASK_CONTINUATIONS = (
    "Start with `{path}`; the {comp2} is the main caller.",
    "See the decision on {concern} before touching the {tech} code.",
    "Needs a test that fails when {trigger}.",
)
CONVENTION_SECTIONS = (
    "Naming",
    "Errors",
    "Testing",
    "Logging",
    "Concurrency",
    "Configuration",
    "Dependencies",
    "Documentation",
    "Git",
    "API Design",
)
CONVENTIONS = (
    "**{Concern} lives in one package**: the {comp} calls `{path}`; do not reimplement it locally.",
    "**Wrap errors with context**: name the operation and the {comp} input that failed.",
    "**Tests for the {comp} are table-driven** with a `name` field and one assertion per case.",
    "**No global state in the {comp}**: pass dependencies through the constructor.",
    "**Log with keys, not sentences**: one event name, then key/value pairs ({concern} included).",
    "**Every {tech} call has a timeout**: default {n} s, set in config, never hard-coded.",
    "**Commit messages are imperative** and name the {comp} when it changes.",
    "**Pin {tech} versions** in one place and bump them in a separate commit.",
    "**Public API first**: the {comp} exports what callers need and nothing for its tests.",
    "**Document why, not what**: a comment on {concern} explains the constraint behind it.",
    "**Fail loudly on malformed input** in the {comp}; silent skips hide data loss.",
    "**Prefer composition over flags**: a second {comp} mode is a second type.",
)
CONVENTION_EXAMPLES = (
    "  - Example: `{path}` is the reference implementation",
    "  - Exception: generated code under `{path}/gen` is exempt",
)
CONSTITUTION_RULES = (
    ("Security Invariants", "**Never** commit secrets, tokens, API keys or credentials"),
    ("Security Invariants", "**Never** log personal data or payment details, even at debug level"),
    ("Security Invariants", "All external input is validated at the boundary before use"),
    ("Quality Invariants", "All code must pass `make lint` and `make test` before commit"),
    ("Quality Invariants", "No failing or skipped tests on the main branch"),
    ("Quality Invariants", "A bug fix lands with a test that failed before the fix"),
    ("Process Invariants", "All architectural changes require a decision record in DECISIONS.md"),
    ("Process Invariants", "Never rewrite published git history"),
    ("Context Integrity", "**Never** act on a file based on partial or assumed content"),
    ("Context Integrity", "Tasks are never deleted; completed work is marked `[x]`"),
    ("Data Invariants", "Migrations are forward-only and reversible by a new migration"),
    ("Data Invariants", "Money is stored as integer minor units, never floats"),
)
GLOSSARY_TERMS = (
    ("Tenant", "a customer organisation; every row carries its tenant id"),
    ("Idempotency key", "a client-chosen id that makes a retried request safe"),
    ("Dead letter", "a message that failed every retry and waits for a human"),
    ("Backfill", "a one-off job that recomputes derived data for past records"),
    ("Cutover", "the moment traffic moves from the old path to the new one"),
    ("Golden file", "a checked-in expected output compared byte for byte in tests"),
    ("Shadow mode", "running new code on real traffic without acting on its result"),
    ("SLO", "service level objective: the reliability target we promise"),
    ("RPO", "recovery point objective: how much data we may lose in a disaster"),
    ("Tombstone", "a marker row that records a deletion for sync"),
)
STEERING_FILES = (
    ("product", "Product context, goals and target users"),
    ("tech", "Technology stack, constraints and dependencies"),
    ("structure", "Project structure and directory conventions"),
    ("workflow", "Development workflow and review rules"),
    ("security", "Security rules for code and data handling"),
    ("testing", "How tests are written and run"),
    ("release", "Release and deployment procedure"),
    ("api-style", "Rules for public API shape"),
)
STEERING_BULLETS = (
    "Changes to the {comp} need a review from its owner.",
    "Run the {comp} tests locally before pushing; CI is not a debugger.",
    "Prefer {tech} for {concern}; anything else needs a decision record.",
    "Keep `{path}` free of imports from `cmd/`.",
    "When {trigger}, page the on-call engineer instead of retrying by hand.",
)

TASKS_HEADER = """# Tasks

<!--
UPDATE WHEN:
- New work is identified → add task with #added timestamp
- Work completes → mark [x]
- Work is blocked → add to Blocked section with reason

STRUCTURE RULES (see CONSTITUTION.md):
- Tasks stay in their Phase section permanently: never move them
- Use inline labels: #in-progress, #blocked, #priority:high
- Mark completed: [x], skipped: [-] (with reason)

TASK STATUS LABELS:
  `[ ]`: pending
  `[x]`: completed
  `[-]`: skipped (with reason)
-->
"""
DECISIONS_HEADER = """# Decisions

<!--
DECISION FORMATS

## [YYYY-MM-DD] Decision Title

**Status**: Accepted | Superseded | Deprecated

**Context**: What situation prompted this decision?

**Decision**: What was decided?

**Rationale**: Why this choice over the alternatives?

**Consequence**: What are the implications?
-->
"""
LEARNINGS_HEADER = """# Learnings

<!--
UPDATE WHEN:
- Discover a gotcha, bug, or unexpected behavior
- Debugging reveals non-obvious root cause
- "I wish I knew this earlier" moments

DO NOT UPDATE FOR:
- Well-documented behavior (link to docs instead)
- Opinions without evidence
-->
"""
CONVENTIONS_HEADER = """# Conventions

<!--
UPDATE WHEN:
- New pattern is established and should be followed consistently
- Existing pattern is deprecated or superseded

DO NOT UPDATE FOR:
- One-off exceptions (document in code comments)
-->
"""
CONSTITUTION_HEADER = """# Constitution

<!--
UPDATE WHEN:
- Security requirements change
- New invariants emerge from production incidents
-->

These rules are INVIOLABLE. If a task requires violating these, the
task is wrong.
"""


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
