"""Every candidate gets an outcome that says why, in words and numbers: one store with every fate in it."""

from __future__ import annotations

import numpy as np
import pytest
from ctxtui.engine.explain.reasons import describe, reason_cell
from ctxtui.engine.explain.thresholds import thresholds
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.shabka.dates import parse_rfc3339
from ctxtui.engine.packers.shabka.embed import hash_embed
from ctxtui.engine.packers.shabka.fates import ShabkaReason as R
from ctxtui.engine.packers.shabka.knobs import ShabkaSettings
from ctxtui.engine.packers.shabka.packer import ShabkaPacker
from ctxtui.engine.reason_numbers import PrefixFit
from ctxtui.engine.sources.memory.shabka.store import read_shabka_store

from tests.factories.shabka_dbs import memory, uuid_of, write_store

NOW = parse_rfc3339("2025-06-01T12:00:00Z")
NEEDLE = {"text": "needle"}  # every nearest memory sits at the same distance: vec0 order decides


def every_fate_store(tmp_path):
    ms = [
        memory(
            n,
            f"Outside {n}",
            "too early in rowid order",
            kind="fact",
            tags=["db"],
            project_id="proj",
            privacy="public",
            _embed=NEEDLE,
        )
        for n in range(1, 4)
    ]
    ms += [
        memory(
            10 + n,
            f"Packed {n}",
            "x" * 40,
            kind="fact",
            tags=["db"],
            project_id="proj",
            privacy="public",
            importance=1.0 - n / 100,
            _embed=NEEDLE,
        )
        for n in range(42)
    ]
    ms += [
        memory(
            60,
            "Big one",
            "y" * 8000,
            kind="fact",
            tags=["db"],
            project_id="proj",
            privacy="public",
            importance=0.2,
            _embed=NEEDLE,
        ),
        memory(
            61,
            "Small after",
            "z",
            kind="fact",
            tags=["db"],
            project_id="proj",
            privacy="public",
            importance=0.1,
            _embed=NEEDLE,
        ),
        memory(
            62,
            "A decision",
            "wrong kind",
            kind="decision",
            tags=["db"],
            project_id="proj",
            privacy="public",
            _embed=NEEDLE,
        ),
        memory(
            63, "Untagged", "no db tag", kind="fact", tags=["ops"], project_id="proj", privacy="public", _embed=NEEDLE
        ),
        memory(
            64,
            "Elsewhere",
            "other project",
            kind="fact",
            tags=["db"],
            project_id="other",
            privacy="public",
            _embed=NEEDLE,
        ),
        memory(
            65, "Bob's secret", "private", kind="fact", tags=["db"], project_id="proj", created_by="bob", _embed=NEEDLE
        ),
        memory(
            66,
            "Awaiting review",
            "pending",
            kind="fact",
            tags=["db"],
            project_id="proj",
            status="pending",
            privacy="public",
            _embed=NEEDLE,
        ),
        memory(67, "Never embedded", "no vector", privacy="public", _embed="none"),
        memory(68, "Ollama leftover", "768-d", privacy="public", _embed={"vector": [0.5] * 768}),
    ]
    orphan = hash_embed("needle").astype("<f4").tobytes().hex()
    sql = [f"INSERT INTO embeddings (memory_id, vector, dimensions) VALUES ('{uuid_of(999)}', X'{orphan}', 128)"]
    return write_store(tmp_path / "s.db", ms, sql=sql)


@pytest.fixture
def packer(tmp_path):
    store = read_shabka_store(every_fate_store(tmp_path))
    return ShabkaPacker(
        store, ShabkaSettings(now=NOW, query="needle", project="proj", kind="FACT", tags=("db",), user="alice")
    )


def by_title(plan):
    return {o.entry.title: o for o in plan.outcomes}


