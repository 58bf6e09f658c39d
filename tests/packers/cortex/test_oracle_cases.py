"""Byte for byte what Cortex's own code printed: 77 hand-made cases and the recorded random stores.

Outputs were recorded by `scripts/cortex_oracle_check.py` from a harness
that runs drift's TypeScript Cortex (mattepiu/drift 265f6f49: the CLI's
`whyAction` and `driftdetect-cortex` compiled with tsc 5.9.3, on Node 20,
better-sqlite3 11.10.0 / SQLite 3.49.2, sqlite-vec absent) over databases
rebuilt here from `cases/rows/*.json` and `tests.factories.cortex_v1`
(now pinned to 2025-06-01, retrievalTime pinned to 3 or 1 ms).
"""

from __future__ import annotations

import json
import math

import pytest
from ctxtui.engine.text.js import parse_date, parse_int

from tests.factories.cortex_v1 import NOW, build_v1_db, random_store
from tests.packers.cortex.conftest import CASES, packet

MANIFEST = json.loads((CASES / "manifest.json").read_text(encoding="utf-8"))
RANDOM = json.loads((CASES / "random.json").read_text(encoding="utf-8"))


def budget_of(max_tokens: str | None) -> int | None:
    """The integer `--budget` that stands for `--max-tokens TEXT` (None: none does, the header prints NaN)."""
    if max_tokens is None:
        return 2000
    parsed = parse_int(max_tokens)
    if parsed != parsed:
        return None
    return 0 if parsed == 0 else int(parsed)  # -0 prints "0" and means 2000, exactly as 0


@pytest.mark.parametrize("case", MANIFEST, ids=[case["name"] for case in MANIFEST])
def test_hand_case(case, v1_db):
    budget = budget_of(case["max_tokens"])
    if budget is None:
        pytest.skip("--max-tokens parses to NaN: no integer --budget prints the header's NaN")
    db = v1_db(case["db"])
    intent = "understand_code" if case["intent"] is None else case["intent"]
    got = packet(
        db,
        case["focus"],
        budget,
        case["format"],
        intent=intent,
        tz=case["tz"],
        embedding=case["embedding"],
        now=parse_date(case["now"]),
    )
    assert got == (CASES / "out" / f"{case['name']}.stdout").read_text(encoding="utf-8")


def test_the_skipped_hand_cases_are_exactly_the_nan_ones():
    skipped = [case["name"] for case in MANIFEST if budget_of(case["max_tokens"]) is None]
    assert sorted(skipped) == ["basic-json-maxabc", "basic-text-maxabc", "basic-text-maxempty"]
    assert math.isnan(parse_int("abc")) and math.isnan(parse_int(""))


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_no_database(fmt):
    assert packet(None, "auth", fmt=fmt) == (CASES / "out" / f"nodb-{fmt}.stdout").read_text(encoding="utf-8")


@pytest.mark.parametrize("record", RANDOM, ids=[f"seed-{r['seed']}" for r in RANDOM])
def test_random_store(record, tmp_path):
    rows, settings = random_store(record["seed"])
    assert settings == record["settings"], "the generator changed: re-record cases/random.json"
    db = build_v1_db(tmp_path / "cortex.db", rows)
    budget = 2000 if settings["budget"] is None else settings["budget"]
    got = packet(
        db,
        settings["focus"],
        budget,
        settings["format"],
        intent=settings["intent"],
        tz=settings["tz"],
        embedding=settings["embedding"],
        now=NOW,
        retrieval_time=1,
    )
    assert got == record["stdout"]
