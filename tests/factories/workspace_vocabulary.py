"""The words and headings of the synthetic workspaces: what `workspace` fills its templates from.

Kept apart from the generator: this is content (an engineering vocabulary
shared by tasks and entries, so that keyword relevance picks real winners,
and the headings and template comments `ctx init` writes), the generator is
the code that draws from it.
"""

from __future__ import annotations

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
