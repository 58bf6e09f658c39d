"""Named Shabka stores, each built to show one behaviour of `context-pack`, and the command lines run on them.

`make_expected.py` runs Shabka (the oracle) on each and records what it
printed in `expected/`; `test_expected_outputs.py` rebuilds the stores with
the factory and checks the packer prints the same bytes.
"""

from __future__ import annotations

from typing import Any

from tests.factories.shabka_dbs import memory as mem
from tests.factories.shabka_dbs import relation as rel

NOW = "2025-06-01T12:00:00Z"

CASES: dict[str, dict[str, Any]] = {}

# Defaults, '*', importance 0.35 / 1.0 as printed, non-ASCII, archived and superseded packed, pending
# dropped, relations (graph and contradicts), -k in any case, -t any-of and exact, -p, --tokens 0, bad -k.
CASES["basic"] = dict(
    memories=[
        mem(
            1,
            "Use SQLite for storage",
            "We chose SQLite because it is embedded, needs no server and ships in one file.",
            kind="decision",
            tags=["db", "storage"],
            importance=0.35,
            verification="verified",
        ),
        mem(
            2,
            "Café naïve Straße",
            "Ünïcödé — content with “quotes” and 日本語 text.",
            importance=1.0,
            privacy="public",
            created_by="bob",
            created_at="2025-04-01T08:30:00.123Z",
            source={"type": "auto_capture", "hook": "post-tool"},
        ),
        mem(
            3,
            "Old caching approach",
            "Superseded by the LRU cache.",
            kind="pattern",
            status="superseded",
            tags=["cache"],
            created_at="2025-03-01T00:00:00Z",
        ),
        mem(
            4,
            "Archived lesson",
            "Always pin the toolchain.",
            kind="lesson",
            status="archived",
            importance=0.8,
            verification="outdated",
            source={"type": "import"},
        ),
        mem(5, "Pending review item", "This memory awaits approval.", kind="todo", status="pending", privacy="public"),
        mem(
            6,
            "Retry with backoff",
            "Transient HTTP 503s are retried three times with exponential backoff.",
            kind="fix",
            tags=["http", "retry"],
            importance=0.7,
            source={"type": "derived", "from": "0197a000-0000-7000-8000-000000000001"},
            accessed_at="2025-05-31T12:00:00Z",
        ),
    ],
    relations=[rel(6, 1), rel(6, 2), rel(6, 3, "caused_by"), rel(1, 6, "contradicts"), rel(2, 1)],
    runs=[
        [],
        ["--json"],
        ["sqlite storage"],
        ["sqlite storage", "--json"],
        ["retyr bakcoff"],
        ["*"],
        ["--tokens", "70"],
        ["-k", "FIX"],
        ["-k", "fact", "--json"],
        ["-t", "db", "-t", "cache"],
        ["-t", "DB"],
        ["-p", "proj"],
        ["--tokens", "0"],
        ["-k", "bogus"],
    ],
)

# Private memories of other users; the legacy creators `default` and `shabka-hooks` are visible to all.
CASES["privacy"] = dict(
    memories=[
        mem(1, "Alice private note", "only alice may see this one", created_by="alice"),
        mem(2, "Bob private note", "only bob may see this one", created_by="bob"),
        mem(3, "Team note", "everyone on the team", privacy="team", created_by="bob"),
        mem(4, "Legacy default note", "created_by default is visible", created_by="default"),
        mem(5, "Hooks note", "created_by shabka-hooks is visible", created_by="shabka-hooks"),
        mem(6, "Public note", "public to all", privacy="public", created_by="carol"),
    ],
    runs=[[], ["note"]],
    users=["alice", "bob", "mallory"],
)

# Equal distances: the later-inserted embedding (higher rowid) first, all else equal.
CASES["ties"] = dict(
    memories=[mem(n, f"Tie {n}", "same body", privacy="public", _embed={"text": "identical"}) for n in (5, 3, 1, 4, 2)]
    + [mem(9, "Different", "same body", privacy="public")],
    runs=[["identical"], ["identical", "--json"], []],
)

# The second-ranked memory does not fit: the pack stops, though the third would fit.
CASES["budget_stop"] = dict(
    memories=[
        mem(1, "Small first", "tiny", importance=1.0, verification="verified", tags=["a"]),
        mem(2, "Huge second", "x" * 800, importance=0.9, verification="verified", tags=["a"]),
        mem(3, "Small third", "tiny too", importance=0.1),
    ],
    runs=[
        ["--tokens", "100"],
        ["--tokens", "100", "--json"],
        ["--tokens", "24"],
        ["--tokens", "23"],
        ["--tokens", "300"],
    ],
)

# Filters after the KNN cut: 61 memories, the 50 nearest taken first.
CASES["knn_cut"] = dict(
    memories=[
        mem(
            n,
            "Memory number %d about %s" % (n, ["rust", "python", "sqlite"][n % 3]),
            "body %d" % n,
            privacy="public",
            project_id=["alpha", "beta", None][n % 3],
            kind=["fact", "decision", "lesson", "todo"][n % 4],
            tags=[["x"], ["y"], []][n % 3],
            created_at="2025-05-%02dT00:00:00Z" % (1 + n % 28),
        )
        for n in range(1, 61)
    ]
    + [
        mem(
            99,
            "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz far away",
            "far",
            privacy="public",
            project_id="alpha",
            _embed={"text": "\u00ff" * 300},
        )
    ],
    runs=[
        ["rust", "--tokens", "5000"],
        ["rust", "-p", "alpha", "--tokens", "5000"],
        ["rust", "-k", "decision", "--tokens", "5000"],
        ["rust", "-t", "y", "--json", "--tokens", "400"],
        ["python", "-p", "beta", "-k", "lesson"],
    ],
)

