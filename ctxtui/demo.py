"""The built-in demo: a believable `.context/` for a fictional billing service.

`ctxtui demo` must show every interesting behaviour on first launch, with no
project of the user's: tasks whose keywords match some decisions and not
others, entries in every recency bracket, enough content that an 8000-token
budget has to choose, and a few of ctx's quirks (a `~~Superseded` decision, a
`**Status**: Superseded` one ctx does not notice, a task hidden in an HTML
comment, comment bullets counted as conventions, a constitution ctx never
reads). Beside the files, `.context/memory.db` holds about 300 memories in
ctxtui's own schema (decisions, lessons, fixes, errors, facts, procedures...,
a few archived or superseded, with usage), so the demo also shows database
memories ranked beside markdown entries. Dates are relative to the "now" the
caller passes, so recency always looks the same. The files live in a per-user
cache directory and are rewritten on every launch.
"""

from __future__ import annotations

import os
import random
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

__all__ = ["demo_memories", "demo_memory_db_path", "demo_root", "prepare_demo", "write_demo", "write_demo_memory_db"]

PROJECT = "acme-billing"
MARKER = ".ctxtui-demo"  # not *.md, so ctx never reads it; guards the delete in write_demo

# (age in days, time of day, title, context, decision, rationale, consequence, superseded)
# Newest first, as `ctx decision add` writes them. `superseded` is None or
# (form, start of the newer decision's title): form "~~" is the line ctx
# detects, form "status" only a status line, which ctx does not read (quirk 8).
DECISIONS = (
    (1, "163012", "Cap webhook handlers at 2 seconds and defer the rest to the job queue",
     "Stripe marks a webhook delivery failed after 10 seconds and retries it. Rendering the invoice PDF inside `invoice.finalized` took up to 14 seconds at month end, so Stripe retried and we rendered twice.",
     "Webhook handlers verify the signature, record the event id, enqueue a Celery task and return 200. Anything slower than a database write happens in the task.",
     "Stripe's retry is the right behaviour for a slow endpoint; the fix is to stop being slow, not to fight the retry.",
     "Every webhook side effect is now asynchronous, so support sees a short delay between payment and the receipt email.",
     None),
    (3, "101544", "Compute proration in our billing engine, not with Stripe's proration_behavior",
     "Plan changes mid-period created proration line items twice: once from Stripe's `proration_behavior=create_prorations` and once from our own invoice preview logic, which finance relies on.",
     "Subscriptions are updated with `proration_behavior=none`; `billing/proration.py` computes the credit and the charge and adds them as explicit invoice items.",
     "One owner for proration means the preview a customer sees is the invoice they get. Our rules (round per line, credit unused seats daily) do not match Stripe's anyway.",
     "We must keep the proration code in step with plan changes; a test covers every plan pair in the catalogue.",
     None),
    (6, "090210", "Serialize invoice finalization per customer with Postgres advisory locks",
     "Two workers finalized the same draft invoice when the month-end job and a manual \"finalize now\" from the admin dashboard overlapped, allocating two invoice numbers.",
     "Finalization takes `pg_advisory_xact_lock(<entity id>, <customer key>)` before reading the draft. The lock is released with the transaction.",
     "A row lock on the draft was not enough because the draft is created inside the same path. Advisory locks need no extra table and vanish if the worker dies.",
     "Finalization for one customer is strictly sequential; month-end throughput comes from parallelism across customers.",
     None),
    (9, "142733", "Meter usage through an append-only usage_events table",
     "Usage-based pricing needs an audit trail: customers dispute API-call counts, and we could not say which events made up a number.",
     "Clients post usage events to `/v1/usage`; each is stored once in `usage_events` (idempotent on `client_event_id`) and never updated.",
     "An append-only log can be replayed when pricing rules change and answers every dispute with rows, not estimates.",
     "The table grows by roughly 40 million rows a month; it is partitioned by month from the start.",
     None),
    (13, "111905", "Aggregate usage hourly into a rollup table, not at invoice time",
     "Summing raw usage events at finalization took 40 seconds for our largest customer and held the advisory lock the whole time.",
     "A Celery beat job aggregates usage events into `usage_rollups` per customer and hour; invoices sum rollups.",
     "Invoice time becomes predictable and the expensive scan happens off the critical path, in small pieces.",
     "Late events must re-open a closed hour (see the learning on late mobile usage); rollups carry a `closed_at`.",
     None),
    (18, "154020", "Dunning schedules are data (YAML per plan), not code",
     "Sales kept asking for custom retry schedules for enterprise plans and each one was a code change and a deploy.",
     "`config/dunning/<plan>.yaml` lists retry days, email templates and the final action. The dunning worker reads it at run time and validates it at startup.",
     "Finance can review a schedule as a file in a pull request; engineering reviews only the schema.",
     "A broken YAML file would stop dunning for a plan, so startup refuses to run with an invalid schedule.",
     None),
    (24, "093355", "Retry failed card payments on days 1, 3, 5 and 7, then pause the subscription",
     "Our single retry after 24 hours recovered 31% of failed payments; industry reports suggest spaced retries recover far more.",
     "The default dunning schedule retries on days 1, 3, 5 and 7 after the failure, emails before each retry, and pauses (not cancels) the subscription after the last one.",
     "Pausing keeps the customer's data and lets a card update resume service instantly, which support asked for.",
     "Paused subscriptions need their own state in the admin dashboard and in revenue reports.",
     None),
    (29, "170148", "Send every outbound email through the outbox table",
     "Receipt emails went out for payments whose transaction later rolled back, and some emails were lost when the email provider was down.",
     "Code writes an `outbox` row in the same transaction as the change; a relay process sends pending rows and marks them sent.",
     "The email is sent if and only if the change committed, and a provider outage only delays delivery.",
     "Emails are at-least-once: templates must tolerate a duplicate, and the relay keys sends on the outbox id.",
     None),
    (35, "120000", "Stripe is the source of truth for payment state; our database mirrors it",
     "Our `payments.status` drifted from Stripe after partial refunds issued from the Stripe dashboard by support.",
     "Payment and refund state is written only by webhook handlers from Stripe events; our own code never sets it directly.",
     "Stripe sees every path that changes a payment, including the dashboard; we do not.",
     "A missed webhook means stale state, so a nightly job reconciles the last 7 days of payments against the Stripe API.",
     None),
    (44, "084512", "Every Stripe API call carries an idempotency key derived from our operation id",
     "A network timeout on `PaymentIntent.create` led to a retry that charged a customer twice.",
     "`stripe_gateway.py` requires an `idempotency_key` argument, built as `<operation>:<our id>:<attempt group>`.",
     "Stripe deduplicates keyed requests for 24 hours, which covers every retry we make.",
     "Keys must be stable across retries of the same logical operation and different for a genuine second charge.",
     None),
    (52, "160930", "Billing periods close at midnight in the customer's billing timezone",
     "Customers in Sydney saw usage from their 1st of the month on the previous month's invoice because periods closed at UTC midnight.",
     "Each customer has a `billing_timezone` (IANA name); period boundaries are computed in that zone and stored as UTC `timestamptz`.",
     "Invoices must match what the customer sees on their own calendar; storage stays UTC everywhere.",
     "Boundary code must handle days without a midnight (DST transitions in some zones).",
     None),
    (60, "132201", "Render invoice PDFs with WeasyPrint in a separate worker pool",
     "PDF rendering competed with payment tasks for Celery workers; at month end payment retries waited behind 20,000 renders.",
     "Renders run on a dedicated `pdf` queue with its own workers and memory limits.",
     "WeasyPrint is memory-hungry and slow; isolating it keeps money-moving tasks fast.",
     "Two worker deployments to operate; the `pdf` pool scales to zero outside month end.",
     None),
    (68, "101010", "Store money as integer minor units with an ISO 4217 currency column",
     "`NUMERIC(12,2)` in dollars could not represent JPY (no minor unit) or BHD (three decimals), and float conversions in the API layer produced off-by-one-cent totals.",
     "Every amount column is `BIGINT` minor units, named `*_minor`, next to a `currency CHAR(3)` column. The `Money` type enforces the pairing in code.",
     "It is what Stripe does, so amounts cross the gateway unchanged, and integer arithmetic cannot drift.",
     "A backfill converted the old columns; the legacy columns are dropped once reports stop reading them.",
     None),
    (77, "150505", "One Alembic migration per pull request; no data backfills in schema migrations",
     "A migration that added a column and backfilled 30 million rows held a lock for 11 minutes during a deploy.",
     "Schema migrations only change schema. Backfills are Celery tasks that run in batches after the deploy.",
     "Deploys stay fast and reversible; a slow backfill can be paused without blocking anything.",
     "Code must cope with half-backfilled data for a while, usually by reading old and new columns.",
     None),
    (86, "111111", "Celery with Redis as the broker; task results are not stored",
     "We needed background jobs for dunning, rollups and PDFs, and already ran Redis for rate limiting.",
     "Celery uses Redis as the broker with `task_ignore_result=True`; tasks report outcomes in our own tables.",
     "Results in Redis were never read and made memory use grow without bound.",
     "The broker Redis is a separate instance with `noeviction`; see the learning on evicted queue keys.",
     None),
    (97, "094400", "Feature flags live in a flags table read per request, not in environment variables",
     "Turning off usage-based pricing for one customer during an incident required a redeploy.",
     "Flags are rows in `feature_flags` (global, per plan or per customer), cached for 30 seconds and read at request or task start.",
     "Flags can change in seconds without a deploy, and per-customer overrides are possible.",
     "Code must not read a flag at import time; a lint rule flags module-level `flags.enabled(...)` calls.",
     None),
    (115, "140012", "Delegate tax calculation to a provider behind a TaxCalculator interface",
     "Selling to EU businesses and US states with sales tax made our hand-written tax table wrong within weeks.",
     "`billing/tax.py` defines `TaxCalculator`; the production implementation calls the tax provider, tests use a table-driven fake.",
     "Tax rules change constantly and are not our business; an interface keeps the provider swappable.",
     "Finalization depends on the provider being up; we fail closed and retry rather than invoice without tax.",
     None),
    (140, "103030", "Support tools use a read-only internal API, not direct database access",
     "A support script with write access to production updated the wrong customer's plan.",
     "Support tools call `/internal/v1/...` endpoints with scoped tokens; the support database role was removed.",
     "Every support action is now logged, validated and reversible through the same code paths as the product.",
     "New support needs start as an endpoint request, which is slower than a SQL query.",
     None),
    (165, "121500", "Invoice numbers are gapless per legal entity, allocated at finalization",
     "German and French accounting rules require sequential invoice numbers without gaps for each legal entity.",
     "Numbers come from an `invoice_counters` row per entity, incremented under the finalization advisory lock; drafts have no number.",
     "A Postgres sequence leaves gaps on rollback; a counter row inside the transaction does not.",
     "Finalization is serialized per entity for the counter update, which is fast enough (under 1 ms) to not matter.",
     None),
    (190, "091500", "Store money as NUMERIC(12,2) in the account currency",
     "The first version of the schema needed a money type before we had any non-USD customers.",
     "Amounts are `NUMERIC(12,2)` columns, converted to `Decimal` in Python.",
     "Exact decimal arithmetic without floats, readable in SQL.",
     "Assumes two decimal places for every currency.",
     ("~~", "Store money as integer minor units")),
    (220, "150000", "Structured JSON logs with a request_id carried into Celery tasks",
     "Following one customer's payment through the API, the webhook handler and three tasks meant grepping four log streams by timestamp.",
     "structlog emits JSON; a middleware sets `request_id`, and Celery task headers carry it into every task the request enqueues.",
     "One id finds every log line of one payment, across processes.",
     "Log volume grew about 30%; debug logs are sampled in production.",
     None),
    (260, "113000", "Pin dependencies with pip-tools lock files and let Renovate update them weekly",
     "An unpinned minor release of the Stripe SDK changed a default and broke refunds on a Friday.",
     "`requirements.in` lists direct dependencies; `requirements.txt` is the compiled lock file with hashes; Renovate opens one grouped pull request a week.",
     "Builds are reproducible and upgrades are reviewed, in small batches.",
     "Lock files must be compiled on Linux (see the learning on platform-specific wheels).",
     None),
    (300, "100000", "One FastAPI application with a router per domain, not microservices",
     "The team is four engineers; an early sketch had separate services for invoicing, payments and usage.",
     "A single FastAPI app with routers in `app/api/<domain>.py` and domain logic in `acme_billing/<domain>/`.",
     "Transactions across invoices and payments stay local; we can split later along the router boundaries if we must.",
     "One deploy unit; a bad release affects every domain, so we rely on canary deploys.",
     None),
    (345, "143000", "Soft-delete customers; hard-delete only in the GDPR erasure job",
     "Deleting a customer cascaded into invoices that we are legally required to keep for ten years.",
     "Customers get a `deleted_at`; the erasure job anonymises personal fields and keeps invoices with a pseudonymous reference.",
     "Retention law and erasure requests both have to be honoured; only a deliberate job can do both.",
     "Every customer query must filter `deleted_at IS NULL`; a default query scope does this.",
     None),
    (390, "120000", "Billing periods close at UTC midnight for every customer",
     "We needed one rule for period boundaries before launch, and every customer was in Europe.",
     "All billing periods start and end at 00:00 UTC.",
     "Simplest rule to implement and to explain; no timezone data needed.",
     "Customers far from UTC see usage on the \"wrong\" day's invoice.",
     ("status", "Billing periods close at midnight")),
)