def test_every_candidate_has_its_reason(packer):
    plan = packer.plan(2000)
    outcomes = by_title(plan)
    assert len(plan.outcomes) == len(packer.candidates()) == 55  # 54 memories and the orphan vector
    reasons = {title: o.reason for title, o in outcomes.items()}
    assert {reasons[f"Outside {n}"] for n in range(1, 4)} == {R.OUTSIDE_KNN}
    assert reasons["A decision"] is R.KIND and reasons["Untagged"] is R.TAG and reasons["Elsewhere"] is R.PROJECT
    assert reasons["Bob's secret"] is R.PRIVATE and reasons["Awaiting review"] is R.PENDING
    assert reasons["Never embedded"] is R.NO_EMBEDDING and reasons["Ollama leftover"] is R.OTHER_DIMS
    assert reasons[f"(vector without a memory: {uuid_of(999)})"] is R.ORPHAN
    assert reasons["Big one"] is R.MISFIT and reasons["Small after"] is R.AFTER_MISFIT
    assert {reasons[f"Packed {n}"] for n in range(42)} == {R.PACKED}
    assert len(packer.hits) == 50


def test_reasons_in_words_with_their_numbers(packer):
    plan = packer.plan(2000)
    o = by_title(plan)
    big, packed = o["Big one"], o["Packed 0"]
    assert isinstance(big.numbers, PrefixFit)
    needs, left = big.numbers.needs, big.numbers.remaining
    assert describe(big).startswith(f"stopped at the first misfit: needs {needs:,} tokens, {left:,} left")
    assert reason_cell(big) == f"misfit {needs:,}>{left:,}"
    assert describe(packed).startswith("packed: needs 33 tokens, 2,000 left of 2,000")
    assert "0.25×similarity 1 + 0.15×keyword 0" in describe(packed)
    assert o["Small after"].blocked_by == big.entry.key
    assert "ranked below the first misfit" in describe(o["Small after"])
    assert describe(o["Bob's secret"]).startswith("hidden by privacy: private, created by 'bob'; the user is 'alice'")
    assert describe(o["A decision"]).startswith(
        "filtered out by the kind filter: its kind is decision; -k asks for fact"
    )
    assert describe(o["Untagged"]).startswith("filtered out by the tag filter: its tags are ops; -t asks for any of db")
    assert describe(o["Elsewhere"]).startswith(
        "filtered out by the project filter: its project is 'other'; -p asks for 'proj'"
    )
    assert "status != 'pending'" in describe(o["Awaiting review"])
    assert "not among the 50 nearest" in describe(o["Outside 1"])
    assert "768 dimensions, the store's most common is 128" in describe(o["Ollama leftover"])
    assert "no stored vector" in describe(o["Never embedded"])
    assert "memory row is gone" in describe(o[f"(vector without a memory: {uuid_of(999)})"])
    for outcome in plan.outcomes:
        assert describe(outcome) and reason_cell(outcome)


def test_signals_and_rank_ride_on_the_outcome(packer):
    plan = packer.plan(2000)
    first = plan.outcomes[0]
    extra = dict(first.entry.extra)
    assert first.score is not None and first.score.rank == 1 == extra["rank"]
    assert set(extra) >= {
        "similarity",
        "keyword",
        "recency",
        "importance",
        "access",
        "graph",
        "trust",
        "score",
        "distance",
        "knn_place",
    }
    assert first.score.total == extra["score"] and extra["similarity"] == 1.0


def test_plan_is_a_prefix_walk_and_thresholds_are_the_running_costs(packer):
    costs = [r.cost for r in packer.ranked]
    running = np.cumsum(costs).tolist()
    assert packer.cumulative == running
    found = thresholds(packer)
    for ranked, at in zip(packer.ranked, running, strict=True):
        limit = running[: packer.ranked.index(ranked) + 1][-1]
        assert found[ranked.key].full_at == limit == at
    assert found["shabka:" + uuid_of(62)].any_at is None