# An orphan vector, a memory without one, dates written with offsets, an upper-case id, tiny importances.
CASES["oddities"] = dict(
    memories=[
        mem(1, "Offset dates", "created with a negative offset", privacy="public", importance=3.5e-7),
        mem(2, "No embedding row", "never found by the KNN", privacy="public", _embed="none"),
        mem(3, "Uppercase id", "id stored in upper case", privacy="public", importance=0.1),
        mem(4, "Tiny importance", "0.00000035 vs 3.5e-7", privacy="public", importance=0.001953125),
    ],
    relations=[rel(3, 1), rel(3, 4)],
    sql=[
        "INSERT INTO embeddings (memory_id, vector, dimensions) VALUES "
        "('0197a000-0000-7000-8000-0000000000ff', zeroblob(512), 128)",
        "UPDATE memories SET created_at='2025-05-31 23:30:00.5-02:00', "
        "accessed_at='2025-06-01T10:00:00+05:30' WHERE id='0197a000-0000-7000-8000-000000000001'",
        "UPDATE memories SET id=upper(id) WHERE id='0197a000-0000-7000-8000-000000000003'",
        "UPDATE embeddings SET memory_id=upper(memory_id) WHERE memory_id='0197a000-0000-7000-8000-000000000003'",
    ],
    runs=[[], ["--json"], ["offset"]],
)

# A store embedded elsewhere (768-d vectors): the hash query finds nothing.
CASES["dims768"] = dict(
    memories=[mem(1, "Ollama memory", "embedded elsewhere", privacy="public", _embed={"vector": [0.01] * 768})],
    runs=[[]],
)

# A row Shabka cannot read (the schema default '"manual"' as source): exit 1.
CASES["bad_row"] = dict(
    memories=[mem(1, "Broken source", "x", privacy="public")],
    sql=["UPDATE memories SET source='\"manual\"'"],
    runs=[[]],
)

# Leap seconds, a year-0 date that lands in year -1, U+2212 as the offset's minus, f32 ties in both printers.
CASES["chrono"] = dict(
    memories=[
        mem(1, "Leap second", "created at 23:59:60.5", privacy="public", importance=19781.0625),
        mem(2, "Year zero", "0000-01-01T00:30:00+01:00 is in year -1", privacy="public", importance=1e13),
        mem(3, "Minus sign", "an offset written with U+2212", privacy="public", importance=1e-7),
        mem(4, "Nanoseconds", "ten fraction digits", privacy="public", importance=0.000001),
    ],
    sql=[
        "UPDATE memories SET created_at='2025-05-31t23:59:60.5z', accessed_at='2025-05-31T23:59:60Z' "
        "WHERE id='0197a000-0000-7000-8000-000000000001'",
        "UPDATE memories SET created_at='0000-01-01T00:30:00+01:00' WHERE id='0197a000-0000-7000-8000-000000000002'",
        "UPDATE memories SET created_at='2025-05-20T10:00:00\u221201:30' "
        "WHERE id='0197a000-0000-7000-8000-000000000003'",
        "UPDATE memories SET created_at='2025-05-01T00:00:00.1234567891Z', updated_at='2025-05-01T00:00:00.1Z' "
        "WHERE id='0197a000-0000-7000-8000-000000000004'",
    ],
    runs=[[], ["--json"], ["leap", "--json"]],
)

# Serde's other spellings Shabka accepts: sequence-form sources, braced and urn ids, escaped kind names.
CASES["serde_forms"] = dict(
    memories=[
        mem(1, "Sequence source", "source stored as a JSON array", privacy="public"),
        mem(2, "Braced id", "id in braces", privacy="public"),
        mem(3, "Urn id", "id as a URN", privacy="public"),
        mem(4, "Escaped kind", "kind spelled with a JSON escape", privacy="public"),
        mem(5, "Extra keys", "source with keys serde ignores", privacy="public", tags=["db"]),
    ],
    sql=[
        "UPDATE memories SET source='[\"auto_capture\",\"hook\"]' WHERE id='0197a000-0000-7000-8000-000000000001'",
        "UPDATE memories SET id='{'||id||'}' WHERE id='0197a000-0000-7000-8000-000000000002'",
        "UPDATE embeddings SET memory_id='{'||memory_id||'}' WHERE memory_id='0197a000-0000-7000-8000-000000000002'",
        "UPDATE memories SET id='urn:uuid:'||id WHERE id='0197a000-0000-7000-8000-000000000003'",
        "UPDATE embeddings SET memory_id='urn:uuid:'||memory_id WHERE memory_id='0197a000-0000-7000-8000-000000000003'",
        "UPDATE memories SET kind='fa\\u0063t' WHERE id='0197a000-0000-7000-8000-000000000004'",
        'UPDATE memories SET source=\'{"type":"manual","note":[1,{"x":null}]}\' '
        "WHERE id='0197a000-0000-7000-8000-000000000005'",
    ],
    runs=[[], ["--json"], ["-k", "FACT", "--json"]],
)