# (age in days, time of day, title, context, lesson, application)
LEARNINGS = (
    (0, "112040", "Stripe webhooks can arrive before the API call that caused them returns",
     "A `payment_intent.succeeded` webhook reached the handler while the request that created the PaymentIntent was still waiting for Stripe's response, so the handler found no local payment row.",
     "Webhook order relative to our own API calls is not guaranteed; the webhook can win the race.",
     "Webhook handlers that miss a local row retry the task with backoff instead of failing; never assume the creating request has committed."),
    (1, "171502", "A 500 on a duplicate webhook makes Stripe replay side effects for three days",
     "A handler raised on a unique-constraint violation for an event it had already processed. Stripe treated the 500 as a failure and retried it for three days.",
     "A duplicate event is success, not an error: Stripe retries anything that is not 2xx.",
     "Check `stripe_event_id` first and return 200 for duplicates; only genuine failures should return 5xx."),
    (3, "094530", "Celery loses a task when the worker dies unless acks_late is on",
     "A PDF worker was OOM-killed during month end and 212 invoices never got a PDF; the tasks had been acknowledged on receipt.",
     "Celery acknowledges tasks before running them by default, so a crashed worker drops its task.",
     "Set `acks_late=True` and `task_reject_on_worker_lost=True` for idempotent tasks; keep non-idempotent ones short."),
    (5, "160000", "hashtext() for advisory lock keys collides",
     "Two unrelated customers blocked each other during finalization. Both UUIDs hashed to the same int4 with `hashtext()`.",
     "A 32-bit hash of a UUID collides far sooner than intuition suggests at our customer count (birthday bound).",
     "Use the two-argument `pg_advisory_xact_lock(entity_id, customer_seq)` with real integer ids instead of hashing."),
    (7, "133333", "float in proration made invoices one cent off",
     "A customer on a 31-day month was credited 1 cent too much on a seat downgrade; finance caught it in reconciliation.",
     "`0.1 * 3` is not `0.3`; proration computed with floats and rounded at the end drifts from the per-line rounding finance expects.",
     "Proration uses `Decimal` with `ROUND_HALF_UP` per line, then converts to integer minor units once."),
    (8, "101500", "Some timezones have no midnight on DST change days",
     "Closing periods for a customer in America/Santiago failed on the day clocks jump from 00:00 to 01:00: the local midnight does not exist.",
     "Local midnight is not always a valid instant; `zoneinfo` silently shifts it and `fold` does not help for gaps.",
     "Compute a period boundary as the first valid instant on or after local midnight, and test the DST transitions of the zones we bill in."),
    (11, "152010", "WeasyPrint silently substitutes fonts missing from the container",
     "Invoice PDFs from the new container image used a fallback font and broke the layout; nothing logged an error.",
     "WeasyPrint treats a missing font as a warning, so a slim image changes output without failing.",
     "Install the invoice fonts in the image and assert in a smoke test that the rendered PDF embeds them."),
    (14, "110101", "freezegun does not reach time read by asyncpg or the database",
     "A period-close test passed locally and failed in CI: the code mixed `datetime.now()` (frozen) with Postgres `now()` (not frozen).",
     "Freezing Python's clock does not freeze C extensions or the database; mixed sources disagree.",
     "Inject a `Clock` into domain code and pass explicit timestamps to SQL instead of calling `now()` there."),
    (17, "143510", "Alembic autogenerate misses server defaults and enum values",
     "A migration generated by autogenerate dropped a needed `server_default` change and did not add the new `payment_status` enum value.",
     "Autogenerate compares tables and columns well but not every property; its output is a draft.",
     "Review every generated migration by hand and add a test that runs upgrade and downgrade on a copy of the schema."),
    (20, "091000", "Adding an enum value cannot run inside a transaction block",
     "A migration adding `paused` to `subscription_status` failed in production with \"ALTER TYPE ... ADD cannot run inside a transaction block\" on the older replica.",
     "Postgres before 12 refuses `ALTER TYPE ... ADD VALUE` in a transaction, and Alembic wraps migrations in one.",
     "Run enum additions with `op.execute` inside an autocommit block, or use a lookup table for statuses that change often."),
    (23, "164000", "Stripe test clocks cannot hold ordinary customers",
     "A dunning test attached a customer created without a test clock to a subscription on a test clock and Stripe rejected it.",
     "Everything that advances with a test clock (customer, subscription, invoices) has to be created on that clock.",
     "The test fixture creates a fresh test clock and creates every Stripe object on it; teardown deletes the clock."),
    (26, "120505", "Redis allkeys-lru evicted Celery's queue",
     "Under memory pressure, the broker Redis evicted the `celery` list key and 3,000 queued dunning emails vanished.",
     "A Redis used as a queue must never evict: the LRU policy treats a queue like a cache entry.",
     "The broker instance runs `maxmemory-policy noeviction` and alerts at 70% memory; caches use a separate instance."),
    (30, "100300", "Python's round() uses banker's rounding",
     "`round(2.5)` returned 2 in a tax total; finance expected 3.",
     "Python rounds halves to even; accounting rounds halves up.",
     "Never use `round()` for money; use `Decimal.quantize(..., ROUND_HALF_UP)` in the `Money` type."),
    (31, "150000", "Sequence-based invoice numbers leave gaps on rollback",
     "An auditor flagged invoice numbers 10412 and 10414 with no 10413: a finalization had rolled back after `nextval()`.",
     "Postgres sequences are not transactional; a rolled-back transaction still consumes a value.",
     "Allocate legally numbered documents from a counter row updated inside the transaction (see the gapless numbering decision)."),
    (38, "111500", "expire_on_commit with async SQLAlchemy raises MissingGreenlet",
     "Reading `invoice.total_minor` after `await session.commit()` raised `MissingGreenlet` in the API.",
     "With `expire_on_commit=True`, attributes are expired on commit and the next access tries a lazy load, which async sessions cannot do implicitly.",
     "Create async sessions with `expire_on_commit=False`, and read what the response needs before committing."),
    (45, "140000", "Zero-decimal currencies are not multiplied by 100 in Stripe",
     "A JPY invoice for 5,000 yen was charged as 500,000 yen in a test because the gateway multiplied by 100.",
     "Stripe amounts are in the currency's smallest unit, and for JPY that is the yen itself.",
     "Convert with the currency's exponent from ISO 4217, never a hard-coded 100; test JPY, USD and BHD."),
    (51, "093000", "The email provider rate-limits at 10 messages per second per domain",
     "Month-end receipts hit HTTP 429 from the email provider and the outbox relay retried them in a tight loop.",
     "The provider limit is per sending domain, not per API key, so adding relay processes made it worse.",
     "The outbox relay uses a shared token bucket in Redis and honours `Retry-After`."),
    (58, "161500", "A plan change double-charged when both the webhook and the API created proration items",
     "Customers upgrading mid-period were charged twice for the difference.",
     "Two code paths each believed they owned proration: Stripe's automatic prorations and our preview logic.",
     "One owner per money-moving computation; when integrating a provider feature, switch off our version or theirs, never neither."),
    (66, "120000", "Mobile clients send usage events up to 48 hours late",
     "Usage totals on closed hourly rollups changed when offline mobile clients reconnected.",
     "\"Closed\" data that depends on client clocks is never really closed.",
     "Rollups can be re-opened for 72 hours; invoices finalize only after that window for usage-priced plans."),
    (73, "141000", "The tax provider returns 0 tax with HTTP 200 for unverifiable addresses",
     "Invoices for a batch of customers went out with no VAT; the provider had answered 200 with a zero amount and a warning field we ignored.",
     "A successful status code is not a successful calculation; the provider reports address problems in the body.",
     "Treat a non-empty `messages` array from the tax provider as a failure and keep the invoice in draft."),
    (81, "103000", "Gunicorn's 30-second worker timeout kills long requests mid-write",
     "Synchronous PDF downloads for large invoices were killed at 30 seconds, leaving truncated files in the cache.",
     "A worker timeout is a hard kill; nothing after it runs, including cleanup.",
     "Long work belongs in a task; write cache files to a temporary name and rename when complete."),
    (89, "153000", "pip-tools lock files differ between macOS and Linux",
     "CI failed to install a lock file compiled on a Mac because it pinned a macOS-only transitive dependency.",
     "Markers and wheels differ per platform; a lock compiled on one platform is not portable.",
     "Compile lock files in the Linux dev container (`make lock`), never on the host."),
    (91, "110000", "Postgres now() is the transaction start time",
     "Rows written late in a long backfill transaction all carried the same `created_at` as the first one.",
     "`now()` and `CURRENT_TIMESTAMP` are fixed for the whole transaction; `clock_timestamp()` is the wall clock.",
     "Use explicit timestamps from the application clock for event times; keep `now()` for audit columns only."),
    (104, "130000", "A partial index fixed the rollup job's sequential scans",
     "EXPLAIN showed the hourly rollup scanning all of `usage_events` to find unprocessed rows.",
     "An index that matches the job's WHERE clause (`WHERE rolled_up_at IS NULL`) stays tiny and turns the scan into an index lookup.",
     "For work-queue queries, index exactly the unprocessed rows with a partial index and check EXPLAIN in review."),
    (122, "091500", "A feature flag read at import time ignores every later change",
     "Switching off a flag during an incident had no effect until the pods restarted.",
     "The module read the flag once when imported and kept the value forever.",
     "Read flags at the start of each request or task; the lint rule now catches module-level reads."),
    (150, "150000", "Redis visibility timeout re-delivers long Celery tasks",
     "Month-end PDF tasks longer than an hour ran twice and sent duplicate emails.",
     "With the Redis broker, an unacknowledged task is re-delivered after `visibility_timeout` (1 hour by default), even while it is still running.",
     "Set `visibility_timeout` above the longest task and keep tasks idempotent anyway."),
    (181, "113000", "structlog drops tracebacks without the format_exc_info processor",
     "Error logs from the webhook handler had `exc_info=True` but no traceback in the JSON output.",
     "The JSON renderer does not format exceptions by itself; a processor has to.",
     "Keep `format_exc_info` in the shared processor chain and test that an exception log contains a traceback."),
    (214, "140000", "GDPR erasure has to reach invoice PDFs in object storage",
     "An erasure request was completed in the database but the customer's name remained in PDFs stored in S3.",
     "Personal data lives wherever it was rendered, not only where it was stored.",
     "The erasure job lists every artefact keyed by customer (PDFs, exports, email logs) and a test asserts each is handled."),
    (268, "100000", "The Stripe API version in the dashboard differs from the SDK's default",
     "A webhook payload had a different shape in production than in tests: the account's dashboard API version was older than the SDK's.",
     "Webhooks use the account's API version, API calls use the SDK's unless pinned.",
     "Pin `stripe.api_version` explicitly and set the same version on the webhook endpoint."),
    (333, "120000", "Retrying hard declines wastes attempts",
     "Dunning retried `do_not_honor` and `stolen_card` declines seven times with no recovery.",
     "Decline codes say whether a retry can ever succeed; hard declines never recover without a new card.",
     "Stop retrying after a hard decline and go straight to the update-your-card email."),
)

