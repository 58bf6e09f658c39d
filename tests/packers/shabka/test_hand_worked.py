"""Hand-worked values from Shabka's source (v0.5.2 at 1a194cdf) and its own unit tests, one behaviour each.

Paths: `core/` is `crates/shabka-core/src/`, `vec.c` is sqlite-vec
0.1.7-alpha.10's `sqlite-vec.c`, `chrono/` is chrono 0.4.43's `src/`.
"""

from __future__ import annotations

import hashlib
import math
import struct
from pathlib import Path

import numpy as np
import pytest
from ctxtui.engine.packers.shabka import knn, rank
from ctxtui.engine.packers.shabka.dates import (
    DateError,
    Moment,
    format_date,
    format_rfc3339,
    parse_rfc3339,
    seconds_between,
)
from ctxtui.engine.packers.shabka.embed import _LOGF_ONE_DOWN, _LOGF_ONE_UP, glibc_logf, hash_embed
from ctxtui.engine.packers.shabka.floats import f32, rust_display, serde_json_f32
from ctxtui.engine.packers.shabka.memory import RowError, parse_memory, parse_uuid
from ctxtui.engine.packers.shabka.render import estimate_tokens, memory_cost
from ctxtui.engine.sources.memory.shabka.store import COLUMNS

from tests.factories.shabka_dbs import write_spec
from tests.packers.shabka.cases import CASES
from tests.packers.shabka.harness import packer_for, run_packer

NOW = parse_rfc3339("2025-06-01T12:00:00Z")


# ---------------------------------------------------------------- the hash embedder (core/embedding/hash.rs:25-41)


def test_hash_of_ab_worked_by_hand():
    # dim 0: (97-128)·0.01 · (logf(1)+1) = -0.31000000238; dim 1: (98-128)·0.01 · (logf(2)+1) = -0.50794410706;
    # divided by their norm.
    vec = hash_embed("ab")
    assert vec.dtype == np.float32
    assert float(vec[0]) == f32(-0.52094787359) and float(vec[1]) == f32(-0.85358840227)
    assert not vec[2:].any()


def test_hash_of_the_default_query_and_of_nothing():
    assert hash_embed("*").tolist() == [-1.0] + [0.0] * 127
    assert hash_embed("").tolist() == [0.0] * 128  # norm 0: left at zeros


# SHA-256 of the vectors Shabka's own HashEmbeddingProvider stored for these texts (written through
# SqliteStorage::save_memory by the oracle's seeder); the long texts cross logf's odd points n = 1579, 3100, 4935.
SHABKA_VECTORS = [
    ("ab", "535b64afb4e314bfe89738752f3962509cc6541e4015daf06382ead021e98b19"),
    ("*", "5d28ddb243d57dc77d4cf8d600c7731364c0dff85f00d1cbd12496e8e5e09a1a"),
    ("", "076a27c79e5ace2a3d47f9dd2e83e4ff6ea8872b3c2218f66c92b89b55f36560"),
    (
        "Use SQLite for storage\nWe chose SQLite\ndb, storage",
        "b8183f333cbb753fda239664f54b24f3e29eb1eb988148f93534acc3f4f6f114",
    ),
    ("é日本😀" * 400, "a7b58bb5f9d6b968624da39b61314be2dfca3036ef68b2f0638608f509d0fdf8"),
    (
        "The quick brown fox jumps over the lazy dog. " * 120,
        "1e2e0b943b7d88d77383dcb39fc99c78c4e0c9154a748b77c9369db4cc11796f",
    ),
]


@pytest.mark.parametrize("text,digest", SHABKA_VECTORS, ids=range(len(SHABKA_VECTORS)))
def test_hash_vectors_are_shabkas_bit_for_bit(text, digest):
    assert hashlib.sha256(hash_embed(text).astype("<f4").tobytes()).hexdigest() == digest


def test_logf_is_glibcs_not_the_correctly_rounded_one():
    # f32::ln is a call to glibc's logf, which is one ulp off f32(log n) at these n.
    assert glibc_logf(1579) != f32(math.log(1579)) and glibc_logf(3100) != f32(math.log(3100))
    assert glibc_logf(5) == f32(math.log(5))


