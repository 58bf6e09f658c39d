"""The app's Session with a live memory database: another process commits, the packet follows.

A commit by another process (seen through the files' stat, headers and bytes) reloads the
memories only; a `.context/` edit re-parses the files without touching the
database; a change notice with no commit behind it is a no-op. None of it
writes the database: its bytes and mtime stay as the writer left them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxtui.engine.sources.memory import adapters
from ctxtui.engine.sources.memory import source as source_module
from ctxtui.session import Session

from tests.factories.memory_dbs import build_native_db

from . import stores
from .conftest import NOW, fingerprint

DB_PLACES = {"in .context": Path(".context") / "memory.db", "beside the project": Path("stores") / "memory.db"}


class Spy:
    """Counts every way the memory database can be read."""

    def __init__(self, monkeypatch):
        self.calls: list[str] = []
        for owner, name in (
            (source_module.MemorySource, "load"),
            (source_module.MemorySource, "reload"),
            (source_module, "load_memories"),
            (adapters, "load_memories"),
        ):
            self._wrap(monkeypatch, owner, name)

    def _wrap(self, monkeypatch, owner, name):
        original = getattr(owner, name)

        def spy(*args, **kwargs):
            self.calls.append(name)
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, spy)

    def reads(self) -> int:
        return self.calls.count("load_memories")


def sources(session: Session) -> set[str]:
    return {o.entry.source for o in session.view().plan.outcomes}


@pytest.fixture(params=list(DB_PLACES))
def live(request, tmp_path):
    root = stores.workspace(tmp_path / "project")
    db = root / DB_PLACES[request.param]
    db.parent.mkdir(exist_ok=True)
    build_native_db(db, 30, seed=4, now=NOW)
    session = Session(project=root, db=db, clock=lambda: NOW)
    assert session.load(budget=100_000) == []
    yield session, db
    if session.memory_join is not None:
        session.memory_join.close()


def test_commit_by_another_process_reloads_the_memories(live, writer, monkeypatch):
    session, db = live
    wal = Path(f"{db}-wal")
    main_before = fingerprint(db)[str(db)]
    spy = Spy(monkeypatch)
    generation = session.generation

    # A change notice with no commit behind it: nothing to do, nothing read.
    assert session.reload({wal}) is None and session.reload({db}) is None
    assert spy.reads() == 0 and session.generation == generation

    w = writer(db)
    w("insert live-1")
    after_commit = fingerprint(db)
    problems = session.reload({wal})
    assert problems is not None and problems == []
    assert "memory.db:live-1" in sources(session)
    assert spy.reads() == 1 and session.generation == generation + 1
    assert session.budget == 100_000  # a reload keeps the budget

    # Nothing new since: no-op again.
    assert session.reload({wal}) is None and spy.reads() == 1

    w("insert live-2")
    assert session.reload({wal}) is not None
    assert {"memory.db:live-1", "memory.db:live-2"} <= sources(session)

    assert fingerprint(db)[str(db)] == main_before  # the main file: only a checkpoint would change it
    before_reads = fingerprint(db)
    session.reload({wal})
    session.view()
    assert fingerprint(db) == before_reads and after_commit[str(db)] == main_before


def test_context_edit_reloads_without_reading_the_database(live, monkeypatch):
    session, db = live
    spy = Spy(monkeypatch)
    memories_before = {s for s in sources(session) if s.startswith("memory.db:")}
    decisions = session.project / ".context" / "DECISIONS.md"
    before = fingerprint(db)
    decisions.write_text(
        decisions.read_text(encoding="utf-8")
        + "\n## [2026-04-30-120000] Watch the -wal, never the -shm\n\nReaders write the -shm.\n",
        encoding="utf-8",
    )
    problems = session.reload({decisions})
    assert problems is not None
    titles = {o.entry.title for o in session.view().plan.outcomes}
    assert "Watch the -wal, never the -shm" in titles
    assert {s for s in sources(session) if s.startswith("memory.db:")} == memories_before
    assert spy.calls == []  # neither load, reload nor a one-shot read of the database
    assert fingerprint(db) == before


def test_full_reload_asks_the_database_but_reads_only_on_a_commit(live, writer, monkeypatch):
    session, db = live
    spy = Spy(monkeypatch)
    assert session.reload(None) is not None  # "reload everything" (the r key)
    assert spy.reads() == 0  # the source was asked and said nothing changed
    writer(db)("insert live-3")
    assert session.reload(None) is not None and spy.reads() == 1
    assert "memory.db:live-3" in sources(session)


def test_unrelated_change_is_ignored(live, tmp_path, monkeypatch):
    session, db = live
    spy = Spy(monkeypatch)
    stray = db.parent / "notes.txt" if db.parent.name != ".context" else tmp_path / "elsewhere.txt"
    stray.write_text("x", encoding="utf-8")
    assert session.reload({stray}) is None and spy.calls == []


def test_the_first_view_is_the_one_the_load_planned_and_equals_a_fresh_one(live):
    """A load plans its first screen off the UI thread; the first `view()` shows that very plan, once."""
    session, _db = live
    session.load(budget=3000)
    planned = session._first_plan[1]
    first, again = session.view(), session.view()
    assert first.budget == 3000 and first.plan is planned and again.plan is not planned  # handed out once
    assert (first.markdown, first.json, first.counts) == (again.markdown, again.json, again.counts)
    session.load(budget=2000)
    planned = session._first_plan[1]
    session.set_budget(2001)  # the budget moved before the first view: the load's plan is for another one
    shown = session.view()
    assert shown.plan is not planned and shown.budget == shown.plan.budget == 2001


def test_a_budget_moved_while_the_first_plan_is_made_is_not_shown_with_it(live, monkeypatch):
    """The load plans on a worker while the slider stays live: a budget set meanwhile gets its own plan."""
    session, _db = live
    session.load(budget=3000)
    packer = session.loaded.packer
    original = type(packer).plan

    def slow_plan(self, budget):
        made = original(self, budget)
        session.set_budget(3500)  # the UI thread moved the slider while the worker planned
        return made

    monkeypatch.setattr(type(packer), "plan", slow_plan)
    session.load(budget=3000)
    monkeypatch.setattr(type(packer), "plan", original)
    shown = session.view()
    assert shown.budget == shown.plan.budget == 3500