# (phase heading, [(status, age in days, text, tags, nested?)])
TASK_PHASES = (
    ("Phase 1: Usage-Based Pricing", (
        ("x", 64, "Add the usage_events table and the /v1/usage ingestion endpoint", "#priority:high", False),
        ("x", 58, "Hourly usage rollup job with a partial index on unprocessed events", "", False),
        (" ", 12, "Re-open closed usage rollups when late mobile events arrive (72 h window)", "#priority:high #in-progress", False),
        (" ", 11, "Show metered usage on the invoice preview page", "", False),
        (" ", 10, "Graduated and volume price tiers in the plan schema", "#priority:medium", False),
        (" ", 10, "Alembic migration for the plan_tiers table", "", True),
        (" ", 10, "Validate that price tier boundaries do not overlap", "", True),
        ("x", 40, "Partition usage_events by month", "", False),
        (" ", 6, "Backfill usage rollups for customers moved from the legacy meter", "", False),
        (" ", 4, "Alert when a customer's usage jumps tenfold day over day", "#priority:low", False),
        ("x", 52, "Idempotent usage ingestion keyed on client_event_id", "", False),
    )),
    ("Phase 2: Dunning and Payment Retries", (
        ("x", 30, "Dunning schedule YAML per plan, validated at startup", "", False),
        ("x", 26, "Pause the subscription after the final payment retry", "", False),
        ("x", 22, "Email before each dunning retry", "", False),
        (" ", 5, "Stop retrying hard declines (do_not_honor, stolen_card) after the first failure", "#priority:high", False),
        (" ", 9, "Dunning email templates in German, French and Spanish", "", False),
        (" ", 8, "Customer portal link to update the card, valid for 7 days", "", False),
        (" ", 3, "Track recovered revenue per dunning step in Prometheus", "#priority:low", False),
        (" ", 2, "Skip dunning retries while a customer has an open payment dispute", "", False),
    )),
    ("Phase 3: Tax and Compliance", (
        ("x", 110, "TaxCalculator interface with a table-driven fake for tests", "", False),
        (" ", 20, "Wire the tax provider sandbox into the staging environment", "", False),
        (" ", 18, "Keep invoices in draft when the tax provider cannot verify the address", "#priority:high", False),
        (" ", 16, "GDPR erasure: scrub invoice PDFs and exports in S3", "#priority:high", False),
        ("x", 160, "Gapless invoice numbering per legal entity", "", False),
        (" ", 15, "Invoice counters for the new French legal entity", "", True),
        (" ", 17, "Reverse-charge note on invoices for EU business customers", "", False),
    )),
    ("Reliability", (
        ("x", 2, "Move PDF rendering out of the invoice.finalized webhook handler", "", False),
        (" ", 2, "Set Celery visibility_timeout above the longest PDF task", "#priority:medium", False),
        ("x", 25, "Broker Redis: maxmemory-policy noeviction and a 70% memory alert", "", False),
        (" ", 7, "Token bucket in the outbox relay for the email provider's 10/s limit", "", False),
        (" ", 14, "Load test month-end finalization for 50k customers", "#priority:medium", False),
        (" ", 13, "Nightly Stripe reconciliation: page on more than 5 mismatches", "", False),
        (" ", 1, "Retry webhook tasks with backoff when the local payment row is missing", "#priority:high", False),
        ("x", 35, "Return 200 for duplicate Stripe webhook events", "", False),
    )),
    ("Maintenance", (
        (" ", 30, "Upgrade the Stripe SDK and pin the API version explicitly", "", False),
        (" ", 28, "Replace freezegun with the injected Clock in the remaining tests", "", False),
        (" ", 27, "Drop the legacy NUMERIC money columns once reports read *_minor", "#priority:low", False),
        ("x", 50, "Compile lock files in the Linux dev container (make lock)", "", False),
        (" ", 21, "Add a DST transition test for every billing timezone we serve", "", False),
        (" ", 19, "Document the advisory lock keys in ARCHITECTURE.md", "", False),
        ("x", 70, "structlog: format_exc_info in the shared processor chain", "", False),
        (" ", 1, "Rename amount columns in the exports API to *_minor", "", False),
        ("x", 45, "Currency exponent table from ISO 4217 for Stripe amounts", "", False),
        (" ", 0, "Investigate slow admin dashboard invoice search", "", False),
    )),
)

TASKS_HEADER = """# Tasks

<!--
UPDATE WHEN:
- New work is identified → add task with #added timestamp
- Work completes → mark [x]
- Never delete tasks; never move them between phases
-->
"""

TASKS_PARKED = """
## Parked

<!-- Parked until the tax provider supports EU OSS returns:
- [ ] Export the quarterly EU OSS VAT return from finalized invoices #added:{added}
-->
"""

