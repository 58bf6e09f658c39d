"""`explain --all` honours `--max-seconds` over the whole command and says how far it got (issue 21, part 4).

At 50,000 memories it once took ~10 s and wrote 63 MB of JSON past a bound of
2 s: the bound covered the thresholds scan, never the listing. The clock is
injected (each reading one tick later), so these tests count readings, not
seconds.
"""

from __future__ import annotations

import argparse
import itertools
import json

import pytest
from ctxtui.cli import explain
from ctxtui.cli.parser import build_parser

from tests.conftest import NOW, write_context

TASKS = "# Tasks\n\n" + "".join(f"- [ ] task number {i}\n" for i in range(300))


def _args(project, *extra: str) -> argparse.Namespace:
    argv = ["explain", str(project), "--all", "--now", NOW.isoformat(), "--packer", "ctx-0.8.1", *extra]
    return build_parser().parse_args(argv)


def _ticking(step: float = 1.0):
    """A clock that moves `step` seconds each time it is read."""
    counter = itertools.count()
    return lambda: next(counter) * step


@pytest.fixture
def project(tmp_path):
    return write_context(tmp_path / "p", {"TASKS.md": TASKS})


def test_the_listing_stops_at_the_bound_and_says_how_far_it_got(project, capsys):
    # ~5 readings before the listing (start, scan split, scan stops), then one per 64 entries.
    code = explain.explain_all(str(project), _args(project, "--format", "json", "--max-seconds", "8"), _ticking())
    out, err = capsys.readouterr()
    assert code == 0
    data = json.loads(out)  # still one valid document
    listed = len(data["entries"])
    assert 0 < listed < data["entries_total"] and data["entries_total"] >= 300
    assert data["entries_explained"] == listed and data["complete"] is False
    assert f"explained {listed:,} of {data['entries_total']:,} entries" in err and "--max-seconds 8" in err
    assert data["scanned_to"] is not None  # the scan had its share of the bound and stopped too


def test_a_text_listing_stops_too(project, capsys):
    code = explain.explain_all(str(project), _args(project, "--max-seconds", "3"), _ticking())
    out, err = capsys.readouterr()
    assert code == 0
    lines = out.splitlines()
    assert 0 < len(lines) < 300
    assert f"explained {len(lines):,} of" in err


def test_within_the_bound_everything_is_listed(project, capsys):
    code = explain.explain_all(str(project), _args(project, "--format", "json", "--max-seconds", "10"), _ticking(0.0))
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert code == 0 and data["complete"] is True
    assert data["entries_explained"] == data["entries_total"] == len(data["entries"])
    assert data["scanned_to"] is None and "explained" not in err


def test_the_default_bound_is_ten_seconds(project):
    assert _args(project).max_seconds == 10.0


def test_the_no_ctx_notice_reads_the_memory_store_once(tmp_path, monkeypatch, capsys):
    """Deciding "ctx 0.8.0 answers differently" reuses 0.8.1's workspace, memories joined: reading a
    50,000-memory store twice doubled every headless command's load (the working tree's revision is "")."""
    from ctxtui.cli import common, main
    from ctxtui.engine.packers.ctx import memories

    from tests.factories.memory_dbs import build_native_db

    project = write_context(tmp_path / "p", {"TASKS.md": TASKS})
    db = build_native_db(tmp_path / "m.db", 30, 1, NOW)
    reads = []
    real = memories.MemoryJoin.load
    monkeypatch.setattr(memories.MemoryJoin, "load", lambda self, now: reads.append(1) or real(self, now))
    asked, differs = [], common._answer_differs
    monkeypatch.setattr(common, "_answer_differs", lambda *a: asked.append(1) or differs(*a))
    monkeypatch.setenv("PATH", str(tmp_path))  # no ctx on PATH: the notice decides between the versions
    monkeypatch.delenv("CTXTUI_PACKER", raising=False)
    assert main(["sweep", str(project), "--db", str(db), "--now", NOW.isoformat(), "--to", "1000"]) == 0
    assert asked, "the notice's check did not run: the test proves nothing"
    assert len(reads) == 1
