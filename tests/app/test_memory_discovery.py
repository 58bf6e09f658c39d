"""`.context/memory.db` found: ctx never reads it, so the packet stays ctx's until the user joins it (m or --db)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxtui.cli import main
from ctxtui.engine.sources.memory.native import schema

from tests.app.helpers import SIZE, CapturedRun, make_app, notices, settle, small_workspace, status_text


def workspace_with_memories(root: Path) -> Path:
    project = small_workspace(root / "proj")
    db = project / ".context" / "memory.db"
    for n, title in enumerate(("Pin the SQLite version", "Retry the socket bind", "Prefer UTC in logs")):
        schema.add_memory(db, kind="decision", title=title, body="Because.", created_at=f"2026-11-1{n}T10:00:00Z")
    return project


def memory_titles(app) -> set[str]:
    return {o.entry.title for o in app.main.view.plan.outcomes if o.entry.key.startswith("memory:")}


@pytest.mark.asyncio
async def test_a_found_memory_db_is_offered_not_joined_and_m_joins_it(tmp_path):
    project = workspace_with_memories(tmp_path)
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert memory_titles(app) == set()  # the default packet stays ctx's
        ctx_only = app.main.view.markdown
        assert ".context/memory.db found — press m to join it" in status_text(app)

        await pilot.press("m")
        await settle(pilot)
        assert memory_titles(app) == {"Pin the SQLite version", "Retry the socket bind", "Prefer UTC in logs"}
        assert app.main.view.markdown != ctx_only and app.session.budget == 4000
        status = status_text(app)
        assert "ctx + 3 memories" in status and "found" not in status

        await pilot.press("m")  # again: nothing more to join
        await settle(pilot)
        assert "already joined" in notices(app)[-1]


@pytest.mark.asyncio
async def test_no_hint_without_a_database_and_a_compact_hint_at_80_columns(tmp_path):
    app = make_app(small_workspace(tmp_path / "bare"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "memory" not in status_text(app)
        await pilot.press("m")
        await settle(pilot)
        assert "No .context/memory.db" in notices(app)[-1]

    app = make_app(workspace_with_memories(tmp_path / "with"), budget=4000, real_tokens=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "m: join memory.db" in status_text(app)


@pytest.mark.asyncio
async def test_the_cli_offers_the_found_database_and_db_joins_it(tmp_path, monkeypatch):
    project = workspace_with_memories(tmp_path)
    captured = CapturedRun(monkeypatch)
    assert main([str(project), "--now", "2026-11-21T23:56:08Z"]) == 0
    assert captured.app.session.db is None and captured.app.session.memory_db_found is not None

    captured = CapturedRun(monkeypatch)
    assert main([str(project), "--db", str(project / ".context" / "memory.db"), "--now", "2026-11-21T23:56:08Z"]) == 0
    app = captured.app
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(memory_titles(app)) == 3 and "ctx + 3 memories" in status_text(app)