CONVENTIONS = """# Conventions

<!--
UPDATE WHEN:
- A pattern is agreed in review and should be followed everywhere
-->

## Money

- **Amounts are integer minor units**: name them `*_minor` (`amount_minor`) and always pair them with a `currency`.
- **No float for money, ever**: convert at the edges with `Money.from_decimal` and round with `ROUND_HALF_UP`.

## Time

- **Store UTC `timestamptz`**: convert to the customer's billing timezone only for period boundaries and display.
- **Inject a `Clock`**: no `datetime.now()` in `acme_billing/`; tests pass a fixed clock.

## Stripe

- **All Stripe calls go through `stripe_gateway.py`** and pass an idempotency key.
- **Webhook handlers are idempotent**: look up `stripe_event_id` first and return 200 for duplicates.

## Code

- **Routers hold no business logic**: `app/api/<domain>.py` validates and calls `acme_billing/<domain>/`.
- **Celery tasks take ids, not ORM objects**: load fresh state inside the task.
- **Domain errors come from `acme_billing.errors`** and are mapped to HTTP in one exception handler.
- **`mypy --strict` on `acme_billing/`**: no `Any` in domain signatures.

---

## Testing

- **A bug fix starts with a failing test** named `test_regression_<issue number>`.
- **Use Stripe test clocks for anything spanning a billing period**; never sleep in tests.
- **Golden invoice PDFs are compared as extracted text**, not bytes (fonts and metadata vary).

## Git

- **Conventional commit prefixes** (`feat:`, `fix:`, `chore:`) and one Alembic migration per pull request.
- **Squash-merge**: the pull request title becomes the commit message.
"""

CONSTITUTION = """# Constitution

<!--
These rules are INVIOLABLE. If a task requires breaking one, the task is wrong.
-->

## Money

- [ ] **Never** move money without an idempotency key
- [ ] **Never** store or compute amounts as floating point
- [ ] **Never** issue a credit or refund without an audit log entry naming the actor

## Data

- [ ] **Never** store card numbers, CVCs or bank credentials; Stripe holds them
- [ ] **Never** hard-delete an invoice; legal retention is ten years
- [ ] Personal data leaves the EU region only through the documented processors

## Process

- [ ] Every schema change ships as a reviewed Alembic migration
- [ ] Production data is never used in local development or tests
"""

ARCHITECTURE = """# Architecture

## Overview

acme-billing charges customers of the Acme platform: subscriptions, usage-based
plans, invoices, tax and payment recovery. It is one FastAPI application, a
Celery worker fleet and PostgreSQL; Stripe moves the money.

## Components

- **API** (`app/api/`): FastAPI routers per domain (invoices, usage, subscriptions, webhooks, internal)
- **Domain** (`acme_billing/`): plans, proration, tax, dunning, invoicing; no framework imports
- **Stripe gateway** (`acme_billing/stripe_gateway.py`): the only module that talks to Stripe
- **Workers** (`acme_billing/tasks/`): Celery queues `default`, `dunning`, `pdf`
- **Outbox relay** (`bin/outbox_relay.py`): sends queued emails with a shared rate limit
- **PostgreSQL 15**: source of truth for everything except payment state (Stripe)
- **Redis**: two instances, a Celery broker (`noeviction`) and a cache

## Data Flow

```mermaid
graph TD
    Client -->|usage events| API
    API --> Postgres
    Stripe -->|webhooks| API
    API -->|enqueue| Redis
    Redis --> Workers
    Workers --> Postgres
    Workers -->|charges, refunds| Stripe
    Workers --> Outbox
    Outbox --> Email[Email provider]
```

## Locks

Invoice finalization holds `pg_advisory_xact_lock(entity_id, customer_seq)`;
nothing else uses advisory locks.
"""

GLOSSARY = """# Glossary

## Domain Terms

- **Billing timezone**: the IANA zone whose midnight closes a customer's billing period
- **Dunning**: the schedule of retries and emails after a failed payment
- **Finalization**: turning a draft invoice into a numbered, immutable one
- **Legal entity**: the Acme company that issues an invoice; numbering is per entity
- **Minor units**: the smallest unit of a currency (cents, yen); all amounts are stored in them
- **Outbox**: a table of side effects (emails) written in the same transaction as the change
- **Proration**: the credit and charge for a plan change in the middle of a period
- **Rollup**: hourly per-customer usage totals computed from raw usage events
- **Test clock**: a Stripe test object that lets a test advance time for subscriptions

## Abbreviations

- **OSS**: the EU One-Stop Shop for VAT returns
- **PSP**: payment service provider (Stripe)
"""

STEERING = {
    "product.md": """---
name: product
description: What acme-billing is for and what matters most
inclusion: always
priority: 10
---

# Product

acme-billing bills the customers of the Acme platform. Correct money beats
new features: a wrong invoice costs more trust than a late feature.

- Customers are small and mid-size companies in the EU, the US and Australia.
- Finance reads every invoice total; they must be reproducible from our data.
- Support must be able to explain any charge from the admin dashboard.
""",
    "tech.md": """---
name: tech
description: Stack and hard constraints
inclusion: always
priority: 20
---

# Tech

- Python 3.12, FastAPI, SQLAlchemy 2 (async), Alembic, Celery 5, PostgreSQL 15, Redis 7.
- Stripe is the only payment processor; all calls go through the gateway module.
- No new runtime service without a decision record in DECISIONS.md.
- `make check` (ruff, mypy, pytest) must pass before a pull request is opened.
""",
    "release.md": """---
name: release
description: Release checklist, used when preparing a deploy
inclusion: manual
priority: 30
---

# Release

1. Confirm no migration in the release holds a lock longer than a few seconds.
2. Deploy to the canary pods and watch webhook error rates for 15 minutes.
3. Never release during the last two days of a month (finalization window).
""",
}


def _at(now: datetime, days: int, hms: str) -> datetime:
    """`days` before `now` at a fixed time of day, never after `now`."""
    day = now - timedelta(days=days)
    when = day.replace(hour=int(hms[:2]), minute=int(hms[2:4]), second=int(hms[4:]), microsecond=0)
    return min(when, now.replace(microsecond=0))


def _stamp(now: datetime, days: int, hms: str = "120000") -> str:
    return _at(now, days, hms).strftime("%Y-%m-%d-%H%M%S")


def _decisions(now: datetime) -> str:
    stamps = [_stamp(now, age, hms) for age, hms, *_ in DECISIONS]
    out = ["# Decisions\n\n<!-- INDEX:START -->\n| Date | Decision |\n|----|--------|\n"]
    out.extend(f"| {stamps[i][:10]} | {d[2]} |\n" for i, d in enumerate(DECISIONS))
    out.append("<!-- INDEX:END -->\n")
    for i, (_, _, title, context, decision, rationale, consequence, superseded) in enumerate(DECISIONS):
        status_line, note = "Accepted", ""
        if superseded:
            form, newer_title = superseded
            newer = next(j for j, d in enumerate(DECISIONS) if d[2].startswith(newer_title))
            by = f"Superseded by [{stamps[newer]}] {DECISIONS[newer][2]}"
            status_line = "Superseded" if form == "~~" else by
            note = f"~~{by}~~\n\n" if form == "~~" else ""
        out.append(
            f"\n## [{stamps[i]}] {title}\n\n**Status**: {status_line}\n\n{note}"
            f"**Context**: {context}\n\n**Decision**: {decision}\n\n"
            f"**Rationale**: {rationale}\n\n**Consequence**: {consequence}\n"
        )
        if i + 1 < len(DECISIONS):
            out.append("\n---\n")
    return "".join(out)


def _learnings(now: datetime) -> str:
    out = ["# Learnings\n\n<!-- INDEX:START -->\n| Date | Learning |\n|----|--------|\n"]
    stamps = [_stamp(now, age, hms) for age, hms, *_ in LEARNINGS]
    out.extend(f"| {stamps[i][:10]} | {entry[2]} |\n" for i, entry in enumerate(LEARNINGS))
    out.append("<!-- INDEX:END -->\n")
    for i, (_, _, title, context, lesson, application) in enumerate(LEARNINGS):
        out.append(
            f"\n## [{stamps[i]}] {title}\n\n**Context**: {context}\n\n"
            f"**Lesson**: {lesson}\n\n**Application**: {application}\n\n---\n"
        )
    return "".join(out)


def _tasks(now: datetime) -> str:
    out = [TASKS_HEADER]
    for heading, tasks in TASK_PHASES:
        out.append(f"\n## {heading}\n\n")
        for box, age, text, tags, nested in tasks:
            tail = f" {tags}" if tags else ""
            out.append(f"{'  ' if nested else ''}- [{box}] {text}{tail} #added:{_stamp(now, age, '091500')}\n")
    out.append(TASKS_PARKED.format(added=_stamp(now, 95, "101500")))
    return "".join(out)


def demo_files(now: datetime) -> dict[str, str]:
    """The demo's files as {path relative to .context: text}."""
    files = {
        "CONSTITUTION.md": CONSTITUTION,
        "TASKS.md": _tasks(now),
        "CONVENTIONS.md": CONVENTIONS,
        "ARCHITECTURE.md": ARCHITECTURE,
        "DECISIONS.md": _decisions(now),
        "LEARNINGS.md": _learnings(now),
        "GLOSSARY.md": GLOSSARY,
    }
    files.update({f"steering/{name}": text for name, text in STEERING.items()})
    return files


def write_demo(target: Path, now: datetime) -> Path:
    """Write the demo project to `target` (its `.context/` replaced, the memory
    database included) and return `target`.

    An existing `.context/` is deleted only when an earlier `write_demo` made
    it (it carries a marker file), so pointing this at a real project fails
    instead of destroying it.
    """
    target = Path(target)
    context = target / ".context"
    if context.exists():
        if not (context / MARKER).is_file():
            raise FileExistsError(f"{context} exists and is not a ctxtui demo; refusing to replace it")
        shutil.rmtree(context)
    (context / "steering").mkdir(parents=True)
    (context / MARKER).write_text(f"written by ctxtui for the {PROJECT} demo; rewritten on every launch\n",
                                  encoding="utf-8")
    for name, text in demo_files(now).items():
        (context / name).write_bytes(text.encode("utf-8"))
    write_demo_memory_db(target, now)
    return target


