"""Shabka stores for tests and benches, written the way Shabka writes them.

`write_store` takes a spec — memories as serde reads a `Memory` (plus an
optional `_embed`), relations, and raw SQL run afterwards — the same spec the
oracle's seeder (`shabka-oracle-seed OUT.db SPEC.json`, Shabka's own
`save_memory`/`add_relation`) takes, and writes what those calls write
(`core/storage/sqlite.rs:658-726, 1083-1105`): `INSERT OR REPLACE` (so a
re-saved memory's embedding moves to the end), enums bare, JSON compact,
importance as f32 widened, dates by `to_rfc3339()` (`+00:00`), the vector as
little-endian f32 of the hash embedding of `title\\nsummary\\ntags joined ", "`.
`_embed` may be "none" (no embedding row), {"text": …} (the hash of that text)
or {"vector": […]} (that vector, as f32).

`random_spec` / `random_args` make the differential cases (ordinary memories
plus, with `odd=True`, the rows and vectors that exercise Shabka's corners:
foreign date forms, leap seconds, ids in other UUID spellings, rows Shabka
cannot read, NaN and zero vectors, minority dimensions, distance ties).
`bulk_store` writes n ordinary memories fast, for benches.
Nothing here reads the clock; the same arguments give the same store.
"""

from __future__ import annotations

import json
import random
import sqlite3
import struct
from pathlib import Path
from typing import Any

import numpy as np
from ctxtui.engine.packers.shabka.dates import format_rfc3339, parse_rfc3339
from ctxtui.engine.packers.shabka.embed import hash_embed
from ctxtui.engine.packers.shabka.floats import f32

from tests.factories import words

# `core/storage/sqlite.rs:164-217` and `:309-313`, verbatim.
DDL = """
CREATE TABLE IF NOT EXISTS memories (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '[]',
    source TEXT NOT NULL DEFAULT '"manual"',
    scope TEXT NOT NULL DEFAULT '"global"',
    importance REAL NOT NULL DEFAULT 0.5,
    status TEXT NOT NULL DEFAULT 'active',
    privacy TEXT NOT NULL DEFAULT 'private',
    verification TEXT NOT NULL DEFAULT 'unverified',
    project_id TEXT,
    session_id TEXT,
    created_by TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    accessed_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS embeddings (
    memory_id TEXT PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    vector BLOB NOT NULL,
    dimensions INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS relations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    target_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    relation_type TEXT NOT NULL DEFAULT 'related',
    strength REAL NOT NULL DEFAULT 0.5,
    UNIQUE(source_id, target_id, relation_type)
);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    project_id TEXT,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    summary TEXT,
    memory_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS idx_memories_created_at ON memories(created_at DESC);
CREATE INDEX IF NOT EXISTS idx_memories_project_id ON memories(project_id);
CREATE INDEX IF NOT EXISTS idx_memories_status ON memories(status);
CREATE INDEX IF NOT EXISTS idx_memories_session_id ON memories(session_id);
CREATE INDEX IF NOT EXISTS idx_relations_source ON relations(source_id);
CREATE INDEX IF NOT EXISTS idx_relations_target ON relations(target_id);
CREATE TABLE IF NOT EXISTS metadata (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT OR REPLACE INTO metadata (key, value) VALUES ('last_writer_version', '0.5.2');
PRAGMA user_version = 1;
"""

NOW = "2025-06-01T12:00:00Z"


def uuid_of(n: int) -> str:
    return "0197a000-0000-7000-8000-%012d" % n


def memory(n: int, title: str, content: str = "", **fields: Any) -> dict[str, Any]:
    """A spec memory with Shabka's defaults (`Memory::new`), id derived from `n`."""
    spec: dict[str, Any] = {
        "id": uuid_of(n),
        "kind": "fact",
        "title": title,
        "content": content,
        "summary": content if len(content.encode()) <= 200 else content.encode()[:200].decode(errors="ignore") + "...",
        "tags": [],
        "source": {"type": "manual"},
        "scope": {"type": "global"},
        "importance": 0.5,
        "status": "active",
        "privacy": "private",
        "verification": "unverified",
        "project_id": None,
        "session_id": None,
        "created_by": "alice",
        "created_at": "2025-05-25T12:00:00Z",
        "updated_at": "2025-05-25T12:00:00Z",
        "accessed_at": "2025-05-25T12:00:00Z",
    }
    spec.update(fields)
    return spec


