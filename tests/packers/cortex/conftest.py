"""Shared helpers: Cortex v1 stores built from case rows, and the packet the cortex packer prints for them."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from ctxtui.engine.packers.cortex import CortexPacker
from ctxtui.engine.sources.memory.cortex.v1_store import read_cortex_store

from tests.factories.cortex_v1 import NOW, build_v1_db

CASES = Path(__file__).parent / "cases"


def case_rows(name: str) -> list[dict[str, Any]]:
    return json.loads((CASES / "rows" / f"{name}.json").read_text(encoding="utf-8"))


def packer_for(
    db: Path | None,
    focus: str,
    *,
    intent: str = "understand_code",
    tz: str = "UTC",
    embedding: str = "works",
    now: Any = NOW,
    retrieval_time: int = 3,
) -> CortexPacker:
    store = read_cortex_store(db) if db is not None else None
    zone = UTC if tz == "UTC" else ZoneInfo(tz)
    return CortexPacker(
        store, focus=focus, intent=intent, now=now, zone=zone, retrieval_time=retrieval_time, embedding=embedding
    )


def packet(db: Path | None, focus: str, budget: int = 2000, fmt: str = "json", **settings: Any) -> str:
    return packer_for(db, focus, **settings).plan(budget).render("json" if fmt == "json" else "md")


@pytest.fixture
def v1_db(tmp_path):
    """Build a v1 store from rows (column dicts) or a case name."""
    made = []

    def make(rows: list[dict[str, Any]] | str, *, analyze: bool = False) -> Path:
        if isinstance(rows, str):
            analyze = analyze or rows.endswith("-analyzed")
            rows = case_rows(rows)
        path = tmp_path / f"cortex-{len(made)}.db"
        made.append(path)
        return build_v1_db(path, rows, analyze=analyze)

    return make