def demo_root() -> Path:
    """The per-user cache directory the demo project lives in ($XDG_CACHE_HOME/ctxtui/demo)."""
    cache = os.environ.get("XDG_CACHE_HOME")
    base = Path(cache) if cache and Path(cache).is_absolute() else Path.home() / ".cache"
    return base / "ctxtui" / "demo"


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
# the demo shows database memories ranked beside markdown entries. A fixed seed
# makes the file the same for the same "now"; every date is relative to "now".

MEMORY_SEED = 20261121
MEMORY_PROJECT = PROJECT
PEOPLE = ("Maya", "Jonas", "Priya", "Tomás", "Aiko", "Sam")

# (Name, name, module, table, metric, slug, tags)
COMPONENTS = (
    ("Invoice finalization", "invoice finalization", "acme_billing/invoicing/finalize.py", "invoices",
     "finalize_duration_seconds", "finalize", ("invoices", "locks")),
    ("Proration", "proration", "acme_billing/proration.py", "invoice_items", "proration_items_total", "proration",
     ("proration", "money")),
    ("The dunning worker", "the dunning worker", "acme_billing/dunning/worker.py", "dunning_attempts",
     "dunning_retries_total", "dunning", ("dunning", "payments")),
    ("The Stripe webhook handler", "the Stripe webhook handler", "app/api/webhooks.py", "stripe_events",
     "webhook_latency_seconds", "webhooks", ("stripe", "webhooks")),
    ("The outbox relay", "the outbox relay", "bin/outbox_relay.py", "outbox", "outbox_pending", "outbox",
     ("email", "outbox")),
    ("Usage ingestion", "usage ingestion", "app/api/usage.py", "usage_events", "usage_ingest_requests_total",
     "usage", ("usage", "api")),
    ("The hourly rollup job", "the hourly rollup job", "acme_billing/usage/rollup.py", "usage_rollups",
     "rollup_lag_seconds", "rollup", ("usage", "rollups")),
    ("The tax calculator", "the tax calculator", "acme_billing/tax.py", "tax_quotes", "tax_provider_errors_total",
     "tax", ("tax", "compliance")),
    ("The PDF renderer", "the PDF renderer", "acme_billing/tasks/pdf.py", "invoice_pdfs", "pdf_render_seconds",
     "pdf", ("pdf", "celery")),
    ("The Stripe gateway", "the Stripe gateway", "acme_billing/stripe_gateway.py", "stripe_requests",
     "stripe_api_errors_total", "gateway", ("stripe", "idempotency")),
    ("Nightly reconciliation", "nightly reconciliation", "acme_billing/reconcile.py", "reconciliation_runs",
     "reconcile_mismatches", "reconcile", ("stripe", "reconciliation")),
    ("Admin invoice search", "admin invoice search", "app/admin/search.py", "admin_saved_searches",
     "admin_search_seconds", "admin", ("admin", "postgres")),
    ("The GDPR erasure job", "the GDPR erasure job", "acme_billing/gdpr/erasure.py", "erasure_requests",
     "erasure_backlog", "gdpr", ("gdpr", "compliance")),
    ("Feature flags", "feature flags", "acme_billing/flags.py", "feature_flags", "flag_cache_misses_total", "flags",
     ("flags",)),
    ("Billing period close", "billing period close", "acme_billing/periods.py", "billing_periods",
     "period_close_failures_total", "periods", ("time", "periods")),
    ("The exports API", "the exports API", "app/api/exports.py", "exports", "export_rows_total", "exports",
     ("api", "exports")),
)

# (exception, message, what was wrong and what changed)
ERRORS = (
    ("sqlalchemy.exc.IntegrityError", "duplicate key value violates unique constraint",
     "A retried task inserted a row that its first attempt had already committed; the insert now uses "
     "`ON CONFLICT DO NOTHING` keyed on the idempotency key."),
    ("asyncpg.exceptions.DeadlockDetectedError", "deadlock detected",
     "Two transactions took row locks in a different order; locks are now always taken in id order."),
    ("celery.exceptions.SoftTimeLimitExceeded", "SoftTimeLimitExceeded()",
     "The largest customers exceed the 5-minute soft limit; the work is now split into pages of 1,000 rows."),
    ("stripe.error.RateLimitError", "Request rate limit exceeded",
     "A backfill called Stripe without the shared token bucket; every Stripe call now goes through it."),
    ("redis.exceptions.ConnectionError", "Error 111 connecting to redis-broker:6379. Connection refused.",
     "The broker failed over during a node upgrade; clients now retry the connection with backoff for 30 seconds."),
    ("sqlalchemy.exc.MissingGreenlet", "greenlet_spawn has not been called",
     "An attribute was read after commit with expire_on_commit on; see the learning on async sessions."),
    ("zoneinfo.ZoneInfoNotFoundError", "'No time zone found with key US/Pacific-New'",
     "A customer record carried a retired zone name; zones are validated against "
     "`zoneinfo.available_timezones()` on save."),
    ("decimal.InvalidOperation", "[<class 'decimal.ConversionSyntax'>]",
     "An empty string reached `Money.from_decimal`; the API schema rejects it now."),
    ("KeyError", "'currency'",
     "A webhook payload from an older API version had no currency on the line item; the code reads it from "
     "the invoice instead."),
    ("psycopg.errors.QueryCanceled", "canceling statement due to statement timeout",
     "The query missed its index after a migration renamed a column; the index was recreated and EXPLAIN "
     "is now part of the migration review."),
    ("httpx.ReadTimeout", "timed out",
     "The tax provider slowed down during its own deploy; calls now time out at 5 s and retry twice."),
    ("pydantic.ValidationError", "1 validation error for UsageEventIn",
     "A client sent `quantity` as a string; integer strings are accepted now, anything else is a 422."),
)

# (short title, symptom, cause, fix): generic enough for any component.
FIXES = (
    ("repeated side effects after a crash",
     "A worker crash between an external call and the commit repeated the call on retry",
     "the row was marked done only after the call returned",
     "the row is marked in progress first and the call carries an idempotency key"),
    ("stale cached reads", "Readers saw values up to an hour old",
     "a cache with a one-hour lifetime and no invalidation",
     "the cache entry is dropped in the same transaction that writes"),
    ("a flaky test", "Its test suite failed about one run in twenty",
     "a test depended on the iteration order of a set of ids", "the test sorts before comparing"),
    ("parallel runs for one customer", "Two runs for the same customer overlapped",
     "the advisory lock key hashed the customer UUID", "the lock uses the two-integer form with the customer sequence"),
    ("endless task retries", "A task retried for two days",
     "it caught every exception and re-queued itself", "it retries only transient errors, at most 8 times"),
    ("an N+1 query at month end", "Month-end runs took four times longer than in staging",
     "related rows were loaded one by one", "they are loaded with `selectinload` in one query"),
    ("slow pagination", "Pages past the first hundred timed out",
     "pagination used OFFSET", "keyset pagination on `(created_at, id)`"),
    ("an hour shift after DST", "Timestamps moved by an hour in late March",
     "naive datetimes were compared with aware ones", "aware UTC datetimes everywhere, from the injected Clock"),
    ("double-counted metrics", "Grafana showed twice the real volume",
     "the counter was incremented in the task and again in its retry", "the counter is incremented after commit only"),
    ("an unbounded cache", "Workers grew until they were OOM-killed",
     "a module-level dict kept every customer the process had seen", "the cache is an LRU of 10,000 entries"),
)

SLOW_PARTS = ("waiting for the advisory lock", "Stripe API round trips", "Postgres I/O on the {table} table",
              "queueing behind PDF renders", "calls to the tax provider")
WARNINGS = ("retrying after a transient Stripe error", "slow query over 500 ms", "lock wait over one second",
            "cache miss storm after a deploy")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")