@pytest.mark.skipif(
    not Path("/lib/x86_64-linux-gnu/libm.so.6").exists() and not Path("/usr/lib/libm.so.6").exists(),
    reason="needs glibc's libm",
)
def test_the_logf_table_agrees_with_glibc():
    import ctypes
    import ctypes.util

    libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    libm.logf.restype, libm.logf.argtypes = ctypes.c_float, [ctypes.c_float]
    for n in [*range(1, 20001), *_LOGF_ONE_UP, *_LOGF_ONE_DOWN, 1 << 20]:
        assert glibc_logf(n) == libm.logf(float(n)), n


# ---------------------------------------------------------------- sqlite-vec's KNN (vec.c:361-375, 5771-5897)


def test_l2_is_an_f32_running_sum_then_a_double_sqrt():
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((40, 128)).astype(np.float32)
    query = rng.standard_normal(128).astype(np.float32)
    for row, got in zip(vectors, knn.l2_distances(vectors, query), strict=True):
        total = 0.0
        for a, b in zip(row.tolist(), query.tolist(), strict=True):
            t = f32(a - b)
            total = f32(total + f32(t * t))
        assert float(got) == f32(math.sqrt(total))


def test_ties_inside_a_chunk_go_to_the_later_slot_and_across_chunks_to_the_earlier_chunk():
    distances = np.full(1100, 9.0, dtype=np.float32)
    for slot in (5, 700, 1030, 1050, 1090):
        distances[slot] = 1.0
    # min_idx keeps `distances[i] <= distances[min]`: the last equal slot wins inside a chunk;
    # merge_sorted_lists keeps `a[ptrA] <= b[...]`: the earlier chunk wins across chunks.
    assert knn.nearest(distances, 5) == [700, 5, 1090, 1050, 1030]


def test_a_nan_distance_is_walked_as_the_c_code_walks_it():
    distances = np.array([np.nan, 3.0, 1.0, 2.0], dtype=np.float32)
    # The first untaken slot is the NaN one; nothing compares <= NaN, so it is taken first.
    assert knn.nearest(distances, 3) == [0, 2, 3]
    assert knn.nearest(np.array([1.0, np.nan, 0.5], dtype=np.float32), 3) == [2, 0, 1]


def test_knn_ties_in_a_real_store_across_the_chunk_boundary(tmp_path):
    from tests.factories.shabka_dbs import memory

    near = {5, 700, 1030, 1050, 1090}
    memories = [
        memory(n, f"m{n}", "body", privacy="public", _embed={"text": "needle" if n in near else f"hay {n}"})
        for n in range(1100)
    ]
    packer, _ = packer_for(
        write_spec(tmp_path / "s.db", {"memories": memories}), ["needle"], "alice", "2025-06-01T12:00:00Z"
    )
    assert [h.key[-4:] for h in packer.hits[:5]] == ["0700", "0005", "1090", "1050", "1030"]


# ---------------------------------------------------------------- ranking (core/ranking.rs), Shabka's own tests


def test_damerau_levenshtein_unit_test_values():  # ranking.rs:363-377
    osa = rank.osa_distance
    assert osa("kitten", "sitting") == 3 and osa("abc", "acb") == 1 and osa("hello", "hello") == 0
    assert osa("", "abc") == 3 and osa("abc", "") == 3 and osa("", "") == 0 and osa("cat", "bat") == 1
    assert osa("ca", "abc") == 3  # restricted: no edit after a transposition


def keyword(query, title, content="test content", tags=()):
    return rank.keyword(query, title, content, tags).score


def test_keyword_unit_test_values():  # ranking.rs:350-397, memory "Authentication flow with JWT tokens"
    title = "Authentication flow with JWT tokens"
    assert keyword("authentication JWT", title) == 1.0
    assert keyword("authentication foobar", title) == 0.5
    assert keyword("database migration", title) == 0.0
    assert keyword("", title) == 0.0
    assert keyword("authentcation", title) == f32(0.6)  # one edit: 0.6 in f32
    assert keyword("xyzzy", title) == 0.0