def test_a_failure_leaves_every_memory_failed_and_names_the_culprit(tmp_path):
    ms = [memory(n, f"M{n}", "c", privacy="public", _embed=NEEDLE) for n in range(1, 5)]
    db = write_store(tmp_path / "s.db", ms, sql=[f"UPDATE memories SET source='\"manual\"' WHERE id='{uuid_of(2)}'"])
    packer = ShabkaPacker(read_shabka_store(db), ShabkaSettings(now=NOW, query="needle", user="alice"))
    plan = packer.plan(2000)
    assert packer.failure is not None and packer.failure.culprit == "shabka:" + uuid_of(2)
    assert packer.stderr(plan)[1] == 1 and plan.render("md") == "" and plan.render("json") == ""
    reasons = {o.entry.title: o.reason for o in plan.outcomes}
    assert reasons["M2"] is R.UNREADABLE
    # M4 and M3 were read before M2 (equal distances: higher rowids first), M1 never was
    assert {reasons[t] for t in ("M1", "M3", "M4")} == {R.FAILED}
    culprit = next(o for o in plan.outcomes if o.reason is R.UNREADABLE)
    assert "source" in describe(culprit) and "exit 1" in describe(culprit)
    assert all(o.fate is Fate.DROPPED for o in plan.outcomes)


def test_an_unknown_kind_fails_before_the_search(tmp_path):
    db = write_store(tmp_path / "s.db", [memory(1, "M", "c", privacy="public")])
    packer = ShabkaPacker(read_shabka_store(db), ShabkaSettings(now=NOW, kind="Bogus", user="alice"))
    plan = packer.plan(2000)
    assert packer.stderr(plan) == ("Error: unknown memory kind: Bogus\n", 1)
    assert [o.reason for o in plan.outcomes] == [R.FAILED]
    assert "unknown memory kind: Bogus" in describe(plan.outcomes[0])


def test_a_store_of_another_embedder_is_said_so_and_still_listed(tmp_path):
    db = write_store(
        tmp_path / "s.db", [memory(n, f"M{n}", "c", privacy="public", _embed={"vector": [0.1] * 768}) for n in range(3)]
    )
    packer = ShabkaPacker(read_shabka_store(db), ShabkaSettings(now=NOW, user="alice"))
    plan = packer.plan(2000)
    assert [o.reason for o in plan.outcomes] == [R.NOT_SEARCHED] * 3
    assert any("768-dimensional" in n for n in packer.notices)
    assert plan.render("md") == "" and packer.stderr(plan)[1] == 0


def test_128_dimensional_vectors_the_hash_embedder_did_not_make_are_noticed(tmp_path):
    rng = np.random.default_rng(2)
    ms = [
        memory(n, f"M{n}", "c", privacy="public", _embed={"vector": rng.standard_normal(128).tolist()})
        for n in range(6)
    ]
    packer = ShabkaPacker(read_shabka_store(write_store(tmp_path / "s.db", ms)), ShabkaSettings(now=NOW))
    assert packer.hash_check == (6, 0) and any("another provider" in n for n in packer.notices)
    plain = ShabkaPacker(
        read_shabka_store(write_store(tmp_path / "h.db", [memory(1, "M", "c")])), ShabkaSettings(now=NOW)
    )
    assert plain.hash_check == (1, 1) and not plain.notices


def test_a_configured_remote_embedder_is_said_so(tmp_path):
    store = read_shabka_store(write_store(tmp_path / "s.db", [memory(1, "M", "c")]))
    packer = ShabkaPacker(store, ShabkaSettings(now=NOW), provider="ollama", provider_source="./.shabka/config.toml")
    assert any("'ollama' embedder" in n and "cannot be reproduced" in n for n in packer.notices)


def test_knobs(packer):
    knobs = {k.key: k for k in packer.knobs()}
    assert list(knobs) == ["query", "project", "kind", "tag", "user"]
    assert knobs["query"].value == "needle" and knobs["kind"].choices[0] == "observation"
    assert knobs["tag"].value == ("db",) and knobs["user"].value == "alice"