# Per component: (kind, title, body, how likely a component has one). Slots are
# the component's fields and numbers drawn per component (see `demo_memories`).
COMPONENT_TEMPLATES = (
    ("fact", "Where {name} lives",
     "{Name} starts in `{module}` and keeps its state in the `{table}` table. Its tests are in `tests/{slug}/`; "
     "their fixtures build customers with the `billing_customer` factory.", 0.95),
    ("fact", "{Name} exports `{metric}`",
     "{Name} exports `{metric}` to Prometheus. The Grafana board \"Billing / {Name}\" plots it beside the error "
     "rate, and the page alert fires at {n}× the seven-day median.", 0.9),
    ("fact", "{person} knows {name} best",
     "{person} wrote most of {name} and reviews every change to `{module}`. Ask in #billing-eng before "
     "changing its locking or retry behaviour.", 0.8),
    ("observation", "{Name}: p95 at month end was {b} ms, against {a} ms normally",
     "During the last month-end run {name} took {b} ms at p95, against {a} ms on an ordinary day. Most of the "
     "extra time was {wait}.", 0.9),
    ("observation", "{Name} logged {n} warnings on a {weekday}",
     "Sentry grouped {n} warnings from `{module}` last {weekday}, nearly all \"{warning}\". None reached a "
     "customer, but the noise hid a real error for an hour.", 0.9),
    ("observation", "The {table} table grew {pct}% last month",
     "`{table}` now holds about {rows} million rows. Growth follows the customer count; autovacuum keeps up, "
     "and the largest index is still under a quarter of the table size.", 0.85),
    ("error", "{exc} in {name}",
     "`{exc}: {message}` was raised from `{module}` {n} times in a week. {why}", 0.95),
    ("error", "{exc2} during a month-end run of {name}",
     "`{exc2}: {message2}` appeared in `{module}` only under month-end load. {why2}", 0.8),
    ("fix", "{Name}: {fix_title}",
     "{symptom}. Cause: {cause}. Fix: {fix}. `test_regression_{issue}` covers it.", 0.95),
    ("fix", "{Name}: {fix_title2}",
     "{symptom2}. Cause: {cause2}. Fix: {fix2}. `test_regression_{issue2}` covers it.", 0.8),
    ("procedure", "Replay failed {name} work",
     "1. Find the failures in Sentry by the tag `component:{slug}`.\n"
     "2. Check that the `{table}` rows they name are still in the state the job expects.\n"
     "3. Re-enqueue them with `make replay COMPONENT={slug} IDS=...`; the work is idempotent, so a double "
     "replay is harmless.\n"
     "4. Watch `{metric}` for ten minutes, and write what happened in the incident channel.", 0.9),
    ("procedure", "Ship a risky change to {name}",
     "1. Put the new path behind a per-customer flag in `feature_flags`.\n"
     "2. Deploy to the canary pods and turn the flag on for the internal test customers.\n"
     "3. Compare `{metric}` between canary and the rest for a day.\n"
     "4. Widen the flag to 10%, then everyone; delete the old path a release later.\n"
     "Never during the last two days of a month.", 0.75),
    ("lesson", "{Name} needs its own month-end load test",
     "An ordinary day exercises {name} at a thirtieth of month-end volume, so problems in `{module}` show up "
     "only on the 1st. The load test replays last month's volume against staging before each month end.", 0.5),
    ("decision", "{Name} reports to its own Sentry project",
     "Errors from `{module}` went to the shared project and were missed among webhook noise. {Name} now has "
     "its own Sentry project whose alerts page {person}'s rotation first.", 0.5),
    ("gotcha", "Deleting rows from {table} by hand breaks {name}",
     "{Name} assumes every row in `{table}` went through `{module}`. A manual DELETE during an incident left "
     "dangling references that failed the next run; use the internal API or the replay tooling instead.", 0.45),
    ("todo", "Split `{metric}` by legal entity",
     "Finance asked for {name} numbers per legal entity; add an `entity` label (three values, so cardinality "
     "stays small) and update the Grafana board in the same pull request.", 0.35),
    ("note", "{Name} handover notes",
     "Whoever hands over the on-call rotation writes two lines about {name}: what changed this week and what "
     "to watch in `{metric}`. The notes live in the #billing-oncall channel topic.", 0.3),
)