def test_keyword_haystack_and_fuzzy_rules():
    # Café: "storage" is no substring; osa("storage", "straße") = 2 → 0.3, halved over two terms (notes §7).
    assert keyword("sqlite storage", "Café naïve Straße", "Ünïcödé — content with “quotes” and 日本語 text.") == f32(
        0.15
    )
    # tags join the haystack with a space, not ", ": "a," is no substring, only one edit from the word "a"
    assert keyword("a,", "t", "c", ("a", "b")) == f32(0.6) and keyword("a b", "t", "c", ("a", "b")) == 1.0
    # the default query "*": 1 if "*" occurs, 0.6 for a one-char word of ≤ 3 bytes, 0.3 for two chars, else 0.
    assert keyword("*", "a*b") == 1.0
    assert keyword("*", "I am") == f32(0.6) and keyword("*", "— dash") == f32(0.6)
    assert keyword("*", "ok then") == f32(0.3)
    assert keyword("*", "😀 emoji") == 0.0  # a lone 4-byte char is 3 bytes away from "*"
    # byte lengths choose the words, chars measure them: "ß" is two bytes
    assert keyword("strasse", "straße") == f32(0.3)
    # Rust lowercases with Unicode 17: U+A7CB (Ɤ, new in 16) lowercases to U+0264
    assert keyword("\u0264x", "\ua7cbx") == 1.0


def test_recency_access_graph_unit_test_values():  # ranking.rs:276-313
    week = Moment(NOW.days - 7, NOW.secs, 0)
    assert rank.recency(NOW, NOW) == 1.0 and rank.recency(week, NOW) == 0.5
    assert rank.recency(Moment(NOW.days - 14, NOW.secs, 0), NOW) == 0.25
    created = Moment(NOW.days - 10, NOW.secs, 0)
    assert rank.access(NOW, created, NOW) == 1.0 and rank.access(created, created, NOW) == 0.0
    assert rank.graph(0) == 0.0 and rank.graph(1) == f32(0.2) and rank.graph(5) == 1.0 and rank.graph(10) == 1.0


def test_trust_unit_test_values():  # trust.rs:63-102, exact in f32
    assert rank.trust("verified", "manual", 0, True, 76) == f32(0.97)
    assert abs(rank.trust("unverified", "auto_capture", 0, True, 76) - 0.65) < 1e-7
    assert abs(rank.trust("disputed", "manual", 2, True, 76) - 0.49) < 1e-7
    assert abs(rank.trust("outdated", "manual", 1, False, 5) - 0.44) < 1e-7
    # notes §7: verified, manual, one contradiction, tags and ≥ 50 bytes: 0.87 in f32 is 0.87000006
    assert rust_display(rank.trust("verified", "manual", 1, True, 80)) == "0.87000006"


def test_the_worked_example_of_the_notes(tmp_path):
    """cases/basic, query "sqlite storage", now 2025-06-01T12:00:00Z (notes §7): every signal, every score."""
    case = CASES["basic"]
    db = write_spec(tmp_path / "b.db", {"memories": case["memories"], "relations": case["relations"]})
    packer, _ = packer_for(db, ["sqlite storage"], "alice", "2025-06-01T12:00:00Z")
    shown = {r.memory.title: [rust_display(x) for x in (r.distance, *r.signals)] for r in packer.ranked}
    assert shown == {
        "Old caching approach": [
            "1.2571903",
            "0.4430287",
            "0",
            "0.00010522129",
            "0.5",
            "0.92432433",
            "0",
            "0.73",
            "0.3877054",
        ],
        "Archived lesson": ["1.2955322", "0.43562883", "0", "0.5", "0.8", "0", "0", "0.45000002", "0.3714072"],
        "Use SQLite for storage": [
            "1.3201455",
            "0.43100744",
            "1",
            "0.5",
            "0.35",
            "0",
            "0.2",
            "0.87000006",
            "0.5257519",
        ],
        "Retry with backoff": [
            "1.3330094",
            "0.42863098",
            "0",
            "0.5",
            "0.7",
            "0.85714287",
            "0.6",
            "0.71000004",
            "0.50937206",
        ],
        "Café naïve Straße": [
            "1.3514957",
            "0.42526123",
            "0.15",
            "0.0023467545",
            "1",
            "0.88551956",
            "0.2",
            "0.61",
            "0.4692193",
        ],
    }
    assert [r.memory.title for r in packer.ranked] == [
        "Use SQLite for storage",
        "Retry with backoff",
        "Café naïve Straße",
        "Old caching approach",
        "Archived lesson",
    ]
    pending = [h for h in packer.hits if h.reason is not None]
    assert [(h.knn_index, h.reason.value) for h in pending] == [(2, "pending")]


# ---------------------------------------------------------------- costs and packing (core/tokens.rs, context_pack.rs)


def test_token_unit_test_values():  # tokens.rs:28-67
    assert estimate_tokens("") == 0 and estimate_tokens("hello") == 2 and estimate_tokens("a" * 400) == 100
    assert estimate_tokens("abcdefgh") == 2
    assert memory_cost("Test title", "Some content here", ("rust", "testing")) == 32
    assert memory_cost("é", "", ()) == 1 + 0 + 0 + 20  # bytes, not chars; three separate ceilings


