"""A ctx packet joined to nous memories by URL follows the database live (issue 9 part 4).

Nothing on disk changes when nous commits, so the app polls: a new memory of
the agent reaches the packet, the table and the status line within a poll or
two, and another agent's commit changes nothing.
"""

from __future__ import annotations

import pytest
from ctxtui.opening.request import PackRequest
from ctxtui.session import Session
from ctxtui.tui.app import CtxtuiApp

from tests.app.helpers import SIZE, status_text
from tests.app.test_turns_view import wait_for
from tests.conftest import NOW, write_context
from tests.factories import nous_db as F

POLL = 0.2  # seconds


def memory_titles(app: CtxtuiApp) -> list[str]:
    view = app.main.view
    assert view is not None and view.loaded.workspace is not None
    return [entry.title for entry in view.loaded.workspace.memories]


@pytest.mark.asyncio
async def test_a_ctx_packet_with_a_nous_url_follows_new_memories(nous_db, tmp_path):
    root = write_context(tmp_path, {"TASKS.md": "- [ ] move the store to PostgreSQL\n"})
    session = Session(project=root, db_url=nous_db.url, clock=lambda: NOW, options=PackRequest(packer="ctx-0.8.1"))
    app = CtxtuiApp(session, theme_name="ctxtui-dark", watch=False, real_tokens=False, poll_seconds=POLL)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.main.view is not None)
        assert memory_titles(app) == [] and app.main.view.packer_name == "ctx-0.8.1"
        generation = app.main.view.generation
        with nous_db.connect() as conn:
            F.add_decision(conn, 1, "Use PostgreSQL for the store", agent="other")  # another agent's
        await pilot.pause(4 * POLL)
        assert app.main.view.generation == generation and memory_titles(app) == []
        with nous_db.connect() as conn:
            F.add_decision(conn, 2, "Use PostgreSQL for the store")
        await wait_for(pilot, lambda: memory_titles(app) == ["Use PostgreSQL for the store"])
        await wait_for(pilot, lambda: app.main.query_one("#entries").total_count == 2)
        keys = [app.main.query_one("#entries")._rows[k].key for k in range(2)]
        assert any(key.startswith("memory:nous:") for key in keys)
        assert "budget" in status_text(app)