# Hand-written memories: (kind, title, body, importance, tags).
MEMORIES = (
    ("decision", "Quote prices in the customer's billing currency and never convert at charge time",
     "Plans carry a price per currency; a customer is billed in the currency of their plan for the life of the "
     "subscription. Converting at charge time made totals move with exchange rates, which finance could not "
     "reconcile and customers could not predict.", 0.9, ("money", "currency")),
    ("decision", "Refunds go through a refunds table with a reason code",
     "Every refund is a row in `refunds` with the actor, a reason code and the Stripe refund id. Support issues "
     "them through the internal API; the Stripe dashboard is read-only for support since the audit.", 0.8,
     ("refunds", "audit")),
    ("decision", "Correct a finalized invoice with a credit note, never by editing it",
     "A finalized invoice is immutable: its number is allocated and it may already be in the customer's "
     "accounting. Corrections are credit notes referencing the invoice, numbered in the same series.", 0.9,
     ("invoices", "compliance")),
    ("decision", "Reject usage events older than 72 hours at ingestion",
     "The rollup window re-opens closed hours for 72 hours (late mobile clients); anything older would change "
     "an invoice that may already be final. The API answers 422 with `event_too_old` and the client logs it.",
     0.8, ("usage", "rollups")),
    ("decision", "Price tiers are rows in plan_tiers, not JSON on the plan",
     "Graduated and volume pricing need validation (no overlapping boundaries, one open-ended top tier) and "
     "reporting by tier. A `plan_tiers` table with a check constraint gives both; JSON on the plan gave neither.",
     0.7, ("plans", "pricing")),
    ("decision", "Graduated pricing is computed per billing period, not per rollup hour",
     "Tier boundaries apply to the period's total usage. Pricing each hour separately would restart the tiers "
     "every hour and undercharge heavy users; hourly rollups only feed the period total.", 0.75,
     ("pricing", "usage")),
    ("decision", "Admin invoice search uses a trigram index on customer name and invoice number",
     "`pg_trgm` GIN indexes on `customers.name` and `invoices.number` serve the dashboard's substring search "
     "in under 50 ms for our largest tenant. Full-text search was rejected: invoice numbers are not words.",
     0.6, ("admin", "postgres")),
    ("decision", "Skip dunning retries while a payment dispute is open",
     "A retry during an open dispute reads as harassment to the customer and complicates the dispute with the "
     "card network. The dunning worker checks `disputes.status = 'open'` and pauses the schedule until it "
     "closes.", 0.8, ("dunning", "disputes")),
    ("decision", "Card-update links are signed tokens valid for 7 days",
     "The dunning email links to the customer portal with an itsdangerous token carrying the customer id and "
     "an expiry. No login is needed to update a card; the token is single-use once a card is saved.", 0.7,
     ("dunning", "portal")),
    ("decision", "Dunning emails use the customer's invoice language, English as the fallback",
     "German, French and Spanish templates live beside the English ones; the language comes from "
     "`customers.invoice_language`, the same field the invoice PDF uses, so a customer never gets a mix.", 0.6,
     ("dunning", "email", "i18n")),
    ("decision", "Recovered-revenue counters are labelled by dunning step, not by customer",
     "`dunning_recovered_minor_total{step=\"3\", currency=\"EUR\"}` answers which retry earns its keep. A "
     "customer label would explode Prometheus cardinality; per-customer answers come from SQL.", 0.5,
     ("dunning", "metrics")),
    ("decision", "Alert on tenfold usage jumps from the rollup job, not from ingestion",
     "The rollup job already has yesterday's and today's totals per customer; comparing them there costs "
     "nothing. Checking at ingestion would add a query to the hottest endpoint.", 0.5, ("usage", "alerts")),
    ("decision", "Reverse-charge invoices carry the customer's VAT id and a fixed legal note",
     "For EU business customers outside the seller's country, the invoice shows the customer's VAT id and the "
     "sentence \"Reverse charge: VAT to be accounted for by the recipient\" in the invoice language. The tax "
     "provider tells us when it applies.", 0.8, ("tax", "invoices", "compliance")),
    ("decision", "The French legal entity gets its own invoice counter starting at 1",
     "Numbering is gapless per legal entity, so Acme SAS needs its own `invoice_counters` row and prefix "
     "(`FR-`). Reusing the German counter would break both series.", 0.85, ("invoices", "compliance")),
    ("decision", "Staging uses the tax provider's sandbox and nothing else",
     "The table-driven fake stays in unit tests; staging talks to the real sandbox so address verification "
     "and its warnings behave as in production.", 0.6, ("tax", "staging")),
    ("decision", "Webhook tasks retry with exponential backoff for up to 10 minutes when the payment row is missing",
     "The webhook can win the race against the request that created the payment. The task retries at 2, 4, "
     "8... seconds up to 10 minutes, then alerts: by then the row is missing for a real reason.", 0.85,
     ("stripe", "webhooks", "celery")),
    ("decision", "Rename amount columns in the exports API with a one-release deprecation window",
     "Exports gain `*_minor` columns next to the old ones for one release, with a `Deprecation` header; the "
     "old columns go in the release after. Customers' spreadsheets break otherwise.", 0.5, ("exports", "api")),
    ("decision", "Keep Celery on Redis this year; no move to SQS",
     "SQS would remove the eviction risk but needs new tooling for visibility timeouts and local development. "
     "Redis with `noeviction` and an alert covers the risk we actually had.", 0.55, ("celery", "redis")),
    ("decision", "Format customer-facing amounts with Babel from minor units",
     "`format_money(amount_minor, currency, locale)` divides by the ISO 4217 exponent and formats with Babel, so "
     "1234 JPY prints as ¥1,234 and 1234 EUR as 12,34 € in German.", 0.5, ("money", "i18n")),
    ("decision", "Decimal only inside proration; integer minor units everywhere else",
     "Proration needs fractional intermediate values (days in period, per-seat credits); everything it returns "
     "is rounded per line into minor units. No Decimal leaves `proration.py`.", 0.75, ("money", "proration")),
    ("decision", "Freeze the plan catalogue during the last two days of a month",
     "Plan edits during finalization produced invoices priced from two catalogue versions. The admin API "
     "refuses plan changes from the day before the last day until the 2nd, 09:00 UTC.", 0.6,
     ("plans", "month-end")),
    ("decision", "Move invoice PDFs to one bucket per legal entity (proposed)",
     "Proposed by Aiko, not agreed: separate buckets would make each entity's retention and erasure rules "
     "explicit. Open question: cost of migrating 4 million objects.", 0.4, ("pdf", "gdpr")),
    ("lesson", "pg_trgm must be installed in every environment, CI included",
     "The trigram migration passed locally (the extension was installed by hand years ago) and failed in CI. "
     "Migrations now run `CREATE EXTENSION IF NOT EXISTS pg_trgm` themselves.", 0.5, ("postgres", "ci")),
    ("lesson", "Month-end is thirty times an ordinary day for the pdf queue",
     "Renders cluster in the first six hours of the 1st. Capacity plans that use the daily average are wrong "
     "by an order of magnitude; size the pool for the first morning.", 0.7, ("pdf", "month-end")),
    ("lesson", "Customers read the invoice preview as a promise",
     "Support tickets quote the preview, not the invoice. Any difference between the two is a bug report, so "
     "the preview runs exactly the finalization code path in a rolled-back transaction.", 0.8,
     ("invoices", "support")),
    ("lesson", "Finance reconciles by invoice number, never by Stripe id",
     "Exports that only carried the Stripe invoice id were useless to finance. Every export and report carries "
     "our invoice number and legal entity first.", 0.6, ("exports", "finance")),
    ("lesson", "Dunning email translations need legal review in Germany",
     "A German dunning email threatened \"Kündigung\" (termination) where we only pause. Translations of dunning "
     "and invoice texts now go through the legal reviewer for each country.", 0.55, ("dunning", "i18n")),
    ("lesson", "Take the advisory lock before reading the draft, not after",
     "Reading the draft first and locking second let two workers read the same draft state. The lock is the "
     "first statement of the finalization transaction.", 0.9, ("locks", "invoices")),
    ("lesson", "Late usage events cluster on Monday mornings",
     "Mobile clients that were offline over the weekend reconnect on Monday between 07:00 and 10:00 local time; "
     "rollup re-opens peak then, so rollup capacity is planned for Monday, not month end.", 0.5, ("usage",)),
    ("lesson", "Staging and production shared one tax provider key and its rate limit",
     "A staging load test exhausted the rate limit and production tax calls failed for twenty minutes. Each "
     "environment has its own key now.", 0.75, ("tax", "staging")),
    ("lesson", "Backfills in batches of 10,000 rows keep replication lag under a second",
     "Batches of 100,000 made the replica fall minutes behind and the admin dashboard (which reads the "
     "replica) showed stale invoices. 10,000 rows with a 200 ms pause is the measured sweet spot.", 0.6,
     ("postgres", "backfill")),
    ("lesson", "A legal entity's address change means regenerating unsent PDFs",
     "PDFs rendered before the address change still showed the old registered office. Renders are keyed on the "
     "entity's address version, so a change invalidates drafts and unsent invoices.", 0.5, ("pdf", "invoices")),
    ("lesson", "Changing a Prometheus label set breaks existing Grafana panels",
     "Adding a `currency` label split every series, and panels that summed without `by` doubled. Label changes "
     "ship with the dashboard change in the same pull request.", 0.4, ("metrics",)),
    ("lesson", "A retry during an open dispute turns one complaint into two",
     "Customers who disputed a charge and then received a retry email escalated to their bank and to support. "
     "Disputes now pause dunning (see the decision).", 0.7, ("dunning", "disputes")),
    ("lesson", "Gapless numbering rules differ per country",
     "Spain allows separate series per invoice type, France wants one series per entity, Germany accepts "
     "several series if each is gapless. Legal checks each new entity's rules before launch.", 0.6,
     ("invoices", "compliance")),
    ("lesson", "A customer's billing timezone can change in the middle of a period",
     "A customer moved from Berlin to New York and the period end jumped six hours. The period in progress keeps "
     "its boundaries; the new zone applies from the next period.", 0.55, ("time", "periods")),
    ("lesson", "Verify webhook signatures on the raw body, before any parsing",
     "A middleware that parsed and re-serialised JSON changed whitespace, and every signature check failed. "
     "The webhook route reads the raw bytes and verifies them first.", 0.85, ("stripe", "webhooks")),
    ("lesson", "Stripe test clocks advance asynchronously",
     "Advancing a test clock returns at once; the clock's status is `advancing` until Stripe has caught up. "
     "Tests poll until it is `ready` before asserting on invoices.", 0.6, ("stripe", "testing")),
    ("lesson", "A grouped Renovate pull request hides which upgrade broke the build",
     "When the weekly group failed, bisecting twelve upgrades took a morning. Payment-path libraries (stripe, "
     "sqlalchemy, celery) are now excluded from the group and upgraded alone.", 0.4, ("dependencies",)),
    ("gotcha", "`make lock` on the host silently produces a macOS lock file",
     "The Makefile target only warns when it is not in the dev container. Run it through `make shell` first.",
     0.4, ("dependencies",)),
    ("gotcha", "The admin dashboard reads the replica, so fresh writes can look missing",
     "Support sometimes reports an invoice \"not created\" seconds after creating it. Replica lag; the invoice "
     "page has a \"read from primary\" toggle for that case.", 0.5, ("admin", "postgres")),
    ("gotcha", "`flags.enabled()` caches for 30 seconds, also in tests",
     "A test that flips a flag and asserts immediately sees the old value. Use the `flags_override` fixture, "
     "which bypasses the cache.", 0.45, ("flags", "testing")),
    ("fix", "Webhook handler returned 500 for events of an unknown type",
     "New event types Stripe started sending failed the handler's dispatch table and were retried for three "
     "days. Unknown types are now acknowledged with 200 and logged at info level.", 0.7, ("stripe", "webhooks")),
    ("fix", "Proration credited cancelled seats twice when two changes landed in one day",
     "Two seat changes on the same day both computed a credit from the period start. Proration now starts "
     "from the later of the period start and the last change.", 0.8, ("proration", "money")),
    ("fix", "Invoice preview showed tax-exclusive totals for Australian customers",
     "Australian prices are tax-inclusive; the preview added GST on top. The plan's `tax_behavior` now decides "
     "inclusive or exclusive for both preview and invoice.", 0.65, ("tax", "invoices")),
    ("fix", "The outbox relay stalled on one oversized attachment",
     "A 30 MB PDF attachment was rejected by the provider and retried forever at the head of the queue. "
     "Attachments over 10 MB are sent as a signed download link instead.", 0.5, ("outbox", "email", "pdf")),
    ("error", "`CardError: do_not_honor` retried seven times by dunning",
     "Hard declines came back on every retry. The decline code now decides: hard declines skip the schedule "
     "and send the update-your-card email at once.", 0.75, ("dunning", "payments")),
    ("error", "`IdempotencyError` from Stripe after changing a request's parameters",
     "Stripe rejects a reused idempotency key when the parameters differ. The attempt group in the key is "
     "bumped whenever an operation is genuinely retried with new parameters.", 0.7, ("stripe", "idempotency")),
    ("fact", "The largest customer sends about 2.1 million usage events a day",
     "Helio Robotics, on the usage plan, peaks at 90 events a second. Their rollups are the slowest; they are "
     "the first customer to check after a rollup change.", 0.6, ("usage", "customers")),
    ("fact", "Three legal entities issue invoices: Acme GmbH, Acme Ltd and Acme SAS",
     "Each has its own invoice counter, prefix (DE-, UK-, FR-), registered address and bank details on the "
     "PDF. The customer's contract decides the entity.", 0.7, ("invoices", "compliance")),
    ("fact", "Month-end finalization covers about 38,000 invoices",
     "It runs from 00:00 UTC on the 1st, parallel across customers, and normally finishes by 03:30 UTC. The "
     "load test target is 50,000.", 0.6, ("invoices", "month-end")),
    ("fact", "Stripe's webhook endpoint is pinned to API version 2024-06-20",
     "The same version is set in `stripe.api_version`; change both together and replay a day of events in "
     "staging first.", 0.65, ("stripe", "webhooks")),
    ("fact", "Support can pause dunning for a customer from the admin dashboard",
     "The \"Hold collections\" button sets `dunning_hold_until`; the worker skips the customer until then. "
     "Finance sees held customers in the weekly AR report.", 0.45, ("dunning", "support")),
    ("preference", "Small pull requests, one concern each",
     "Reviewers here prefer three small pull requests over one large one; a migration, the code that uses it "
     "and the cleanup go separately.", 0.5, ("process",)),
    ("preference", "Explicit SQL in `text()` for reports, the ORM for domain code",
     "Reports are easier to review as SQL; domain code keeps the ORM so invariants live in one place.", 0.45,
     ("postgres", "style")),
    ("preference", "Name money fields with their unit",
     "`amount_minor`, `credit_minor`, `fee_bps`: a field name says its unit so no one has to guess.", 0.6,
     ("money", "style")),
    ("preference", "Tests use the injected Clock, never freezegun",
     "Maya prefers explicit clocks passed to constructors; freezegun misses C extensions and the database.",
     0.55, ("testing", "time")),
    ("preference", "Log with structured fields, not f-strings",
     "`log.info(\"invoice.finalized\", invoice_id=..., entity=...)` so every field is searchable.", 0.4,
     ("logging", "style")),
    ("preference", "Prefer returning domain errors to raising HTTP exceptions in the domain",
     "Domain code raises `acme_billing.errors.*`; only the API layer knows HTTP status codes.", 0.5,
     ("api", "style")),
    ("preference", "Write the runbook step before automating it",
     "Jonas wants a manual procedure that worked twice before anyone scripts it.", 0.35, ("process",)),
    ("preference", "Answer support in the customer's invoice language",
     "Templates for the common billing questions exist in all four invoice languages.", 0.3,
     ("support", "i18n")),
    ("pattern", "Idempotency key first, side effects second",
     "Every money-moving path records its idempotency key in the same transaction that decides to act, then "
     "performs the side effect; a retry finds the key and returns the recorded result.", 0.9,
     ("idempotency", "payments")),
    ("pattern", "Outbox for every side effect that leaves the database",
     "Emails, Stripe calls that can be deferred and export uploads are written as outbox rows in the business "
     "transaction and performed by a relay.", 0.8, ("outbox",)),
    ("pattern", "Read-decide-write under one advisory lock per customer",
     "Finalization, proration and dunning for one customer take the customer's advisory lock first, so two "
     "workers never decide from the same state.", 0.85, ("locks",)),
    ("pattern", "Celery tasks take ids and reload state",
     "A task argument is an id; the task loads fresh state and checks it is still relevant before acting, so a "
     "delayed or duplicated task does no harm.", 0.7, ("celery",)),
    ("pattern", "Table-driven fakes for external providers",
     "The tax provider, the email provider and the exchange-rate feed each have a fake driven by a table of "
     "inputs and answers, shared by unit tests and local development.", 0.55, ("testing",)),
    ("pattern", "Feature flag, canary, widen, delete",
     "Risky changes ship dark behind a per-customer flag, run on canary pods, widen in steps and lose the old "
     "path one release later.", 0.6, ("flags", "deploys")),
    ("procedure", "Re-run month-end finalization for one customer",
     "1. Hold collections for the customer in the admin dashboard.\n2. `make finalize CUSTOMER=<id> "
     "PERIOD=<yyyy-mm> DRY_RUN=1` and compare with the preview.\n3. Run it without DRY_RUN; the advisory lock "
     "makes a concurrent run wait.\n4. Release the hold.", 0.7, ("invoices", "month-end")),
    ("procedure", "Rotate the Stripe webhook signing secret",
     "1. Add a second endpoint secret in the Stripe dashboard (Stripe signs with both for 24 hours).\n2. Deploy "
     "with both secrets in `STRIPE_WEBHOOK_SECRETS`.\n3. After 24 hours remove the old secret from Stripe and "
     "from the config.", 0.6, ("stripe", "webhooks", "security")),
    ("procedure", "Issue a credit note",
     "1. Open the finalized invoice in the admin dashboard and choose \"Credit note\".\n2. Pick the lines and a "
     "reason code; the amount is computed, never typed.\n3. The credit note is numbered in the invoice's series "
     "and emailed through the outbox.", 0.55, ("invoices", "support")),
    ("procedure", "Handle a GDPR erasure request",
     "1. Verify the requester through support's identity check.\n2. Queue the request in the admin dashboard; "
     "the erasure job runs nightly.\n3. Check the job's report lists PDFs, exports and email logs as handled.\n"
     "4. Reply within 30 days with the report's reference.", 0.7, ("gdpr", "compliance")),
    ("observation", "Hard declines are 18% of failed payments",
     "Over the last quarter, `do_not_honor`, `stolen_card` and `lost_card` made up 18% of failures and none "
     "recovered by retrying.", 0.6, ("dunning", "payments")),
    ("observation", "Day-3 retries recover the most revenue",
     "Of the revenue dunning recovered last quarter, 41% came on the day-3 retry, 27% on day 1, 19% on day 5 "
     "and 13% on day 7.", 0.55, ("dunning", "metrics")),
    ("preference", "Migrations named after what they change, not the ticket",
     "`add_plan_tiers_table`, not `billing_1234`: the Alembic history should read like a changelog.", 0.3,
     ("migrations", "style")),
    ("preference", "Review money-moving code with two approvals",
     "Anything under `acme_billing/` that creates a charge, refund or credit note waits for two reviewers, one "
     "of them from the payments rotation.", 0.65, ("process", "money")),
    ("preference", "Keep Celery task bodies under 50 lines",
     "A task loads state, calls one domain function and records the result; logic lives in the domain module "
     "where it can be tested without a broker.", 0.4, ("celery", "style")),
    ("preference", "Prefer `pytest.mark.parametrize` tables for currency cases",
     "JPY, USD and BHD (0, 2 and 3 decimals) appear in every money test as one parametrized table.", 0.35,
     ("testing", "money")),
    ("pattern", "Every scheduled job records a run row",
     "Beat jobs insert a row with start time, end time, counts and error into their `*_runs` table, so \"did "
     "last night's reconciliation run?\" is a query, not a log search.", 0.55, ("celery", "observability")),
    ("pattern", "Compute in the domain, render at the edge",
     "Domain functions return `Money` and aware datetimes; only templates, PDFs and the API format them for a "
     "locale or timezone.", 0.6, ("money", "time")),
    ("pattern", "Preview and commit share one code path",
     "Invoice previews run the real finalization inside a transaction that is rolled back, so the preview "
     "cannot drift from the invoice.", 0.75, ("invoices",)),
    ("pattern", "Provider responses are validated like user input",
     "Stripe, the tax provider and the email provider answers go through pydantic models; a 200 with an "
     "unexpected shape is an error, not data.", 0.7, ("stripe", "tax")),
    ("observation", "Support tickets about invoices drop after the preview redesign",
     "Invoice-related tickets fell from about 140 to 85 a month once the preview showed per-line proration.",
     0.4, ("support", "invoices")),
    ("observation", "Most late usage events come from the Android client",
     "Of the events that re-opened a closed rollup hour last month, 83% came from Android app versions before "
     "4.12, which buffer offline events without a cap.", 0.5, ("usage", "mobile")),
    ("observation", "Test suite runtime is dominated by Stripe test clock tests",
     "The 40 tests that use test clocks take 6 of the suite's 9 minutes; they run in a separate CI job.", 0.35,
     ("testing", "ci")),
    ("fact", "Invoices are retained for ten years, PDFs included",
     "German and French law both require ten years; the erasure job pseudonymises personal fields but keeps "
     "the documents.", 0.8, ("compliance", "gdpr")),
    ("todo", "Document the advisory lock keys in ARCHITECTURE.md",
     "Which entity id and which customer sequence, and who takes the lock; asked for twice in review.", 0.3,
     ("locks", "docs")),
    ("todo", "Ask finance whether credit notes need their own series in Spain",
     "Spain allows a rectifying-invoice series; finance has to choose before the Spanish entity launches.", 0.35,
     ("compliance",)),
    ("note", "Month-end war room starts at 23:30 UTC on the last day",
     "Whoever is on call joins the #month-end channel; finance joins at 07:00 UTC on the 1st.", 0.3,
     ("month-end",)),
)