def test_the_pack_stops_at_the_first_misfit(tmp_path):  # context_pack.rs:16-39; cases budget_stop
    case = CASES["budget_stop"]
    db = write_spec(tmp_path / "b.db", {"memories": case["memories"]})
    packer, _ = packer_for(db, [], "alice", "2025-06-01T12:00:00Z")
    assert [r.memory.title for r in packer.ranked] == ["Small first", "Huge second", "Small third"]
    # "Small first": ceil(11/4) + ceil(4/4) + ceil(1/4) + 20; "Huge second": 3 + 200 + 1 + 20
    assert [r.cost for r in packer.ranked] == [25, 224, 25]
    plan = packer.plan(100)
    assert plan.state == 1 and plan.tokens_used == 25  # "Small third" (25) would fit in 75, but is never tried
    assert [o.reason.value for o in plan.outcomes] == ["packed", "misfit", "after-misfit"]
    assert packer.plan(24).state == 0 and packer.plan(25).state == 1  # exact boundary: cost ≤ remaining


def test_an_empty_pack_prints_nothing_on_stdout(tmp_path):  # main.rs:925-928
    case = CASES["budget_stop"]
    db = write_spec(tmp_path / "b.db", {"memories": case["memories"]})
    assert run_packer(db, ["--tokens", "0"], "alice", "2025-06-01T12:00:00Z") == (
        "",
        "\x1b[2mNo memories fit within the token budget.\x1b[0m\n",
        0,
    )


# ---------------------------------------------------------------- printed numbers (notes §9)


@pytest.mark.parametrize(
    "value,text,json_text",
    [
        (1.0, "1", "1.0"),
        (0.35, "0.35", "0.35"),
        (3.5e-7, "0.00000035", "3.5e-7"),
        (1e-7, "0.0000001", "1e-7"),
        (0.000001, "0.000001", "0.000001"),
        (0.001953125, "0.001953125", "0.001953125"),
        (1e13, "10000000000000", "1e+13"),
        (1e12, "1000000000000", "1000000000000.0"),
        (1e20, "100000000000000000000", "1e+20"),
        (19781.0625, "19781.063", "19781.062"),
        (0.0, "0", "0.0"),
        (-0.0, "-0", "-0.0"),
        (3.4028234663852886e38, "340282350000000000000000000000000000000", "3.4028235e+38"),
        (math.inf, "inf", "null"),
    ],
)
def test_f32_display_and_serde_json(value, text, json_text):
    assert rust_display(f32(value)) == text and serde_json_f32(f32(value)) == json_text


# ---------------------------------------------------------------- dates (chrono/format/parse.rs:154-259)


@pytest.mark.parametrize(
    "text,utc",
    [
        ("2025-05-25T12:00:00Z", "2025-05-25T12:00:00Z"),
        ("2025-05-25T12:00:00.123+00:00", "2025-05-25T12:00:00.123Z"),
        ("2025-05-31 23:30:00.5-02:00", "2025-06-01T01:30:00.500Z"),
        ("2025-05-31t23:59:60.5z", "2025-05-31T23:59:60.500Z"),
        ("2025-05-01T00:00:00.1234567891Z", "2025-05-01T00:00:00.123456789Z"),
        ("2025-05-20T10:00:00\u221201:30", "2025-05-20T11:30:00Z"),
        ("0000-01-01T00:30:00+01:00", "-0001-12-31T23:30:00Z"),
        ("2024-02-29T00:00:00.000001Z", "2024-02-29T00:00:00.000001Z"),
    ],
)
def test_rfc3339_as_chrono_reads_and_prints_it(text, utc):
    assert format_rfc3339(parse_rfc3339(text)) == utc


@pytest.mark.parametrize(
    "text",
    [
        "2025-02-30T10:00:00Z",
        "2025-05-20T10:00:00",
        "2025-05-20T10:00:00+24:00",
        "2025-05-20T24:00:00Z",
        "2025-05-20T10:00:00+0530",
        "2025-05-20T10:00:00.Z",
        "2025-05-20T10:00:61Z",
        "2025-05-20",
        "2025-05-20T10:00:00Zx",
        "2025-05-20T10:00:00+05:60",
        "2025-05-20X10:00:00Z",
    ],
)
def test_dates_chrono_refuses(text):
    with pytest.raises(DateError):
        parse_rfc3339(text)


