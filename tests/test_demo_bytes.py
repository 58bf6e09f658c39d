"""The demo's output is pinned: the same "now" gives these exact bytes and database rows.

The hashes were recorded from the demo as it was before its content moved from
Python strings to data files (ctxtui/demo/content/); the move changed none of
them. A deliberate change to the demo's content changes them: record the new
ones in the same commit (`demo_digests` below prints them).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from ctxtui.demo import demo_memory_db_path, write_demo

FIXED = {  # files that do not depend on "now"
    ".ctxtui-demo": "e30ce8180d509ddf5307f37cd88930429b478fd303c2cc890fdd5973a3baaa0e",
    "ARCHITECTURE.md": "4d31fe238fda53ab62b40dd3f4d3a40477a88ff4ad573062c17ef5530fc324fb",
    "CONSTITUTION.md": "dd9e3c13fd1f43e2147012f3d4b8d124360c7c38de701537f1d14c4cd2e4829e",
    "CONVENTIONS.md": "9a44542213ffb79e63b4a124b8ac46919d9cacd28ad83fc1d42dcfa2c040ad8c",
    "GLOSSARY.md": "97c67f2fb1de7ddd2295c5990201ff98b4e76fdc0039fc28ac7a3676013e799f",
    "steering/product.md": "4fc30d01137da71a8248e5b21ba3f2ef50ca9c4c528074339d89527545db8756",
    "steering/release.md": "419385bf0494d6fe2390d3920812d0294e4fc5cd6c65c6ffebd01c5810a15e59",
    "steering/tech.md": "dfcf6de8b77db63ce860c3e0f9b4e0bbb9731d2295e3f55bb10ab60469fa46c9",
}
DATED = [  # ("now", digests of the dated files and of the database rows)
    (
        datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC),
        {
            "DECISIONS.md": "a8ca6eda0753ad93e2a15ce4aaa32eb5d0ac61445554a20ffe08e66a2467a09d",
            "LEARNINGS.md": "6a401d257802ba6793f676a5af3a16d98db0ab3596884d40702adbb7c3c167fa",
            "TASKS.md": "65b9408f2a125c92f295fc86aacff3e90e9ae3ed390fe7f44170941e5198e8b7",
            "memory.db rows": "70e38150c09b900c254727cb392956b279719fea638e4ada8b5410cd921dbf91",
        },
    ),
    (
        datetime(2026, 3, 29, 1, 30, 15, 123456, tzinfo=timezone(timedelta(hours=2))),
        {
            "DECISIONS.md": "f5ea67c4ca28cabd5377d198f041aae2e73c78f14ab545717c4574240a5807e3",
            "LEARNINGS.md": "a32014cf5220e90a2dff631935086cc7e3e01f5745ddfe3828204d78d7e583d5",
            "TASKS.md": "25f726bb428aecd304898f4f09e0b96a6e952da99861186f3dc84b615c87cd59",
            "memory.db rows": "ea9c435e2fa7fd49b2b291eb8155aeeb40ec30f6e4e12242a1fb90ea68edb841",
        },
    ),
]


def demo_digests(root: Path) -> dict[str, str]:
    """sha256 of every file the demo wrote, and of its database's rows (not the file: SQLite's
    header records the library version)."""
    context = root / ".context"
    digests = {
        p.relative_to(context).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(context.rglob("*"))
        if p.is_file() and p.name != "memory.db"
    }
    conn = sqlite3.connect(f"file:{demo_memory_db_path(root)}?mode=ro", uri=True)
    rows = {
        t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall()
        for t in ("memories", "usage_events", "relations")
    }
    conn.close()
    digests["memory.db rows"] = hashlib.sha256(json.dumps(rows).encode()).hexdigest()
    return digests


@pytest.mark.parametrize("now, dated", DATED, ids=["utc", "plus2-microseconds"])
def test_the_demo_is_byte_for_byte_what_it_was(tmp_path, now, dated):
    digests = demo_digests(write_demo(tmp_path / "demo", now))
    assert digests == {**FIXED, **dated}
