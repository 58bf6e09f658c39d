"""A lone surrogate in a row's JSON costs that row a note, never the load (issue 20, item 13).

JSON's `"\\ud800"` escape decodes to a lone UTF-16 surrogate, which no UTF-8
text can hold: one Cortex row with it failed the whole load with a
`UnicodeEncodeError` (a CLI traceback, a blank TUI). Now the row loads with
U+FFFD in its place (as V8 and Go print it) and a problem names the row.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys

from ctxtui.engine.sources.memory import load_memories

from tests.conftest import ROOT
from tests.factories.memory_dbs import build_cortex_db, build_native_db
from tests.memory.conftest import NOW

BAD_CONTENT = '{"topic": "t \\ud800", "knowledge": "bad \\udc00 here", "severity": "warning"}'


def poisoned_cortex(tmp_path):
    db = build_cortex_db(tmp_path / "cortex.db", 30, seed=3, now=NOW)
    with sqlite3.connect(db) as conn:
        mid = conn.execute("SELECT id FROM memories WHERE type = 'tribal' LIMIT 1").fetchone()[0]
        conn.execute("UPDATE memories SET content = ?, tags = ? WHERE id = ?", (BAD_CONTENT, '["x\\ud83d"]', mid))
    return db, mid


def test_a_cortex_row_with_a_lone_surrogate_loads_with_a_note(tmp_path):
    db, mid = poisoned_cortex(tmp_path)
    load = load_memories(db)
    assert len(load.records) == 30
    record = next(r for r in load.records if r.id == mid)
    assert "\ufffd" in record.body and all(t.encode() for t in (record.title, record.body, *record.tags))
    notes = [p.message for p in load.problems if "lone surrogate" in p.message]
    assert notes and all(mid in note for note in notes), load.problems


def test_a_native_tag_with_a_lone_surrogate_loads_with_a_note(tmp_path):
    db = build_native_db(tmp_path / "memory.db", 10, seed=1, now=NOW)
    with sqlite3.connect(db) as conn:
        mid = conn.execute("SELECT id FROM memories LIMIT 1").fetchone()[0]
        conn.execute("UPDATE memories SET tags = ? WHERE id = ?", ('["ok", "\\udfff"]', mid))
    load = load_memories(db)
    assert len(load.records) == 10
    assert next(r for r in load.records if r.id == mid).tags == ("ok", "\ufffd")
    assert any("lone surrogate" in p.message and mid in p.message for p in load.problems)


def test_the_cli_packs_and_imports_without_a_traceback(tmp_path):
    db, mid = poisoned_cortex(tmp_path)
    project = tmp_path / "project"
    (project / ".context").mkdir(parents=True)
    (project / ".context" / "TASKS.md").write_text("- [ ] one\n")
    for argv in (
        ["pack", str(project), "--ignore-refusal", "--budget", "100000", "--db", str(db)],
        ["memory", "import", str(db), "--db", str(tmp_path / "mine.db")],
    ):
        result = subprocess.run(
            [sys.executable, "-m", "ctxtui.cli", *argv], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert "Traceback" not in result.stderr and result.returncode == 0, result.stderr
        assert "lone surrogate" in result.stderr
    assert len(load_memories(tmp_path / "mine.db").records) == 30
