"""The built-in demo: a believable `.context/` for a fictional billing service.

`ctxtui demo` must show every interesting behaviour on first launch, with no
project of the user's: tasks whose keywords match some decisions and not
others, entries in every recency bracket, enough content that an 8000-token
budget has to choose, and a few of ctx's quirks (a `~~Superseded` decision, a
`**Status**: Superseded` one ctx does not notice, a task hidden in an HTML
comment, comment bullets counted as conventions, a constitution ctx never
reads). Dates are relative to the "now" the caller passes, so recency always
looks the same. The files live in a per-user cache directory and are rewritten
on every launch.
"""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timedelta
from pathlib import Path

__all__ = ["demo_memory_db_path", "demo_root", "prepare_demo", "write_demo"]

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
    """Write the demo project to `target` (its `.context/` replaced) and return `target`.

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

    `write_demo` removes it with the rest of `.context/` on every launch, so
    whoever creates it writes it after `write_demo`.
    """
    return Path(root) / ".context" / "memory.db"
