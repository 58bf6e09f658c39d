"""Vocabulary for the synthetic memory builder: software-work nouns and sentence templates.

Kept apart from `synth.py` so the builder's logic reads on one screen.
Slots in braces are filled from the lists of the same name.
"""

component = [
    "the auth service", "the billing worker", "the CI pipeline", "the search indexer", "the payment webhook",
    "the migration runner", "the cache layer", "the GraphQL gateway", "the job scheduler", "the feature-flag client",
    "the CLI", "the session store", "the rate limiter", "the logging pipeline", "the mobile sync API",
    "the image resizer", "the export job", "the notification fan-out", "the admin dashboard", "the config loader",
]
tool = [
    "Postgres", "Redis", "SQLite", "Kafka", "nginx", "Docker", "Terraform", "pytest", "mypy", "ruff",
    "GitHub Actions", "Sentry", "OpenTelemetry", "gRPC", "React", "Celery", "uv", "tmux", "Textual", "tiktoken",
]
symptom = [
    "intermittent timeouts", "a slow memory leak", "flaky tests", "stale reads", "duplicate events",
    "slow cold starts", "a deadlock under load", "502s during deploys", "clock skew between hosts",
    "off-by-one pagination", "lost writes on retry", "runaway log volume", "a full disk on the runners",
]
cause = [
    "a missing index", "an unbounded retry loop", "a shared mutable default", "connection pool exhaustion",
    "a race between two workers", "a timezone-naive timestamp", "an N+1 query", "a cache key without the tenant id",
    "a 30 s default timeout", "a stale lockfile", "a swallowed exception", "TLS session reuse being off",
]
practice = [
    "trunk-based development", "structured logging", "contract tests for the public API", "idempotency keys",
    "a weekly dependency bump", "feature flags for risky changes", "blue-green deploys", "property-based tests",
    "one migration per pull request", "read replicas for reports", "explicit timeouts on every client",
]
tag = [
    "db", "perf", "ci", "testing", "security", "deploy", "api", "ux", "infra", "cache", "observability",
    "python", "go", "typescript", "migration", "billing", "auth", "tui", "tokens", "docs",
]
project = ["ctxtui", "billing", "infra", "mobile"]

titles = {
    "decision": [
        "Use {tool} for {component}", "Adopt {practice}", "Keep {component} behind a feature flag",
        "Move {component} from {tool} to {tool2}", "Require {practice} for {component}",
    ],
    "learning": [
        "{tool} hides {symptom} unless you look", "{symptom} in {component} came from {cause}",
        "Measure {component} before tuning it", "{tool} defaults are wrong for {component}",
    ],
    "fix": ["Fix {symptom} in {component}", "Patch {cause} in {component}", "Retry budget for {component}"],
    "error": ["{symptom} when {component} restarts", "{tool} fails on {cause}", "Crash in {component} on empty input"],
    "fact": [
        "{component} runs on {tool}", "{component} owns the {tag} data", "{tool} version is pinned for {component}",
    ],
    "other": [
        "Check {component} after every {tool} upgrade", "{component} needs {practice}",
        "Prefer {tool} over {tool2} for {tag} work", "Document how {component} uses {tool}",
        "Watch {component} for {symptom}",
    ],
}

sentences = [
    "We saw {symptom} in {component} after the last release.",
    "The root cause was {cause}.",
    "Switching to {tool} removed the problem entirely.",
    "{tool2} was considered but rejected because it adds another moving part.",
    "This only shows up under production load, never locally.",
    "Adding {practice} made the failure obvious in review.",
    "The fix is a two-line change, but the investigation took a day.",
    "Keep an eye on {component}: it is the first thing to break when {tool} is upgraded.",
    "Benchmarks showed a 3x improvement on the p95 latency.",
    "Nobody remembered why {component} used {tool}; now it is written down.",
    "The trade-off is more configuration in exchange for predictable behaviour.",
    "Tests now cover the case with {cause}.",
    "Revisit this decision if the team grows past ten people.",
    "Ask before changing it: {component} has downstream consumers we do not own.",
    "A retry with jitter is enough; do not add a queue for this.",
    "The old behaviour is kept behind a flag until the next quarter.",
]
