"""A live writer: another process commits to the memory database while the app runs (issue 13 part 6),
and a whole session leaves nothing beside the database (part 7).

The app used to end on an old state in 9 of 14 trials (overlapping reload workers shared one SQLite
connection: "cannot start a transaction within a transaction"), to miss about one `memory add` in
three, and to leave `-wal`/`-shm` beside every WAL database it opened.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ctxtui.session import Session
from ctxtui.tui.app import CtxtuiApp

from tests.app.helpers import SIZE, busy_workers, settle
from tests.factories.memory_dbs import build_native_db
from tests.memory import stores
from tests.memory.conftest import NOW

WRITER = """
import sqlite3, sys, time
db, count, pause = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
for n in range(count):
    conn = sqlite3.connect(db, timeout=5)   # open, commit, close: what `ctxtui memory add` does
    with conn:
        conn.execute(
            "INSERT INTO memories (id, kind, title, body, created_at, updated_at) VALUES (?, 'fact', ?, "
            "'Written by another process.', '2026-04-30T00:00:00Z', '2026-04-30T00:00:00Z')",
            (f"live-{n}", f"Live memory {n}"),
        )
    conn.close()
    time.sleep(pause)
"""


def listing(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


def memory_ids(app) -> set[str]:
    return {o.entry.source for o in app.main.view.plan.outcomes if o.entry.source.startswith("memory.db:")}


@pytest.mark.asyncio
async def test_app_follows_a_writer_committing_all_the_time_and_ends_on_the_final_state(tmp_path):
    root = stores.workspace(tmp_path / "project")
    db = root / ".context" / "memory.db"  # the default place: the .context/ watcher sees it too
    build_native_db(db, 10, seed=4, now=NOW)
    session = Session(project=root, db=db, clock=lambda: NOW)
    app = CtxtuiApp(session, budget=100_000, theme_name="ctxtui-dark", watch=True, real_tokens=False)
    count = 150
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause(0.3)  # let the watchers start
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(count), "0.01"])
        try:
            deadline = time.monotonic() + 60
            while writer.poll() is None and time.monotonic() < deadline:
                await pilot.pause(0.1)
        finally:
            writer.wait(timeout=30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and len(memory_ids(app)) < 10 + count:
            await pilot.pause(0.1)
        await settle(pilot)
        on_screen = memory_ids(app)
        problems = [str(p) for p in (app.session.workspace.memory_problems if app.session.workspace else [])]
    # The final state equals a fresh read of the final files.
    fresh = Session(project=root, db=db, clock=lambda: NOW)
    fresh.load(budget=100_000)
    expected = {o.entry.source for o in fresh.view().plan.outcomes if o.entry.source.startswith("memory.db:")}
    assert len(expected) == 10 + count
    assert on_screen == expected and problems == []


@pytest.mark.asyncio
async def test_a_whole_session_leaves_the_folder_as_it_found_it(tmp_path):
    root = stores.workspace(tmp_path / "project")
    db = root / ".context" / "memory.db"
    build_native_db(db, 10, seed=4, now=NOW)  # a WAL database, no writer attached
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    before = listing(db.parent)
    session = Session(project=root, db=db, clock=lambda: NOW)
    app = CtxtuiApp(session, budget=100_000, theme_name="ctxtui-dark", watch=True, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.action_reload()
        await settle(pilot)
        await pilot.press("right_curly_bracket")
        await settle(pilot)
    assert listing(db.parent) == before
    assert not any(name.endswith(("-wal", "-shm")) for name in before)


@pytest.mark.asyncio
async def test_reloads_never_overlap_and_a_burst_is_read_in_few_goes(tmp_path, monkeypatch):
    """Two watchers fire for one commit and commits come in bursts: reloads used to run side by side."""
    import threading

    root = stores.workspace(tmp_path / "project")
    db = root / ".context" / "memory.db"
    build_native_db(db, 10, seed=4, now=NOW)
    session = Session(project=root, db=db, clock=lambda: NOW)
    app = CtxtuiApp(session, budget=100_000, theme_name="ctxtui-dark", watch=False, real_tokens=False)
    running, most, calls, seen = [0], [0], [0], set()
    lock = threading.Lock()
    original = Session.reload

    def slow_reload(self, changed=None, progress=None):
        with lock:
            running[0] += 1
            calls[0] += 1
            most[0] = max(most[0], running[0])
            seen.update(changed or ())
        time.sleep(0.05)
        try:
            return original(self, changed, progress=progress)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(Session, "reload", slow_reload)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        names = [db.parent / f"memory.db{suffix}" for suffix in ("", "-wal")] * 10
        for name in names:
            app.on_files_changed({name})
            await pilot.pause(0.01)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (busy_workers(app) or running[0]):
            await pilot.pause(0.05)
        await settle(pilot)
    assert most[0] == 1
    assert calls[0] < len(names) and seen == set(names)


@pytest.mark.asyncio
async def test_the_locked_problem_clears_by_itself_once_the_lock_is_gone(tmp_path):
    from tests.factories.memory_dbs import build_cortex_db
    from tests.memory.conftest import Writer

    root = stores.workspace(tmp_path / "project")
    db = build_cortex_db(root / "cortex.db", 10, seed=3, now=NOW)  # a rollback journal: a lock touches no file
    writer = Writer(db)
    writer("exclusive")
    session = Session(project=root, db=db, clock=lambda: NOW)
    app = CtxtuiApp(session, budget=100_000, theme_name="ctxtui-dark", watch=True, real_tokens=False)

    def problems() -> str:
        workspace = app.session.workspace
        return " ".join(str(p) for p in workspace.memory_problems) if workspace else ""

    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert "locked" in problems()
            writer("commit")  # nothing written: no file moves, no watcher fires
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and "locked" in problems():
                await pilot.pause(0.1)
            await settle(pilot)
            assert problems() == ""
            assert len(app.session.workspace.memories) == 10
    finally:
        writer.close()