# Older memories a later one replaced: (start of the newer one's title, kind, title, body).
SUPERSEDED_MEMORIES = (
    ("Reject usage events older than 72", "decision", "Reject usage events older than 24 hours at ingestion",
     "Events older than a day are rejected with 422; late clients must drop them."),
    ("Dunning emails use the customer's", "decision", "Dunning emails are sent in English only",
     "One template set is all we can maintain for now; translations later."),
    ("Admin invoice search uses a trigram", "decision", "Admin invoice search uses ILIKE on the customer name",
     "A sequential scan is fine at our size; revisit when it passes 500 ms."),
    ("Webhook tasks retry with", "decision", "Webhook tasks fail at once when the payment row is missing",
     "A missing row means a bug; fail loudly and let Sentry tell us."),
)


def demo_memories(now: datetime) -> list[dict]:
    """The demo's memories, as `schema.add_memories` takes them; the same for the same `now`."""
    rng = random.Random(MEMORY_SEED)
    drafts: list[dict] = []

    def draft(kind, title, body, importance, tags, age=None, project=MEMORY_PROJECT) -> dict:
        memory = dict(kind=kind, title=title, body=body, importance=round(importance, 2), tags=list(tags),
                      project=project, age=age if age is not None else min(420.0, rng.expovariate(1 / 70)))
        drafts.append(memory)
        return memory

    for kind, title, body, importance, tags in MEMORIES:
        draft(kind, title, body, importance, tags, project=None if kind == "preference" else MEMORY_PROJECT)
    handwritten = list(drafts)
    for newer, kind, title, body in SUPERSEDED_MEMORIES:
        replacement = next(m for m in handwritten if m["title"].startswith(newer))
        old = draft(kind, title, body, max(0.1, replacement["importance"] - 0.2), replacement["tags"],
                    age=replacement["age"] + rng.uniform(40, 200))
        old["superseded_by"] = replacement

    for Name, name, module, table, metric, slug, tags in COMPONENTS:
        (exc, message, why), (exc2, message2, why2) = rng.sample(ERRORS, 2)
        fix_a, fix_b = rng.sample(FIXES, 2)
        a = rng.randrange(40, 400)
        slots = dict(
            Name=Name, name=name, module=module, table=table, metric=metric, slug=slug,
            person=rng.choice(PEOPLE), n=rng.randrange(3, 60), a=a, b=a * rng.randrange(3, 12),
            pct=rng.randrange(3, 25), rows=rng.randrange(2, 480), wait=rng.choice(SLOW_PARTS).format(table=table),
            warning=rng.choice(WARNINGS), weekday=rng.choice(WEEKDAYS), exc=exc, message=message, why=why,
            exc2=exc2, message2=message2, why2=why2,
            fix_title=fix_a[0], symptom=fix_a[1], cause=fix_a[2], fix=fix_a[3], issue=rng.randrange(200, 990),
            fix_title2=fix_b[0], symptom2=fix_b[1], cause2=fix_b[2], fix2=fix_b[3], issue2=rng.randrange(200, 990),
        )
        for kind, title, body, likely in COMPONENT_TEMPLATES:
            if rng.random() >= likely:
                continue  # not every component has a memory of every sort
            importance = rng.betavariate(2, 2.5) + (0.15 if kind in ("decision", "procedure") else 0)
            draft(kind, title.format(**slots), body.format(**slots), min(1.0, importance), tags)

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
        memories.append(dict(
            id=ids[id(memory)], kind=memory["kind"], title=memory["title"], body=memory["body"],
            tags=memory["tags"], project=memory["project"], importance=memory["importance"],
            status=memory.get("status", "active"),
            superseded_by=ids[id(memory["superseded_by"])] if memory.get("superseded_by") else None,
            created_at=_utc(created), updated_at=_utc(created),
            last_accessed=_utc(max(at for at, _ in events)) if events else None,
            events=[(_utc(at), event, f"demo-session-{at:%m%d}") for at, event in events],
        ))
    return memories


def _demo_events(rng, created: datetime, now: datetime) -> list[tuple[datetime, str]]:
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
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_demo_memory_db(root: Path, now: datetime) -> Path:
    """Create the demo's `.context/memory.db` (ctxtui's schema) and return its path.

    Called by `write_demo` after `.context/` is written; refuses to touch an
    existing file, as `write_demo` has just removed the old one.
    """
    from ctxtui.engine.sources.memory.schema import add_memories

    path = demo_memory_db_path(root)
    if path.exists():
        raise FileExistsError(f"{path} exists; the demo database is only written fresh")
    add_memories(path, demo_memories(now))
    return path