def test_whole_seconds_truncate_toward_zero_and_leap_seconds_count_as_chrono_counts():
    a = parse_rfc3339("2025-06-01T12:00:00Z")
    assert seconds_between(a, parse_rfc3339("2025-06-01T11:59:58.5Z")) == 1
    assert seconds_between(parse_rfc3339("2025-06-01T11:59:58.5Z"), a) == -1
    leap = parse_rfc3339("2025-06-01T11:59:60.5Z")  # second 59 + 1.5e9 ns: counts as 11:59:59.5
    assert seconds_between(a, leap) == 0
    assert format_date(parse_rfc3339("2025-05-31T23:30:00-02:00")) == "2025-06-01"


# ---------------------------------------------------------------- reading rows (core/storage/sqlite.rs:527-623)


def test_uuid_spellings_uuid_parse_str_takes():
    canonical = "0197a000-0000-7000-8000-000000000001"
    for text in (
        canonical,
        canonical.upper(),
        "{" + canonical + "}",
        "urn:uuid:" + canonical,
        canonical.replace("-", ""),
    ):
        assert parse_uuid(text) == canonical
    for text in (
        "0197a000-0000-7000-8000-00000000000g",
        "0197a000000070008000-000000000001-----",
        "URN:UUID:" + canonical,
        "{" + canonical,
        canonical + " ",
    ):
        with pytest.raises(ValueError):
            parse_uuid(text)


def row(**changes):
    values = {
        "id": "0197a000-0000-7000-8000-000000000001",
        "kind": "fact",
        "title": "t",
        "content": "c",
        "summary": "",
        "tags": "[]",
        "source": '{"type":"manual"}',
        "scope": '{"type":"global"}',
        "importance": 0.5,
        "status": "active",
        "privacy": "public",
        "verification": "unverified",
        "project_id": None,
        "session_id": None,
        "created_by": "a",
        "created_at": "2025-05-25T12:00:00+00:00",
        "updated_at": "2025-05-25T12:00:00+00:00",
        "accessed_at": "2025-05-25T12:00:00+00:00",
    }
    values.update(changes)
    return (1, *(values[c] for c in COLUMNS))


@pytest.mark.parametrize(
    "changes,source",
    [
        ({}, (("type", "manual"),)),
        ({"source": '["manual"]'}, (("type", "manual"),)),
        ({"source": '["auto_capture","h"]'}, (("type", "auto_capture"), ("hook", "h"))),
        ({"source": '{"hook":"h","type":"auto_capture","x":1}'}, (("type", "auto_capture"), ("hook", "h"))),
        (
            {"source": '{"type":"derived","from":"{0197A000-0000-7000-8000-000000000002}"}'},
            (("type", "derived"), ("from", "0197a000-0000-7000-8000-000000000002")),
        ),
        ({"kind": "fa\\u0063t"}, (("type", "manual"),)),
    ],
)
def test_rows_shabka_reads(changes, source):
    assert parse_memory(row(**changes)).source == source


@pytest.mark.parametrize(
    "changes",
    [
        {"source": '"manual"'},
        {"source": '["manual",1]'},
        {"source": '{"type":"manual","type":"manual"}'},
        {"source": '{"type":0}'},
        {"source": '{"type":"auto_capture"}'},
        {"source": '{"type":"Manual"}'},
        {"scope": '{"type":"session","id":"nope"}'},
        {"kind": "Fact"},
        {"status": "Active"},
        {"tags": '"x"'},
        {"tags": '["a",1]'},
        {"tags": '["\\ud800"]'},
        {"importance": "0.5"},
        {"importance": None},
        {"title": None},
        {"title": b"blob"},
        {"session_id": "bogus"},
        {"created_at": "2025-05-25"},
        {"id": "not-a-uuid"},
        {"source": '{"type":"manual","x":NaN}'},
    ],
)
def test_rows_shabka_refuses(changes):
    with pytest.raises(RowError):
        parse_memory(row(**changes))


def test_importance_is_read_as_f64_then_narrowed():
    assert parse_memory(row(importance=1)).importance == 1.0
    assert parse_memory(row(importance=0.3499999940395355)).importance == f32(0.35)
    assert parse_memory(row(importance=1e39)).importance == math.inf
    assert struct.pack("<f", parse_memory(row(importance=-0.0)).importance) == struct.pack("<f", -0.0)