def relation(a: int, b: int, kind: str = "related") -> dict[str, Any]:
    return {"source_id": uuid_of(a), "target_id": uuid_of(b), "relation_type": kind, "strength": 0.5}


def _compact(value: Any) -> str:
    """serde_json::to_string: compact, non-ASCII raw."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _stored_date(text: str) -> str:
    return format_rfc3339(parse_rfc3339(text), zulu=False)


def embedding_text(m: dict[str, Any]) -> str:
    """`Memory::embedding_text` (`model/memory.rs:165-168`)."""
    return f"{m['title']}\n{m['summary']}\n{', '.join(m['tags'])}"


def _vector(m: dict[str, Any]) -> np.ndarray | None:
    how = m.get("_embed", "auto")
    if how == "none":
        return None
    if how == "auto":
        return hash_embed(embedding_text(m))
    if "text" in how:
        return hash_embed(how["text"])
    return np.array([f32(float(x)) for x in how["vector"]], dtype=np.float32)


def _row(m: dict[str, Any]) -> tuple:
    return (
        m["id"].lower(),
        m["kind"],
        m["title"],
        m["content"],
        m["summary"],
        _compact(m["tags"]),
        _compact(m["source"]),
        _compact(m["scope"]),
        f32(float(m["importance"])),
        m["status"],
        m["privacy"],
        m["verification"],
        m["project_id"],
        m["session_id"],
        m["created_by"],
        _stored_date(m["created_at"]),
        _stored_date(m["updated_at"]),
        _stored_date(m["accessed_at"]),
    )


def write_store(
    path: str | Path,
    memories: list[dict[str, Any]],
    relations: list[dict[str, Any]] = (),
    sql: list[str] = (),
    *,
    wal: bool = False,
) -> Path:
    """A Shabka store holding `memories` and `relations`, then `sql` run on it; rollback journal unless `wal`."""
    p = Path(path)
    if p.exists():
        raise FileExistsError(p)
    conn = sqlite3.connect(p, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = OFF")  # a test file: no fsync (the bytes written are the same)
        conn.executescript(DDL)
        conn.execute("PRAGMA foreign_keys = ON")  # as Shabka: a re-saved memory cascades to its embedding
        conn.execute("BEGIN")
        for m in memories:
            conn.execute(
                "INSERT OR REPLACE INTO memories (id, kind, title, content, summary, tags, source, scope, importance, "
                "status, privacy, verification, project_id, session_id, created_by, created_at, updated_at, "
                "accessed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                _row(m),
            )
            vector = _vector(m)
            if vector is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO embeddings (memory_id, vector, dimensions) VALUES (?, ?, ?)",
                    (m["id"].lower(), vector.astype("<f4").tobytes(), len(vector)),
                )
        for r in relations:
            conn.execute(
                "INSERT OR REPLACE INTO relations (source_id, target_id, relation_type, strength) VALUES (?, ?, ?, ?)",
                (r["source_id"], r["target_id"], r["relation_type"], r["strength"]),
            )
        conn.execute("COMMIT")
        conn.execute("PRAGMA foreign_keys = OFF")  # the seeder's raw SQL runs without them
        if sql:
            conn.executescript(";\n".join(sql))
        if wal:
            conn.execute("PRAGMA journal_mode = WAL")
    finally:
        conn.close()
    return p


def write_spec(path: str | Path, spec: dict[str, Any], *, wal: bool = False) -> Path:
    return write_store(path, spec["memories"], spec.get("relations", []), spec.get("sql", []), wal=wal)


# ---------------------------------------------------------------- random cases

WORDS = [
    "sqlite",
    "storage",
    "rust",
    "python",
    "cache",
    "token",
    "budget",
    "rank",
    "memory",
    "vector",
    "a",
    "I",
    "é",
    "—",
    "ok",
    "db",
    "Café",
    "naïve",
    "ΣΟΦΊΑ",
    "straße",
    "日本語",
    "x",
    "to",
    "of",
    "and",
    "decision",
    "fix",
    "bug",
    "retry",
    "timeout",
    "graph",
    "trust",
    "*",
    "v2",
    "İstanbul",
    "ǅemal",
    "ﬁle",
    "KELVIN",
    "tab\there",
    "new\nline",
    "emoji😀",
    'q"uote',
    "back\\slash",
    "\u00a0nbsp",
    "Ꞌ",
    "\u2003em",
    "x\u001fy",
]
KINDS = ("observation", "decision", "pattern", "error", "fix", "preference", "fact", "lesson", "todo", "procedure")
USERS = ["alice", "bob", "default", "shabka-hooks", "carol", ""]
PROJECTS = [None, "proj", "other", "Proj", ""]
QUERIES = [
    "",
    "",
    "sqlite",
    "sqlite storage",
    "sqlte",
    "stroage cache",
    "CAFÉ",
    "*",
    "a",
    "日本",
    "decison",
    "   ",
    "bug fix retry",
    "ΣΟΦΙΑ",
    "ꞌ",
    "x\u001fy",
    "emoji😀 ok",
]
NOWS = ["2025-06-01T12:00:00Z", "2025-05-15T00:00:00.5Z", "2026-01-01T00:00:00Z", "2025-05-20T10:00:00+02:00"]


def _text(rng: random.Random, lo: int, hi: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def _date(rng: random.Random) -> str:
    day, month = rng.randint(1, 28), rng.choice([4, 5, 6])
    h, mi, s = rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)
    frac = rng.choice(["", ".5", ".123", ".123456", ".000000001", ".999999999"])
    return f"2025-{month:02d}-{day:02d}T{h:02d}:{mi:02d}:{s:02d}{frac}Z"


def _importance(rng: random.Random) -> float:
    if rng.random() < 0.3:
        return rng.choice([0.35, 1.0, 0.0, 0.5, 0.1, 0.3, 0.7, 0.05, 0.9, 3.5e-7, 0.001953125, 0.123456789])
    return rng.random()


# Rows and vectors that take Shabka down its less travelled paths, as raw SQL on one memory (`{id}`).
ODD_ROWS = [
    "UPDATE memories SET created_at='2025-05-03 23:30:00.25-02:00', accessed_at='2025-05-10T01:00:00+05:30' "
    "WHERE id='{id}'",
    "UPDATE memories SET created_at='2025-05-31t23:59:60.5z' WHERE id='{id}'",
    "UPDATE memories SET accessed_at='2025-06-30T23:59:60Z', created_at='2025-05-01T00:00:00.1234567891Z' "
    "WHERE id='{id}'",
    "UPDATE memories SET created_at='0000-01-01T00:30:00+01:00' WHERE id='{id}'",
    "UPDATE memories SET created_at='2025-05-20T10:00:00\u221201:30' WHERE id='{id}'",
    "UPDATE memories SET created_at='2025-02-30T10:00:00Z' WHERE id='{id}'",
    "UPDATE memories SET created_at='2025-05-20T10:00:00+24:00' WHERE id='{id}'",
    "UPDATE memories SET created_at='2025-05-20T10:00:00' WHERE id='{id}'",
    "UPDATE memories SET source='\"manual\"' WHERE id='{id}'",
    "UPDATE memories SET source='[\"manual\"]' WHERE id='{id}'",
    "UPDATE memories SET source='[\"auto_capture\",\"hook\"]' WHERE id='{id}'",
    'UPDATE memories SET source=\'{{"type":"manual","extra":[1,2]}}\' WHERE id=\'{id}\'',
    'UPDATE memories SET source=\'{{"type":"manual","type":"manual"}}\' WHERE id=\'{id}\'',
    'UPDATE memories SET source=\'{{"type":"derived","from":"{{{id}}}"}}\' WHERE id=\'{id}\'',
    'UPDATE memories SET scope=\'{{"type":"session","id":"not-a-uuid"}}\' WHERE id=\'{id}\'',
    "UPDATE memories SET kind='Fact' WHERE id='{id}'",
    "UPDATE memories SET kind='fa\\u0063t' WHERE id='{id}'",
    "UPDATE memories SET status='Archived' WHERE id='{id}'",
    "UPDATE memories SET status='' WHERE id='{id}'",
    "UPDATE memories SET status='pending' WHERE id='{id}'",
    "UPDATE memories SET tags='[\"a\",1]' WHERE id='{id}'",
    "UPDATE memories SET tags='\"solo\"' WHERE id='{id}'",
    'UPDATE memories SET tags=\'["db","db","x"]\' WHERE id=\'{id}\'',
    "UPDATE memories SET importance='high' WHERE id='{id}'",
    "UPDATE memories SET importance=1 WHERE id='{id}'",
    "UPDATE memories SET importance=1e39 WHERE id='{id}'",
    "UPDATE memories SET importance=-0.0 WHERE id='{id}'",
    "UPDATE memories SET importance=19781.0625 WHERE id='{id}'",
    "UPDATE memories SET session_id='{id}' WHERE id='{id}'",
    "UPDATE memories SET session_id='bogus' WHERE id='{id}'",
    "UPDATE memories SET id=upper(id) WHERE id='{id}'; "
    "UPDATE embeddings SET memory_id=upper(memory_id) WHERE memory_id='{id}'",
    "UPDATE memories SET id='{{'||id||'}}' WHERE id='{id}'; "
    "UPDATE embeddings SET memory_id='{{'||memory_id||'}}' WHERE memory_id='{id}'",
    "UPDATE memories SET id='urn:uuid:'||id WHERE id='{id}'; "
    "UPDATE embeddings SET memory_id='urn:uuid:'||memory_id WHERE memory_id='{id}'",
    "UPDATE memories SET id=replace(id,'-','') WHERE id='{id}'; "
    "UPDATE embeddings SET memory_id=replace(memory_id,'-','') WHERE memory_id='{id}'",
    "UPDATE memories SET id='x'||id WHERE id='{id}'; UPDATE embeddings SET memory_id='x'||memory_id "
    "WHERE memory_id='{id}'",
    "UPDATE embeddings SET vector=zeroblob(512) WHERE memory_id='{id}'",
    "UPDATE embeddings SET vector=X'0000C07F" + "00" * 508 + "' WHERE memory_id='{id}'",  # NaN first
    "UPDATE embeddings SET vector=X'0000807F" + "00" * 508 + "' WHERE memory_id='{id}'",  # +inf first
    "UPDATE memories SET title='Title with trailing space \u3000 ', content='ends in white space \u2029\n\t ' "
    "WHERE id='{id}'",
    "DELETE FROM memories WHERE id='{id}'",
]


def random_spec(rng: random.Random, n: int, *, odd: bool = False) -> dict[str, Any]:
    """n random memories (some sharing an embedding text: distance ties), relations, and oddities when `odd`."""
    shared = [_text(rng, 1, 3) for _ in range(3)]
    mems = []
    for i in range(n):
        content = _text(rng, 0, 25)
        m = memory(
            0,
            _text(rng, 1, 5),
            content,
            id="%08x-0000-7000-8000-%012x" % (rng.getrandbits(32), i),
            kind=rng.choice(KINDS),
            summary=content[:40] if rng.random() < 0.8 else "",
            tags=rng.sample(["db", "rust", "Perf", "ops", "ünï", "a b", "x"], rng.randint(0, 3)),
            source=rng.choice(
                [
                    {"type": "manual"},
                    {"type": "auto_capture", "hook": "h"},
                    {"type": "import"},
                    {"type": "derived", "from": "00000000-0000-7000-8000-000000000000"},
                ]
            ),
            scope=rng.choice([{"type": "global"}, {"type": "project", "id": "proj"}]),
            importance=_importance(rng),
            status=rng.choices(["active", "archived", "superseded", "pending"], [6, 1, 1, 1])[0],
            privacy=rng.choice(["public", "team", "private", "private"]),
            verification=rng.choice(["unverified", "verified", "disputed", "outdated"]),
            project_id=rng.choice(PROJECTS),
            created_by=rng.choice(USERS),
        )
        created = _date(rng)
        m["created_at"] = m["updated_at"] = created
        m["accessed_at"] = _date(rng) if rng.random() < 0.7 else created
        roll = rng.random()
        if roll < 0.15:
            m["_embed"] = {"text": rng.choice(shared)}
        elif roll < 0.2:
            m["_embed"] = "none"
        elif odd and roll < 0.23:
            m["_embed"] = {"vector": [rng.choice([0.5, -0.25, 0.0]) for _ in range(rng.choice([128, 768]))]}
        mems.append(m)
    if odd and mems and rng.random() < 0.2:  # a re-save: the embedding row moves to the end
        mems.append(dict(rng.choice(mems)))
    ids = [m["id"] for m in mems]
    rels = [
        {
            "source_id": rng.choice(ids),
            "target_id": rng.choice(ids),
            "relation_type": rng.choice(["caused_by", "fixes", "supersedes", "related", "contradicts", "contradicts"]),
            "strength": 0.5,
        }
        for _ in range(rng.randint(0, n))
    ]
    sql = []
    if rng.random() < 0.3:
        sql.append(
            "INSERT INTO embeddings (memory_id, vector, dimensions) VALUES "
            "('ffffffff-0000-7000-8000-000000000000', zeroblob(512), 128)"
        )
    if rng.random() < 0.3:
        sql.append(ODD_ROWS[0].format(id=rng.choice(ids)))
    if odd:
        for _ in range(rng.randint(1, 3)):
            sql.append(rng.choice(ODD_ROWS).format(id=rng.choice(ids)))
    return {"memories": mems, "relations": rels, "sql": sql}


def random_args(rng: random.Random) -> list[str]:
    """A `context-pack` command line: query, --tokens, -p, -k, -t..., --json."""
    args = []
    query = rng.choice(QUERIES)
    if query or rng.random() < 0.5:
        args.append(query)
    if rng.random() < 0.7:
        args += ["--tokens", str(rng.choice([0, 10, 30, 45, 60, 100, 200, 500, 2000]))]
    if rng.random() < 0.25:
        args += ["-p", rng.choice(["proj", "other", "none", ""])]
    if rng.random() < 0.2:
        args += ["-k", rng.choice(["fact", "Decision", "LESSON", "todo", "bogus"])]
    if rng.random() < 0.2:
        for tag in rng.sample(["db", "rust", "perf", "Perf", "ünï"], rng.randint(1, 2)):
            args += ["-t", tag]
    if rng.random() < 0.3:
        args.append("--json")
    return args


# ---------------------------------------------------------------- many memories, fast


def bulk_store(path: str | Path, n: int, seed: int = 1) -> Path:
    """n ordinary memories about software work (hash-embedded, all public), written in one transaction."""
    rng = random.Random(seed)
    p = Path(path)
    if p.exists():
        raise FileExistsError(p)
    conn = sqlite3.connect(p, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = OFF")
        conn.executescript(DDL)
        conn.execute("BEGIN")
        ids = []
        for i in range(n):
            kind = rng.choice(KINDS)
            title = f"{rng.choice(words.tool)} for {rng.choice(words.component)} #{i}"
            content = (
                f"We saw {rng.choice(words.symptom)} in {rng.choice(words.component)}, caused by "
                f"{rng.choice(words.cause)}; the fix is {rng.choice(words.practice)}."
            )
            tags = rng.sample(words.tag, rng.randint(0, 3))
            summary = content[:200]
            mid = "%08x-%04x-7000-8000-%012x" % (rng.getrandbits(32), rng.getrandbits(16), i)
            ids.append(mid)
            day = rng.randint(1, 28)
            stamp = f"2025-05-{day:02d}T{rng.randint(0, 23):02d}:00:00+00:00"
            conn.execute(
                "INSERT INTO memories (id, kind, title, content, summary, tags, source, scope, importance, status, "
                "privacy, verification, project_id, session_id, created_by, created_at, updated_at, accessed_at) "
                "VALUES (?, ?, ?, ?, ?, ?, '{\"type\":\"manual\"}', '{\"type\":\"global\"}', ?, 'active', 'public', "
                "'unverified', ?, NULL, 'alice', ?, ?, ?)",
                (
                    mid,
                    kind,
                    title,
                    content,
                    summary,
                    _compact(tags),
                    f32(rng.random()),
                    rng.choice(words.project),
                    stamp,
                    stamp,
                    stamp,
                ),
            )
            vector = hash_embed(f"{title}\n{summary}\n{', '.join(tags)}")
            conn.execute(
                "INSERT INTO embeddings (memory_id, vector, dimensions) VALUES (?, ?, 128)",
                (mid, struct.pack("<128f", *vector.tolist())),
            )
        for _ in range(n // 10):
            conn.execute(
                "INSERT OR IGNORE INTO relations (source_id, target_id, relation_type) VALUES (?, ?, ?)",
                (rng.choice(ids), rng.choice(ids), rng.choice(["related", "contradicts", "fixes"])),
            )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return p
