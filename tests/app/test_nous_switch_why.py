"""The nous packer in the packer switcher (`v`) and the why panel, on a turn that needs nous's own rules.

The turn logged a passive-path procedure pick with the Procedure Catalog on
(one pointer line, context.py:1418-1442) and a Known-Procedures-style fact
section; the packet on screen must be the packer's own at the budget shown,
and each entry's why panel the engine's own sentence for its fate.
"""

from __future__ import annotations

import pytest
from ctxtui.engine.explain.reasons import describe
from ctxtui.opening.request import PackRequest
from ctxtui.session import Session
from ctxtui.tui.app import CtxtuiApp
from ctxtui.tui.safe_text import clean_line

from tests.app.helpers import SIZE, cursor_to, settle, why_text
from tests.app.test_turns_view import wait_for
from tests.conftest import NOW, write_context
from tests.factories import nous_db as F

POLL = 0.2
POINTER = "★ Recommended for this task (see your Procedure Catalog): `deploy` — load with get_procedure before acting."


def seed(conn) -> None:
    fact = F.add_fact(conn, 1, "User prefers metric units", subject="units", confidence=0.9)
    proc = F.add_procedure(conn, 1, "deploy", description="Ship it")
    F.add_call(conn, "c1", model="gpt-4o", tokens={"procedure_catalog": 300, "relevant_facts": 11})
    F.add_retrieval(
        conn,
        "r1",
        query="how do we deploy the service?",
        candidates=[
            F.candidate(fact, "fact", final_rank=1),
            F.candidate(proc, "procedure", final_rank=2, leg="context_procedures_critic"),
        ],
        legs=[{"name": "context_procedures_critic", "attempted": True}],
    )


@pytest.mark.asyncio
async def test_v_switches_to_nous_and_the_why_panel_explains_its_entries(nous_db, tmp_path, monkeypatch):
    monkeypatch.setenv("NOUS_MODEL", "gpt-4o")
    monkeypatch.setenv("NOUS_PROC_SELECTION_GRAPH_PRIMARY", "false")
    with nous_db.connect() as conn:
        seed(conn)
    root = write_context(tmp_path, {"TASKS.md": "- [ ] ship the release\n"})
    session = Session(project=root, db_url=nous_db.url, clock=lambda: NOW, options=PackRequest(packer="ctx-0.8.1"))
    app = CtxtuiApp(session, theme_name="ctxtui-dark", watch=False, real_tokens=False, poll_seconds=POLL)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.main.view is not None)
        assert "nous" in app.session.available_packers()
        for _ in range(len(app.session.available_packers())):
            if app.session.packer_name == "nous":
                break
            await pilot.press("v")
            await wait_for(pilot, lambda: not app.main.busy if hasattr(app.main, "busy") else True)
            await settle(pilot)
        await wait_for(pilot, lambda: app.main.view is not None and app.main.view.packer_name == "nous")
        if app.screen is not app.main:  # the Turns list opens over the main screen for a nous source
            await pilot.press("escape")
            await settle(pilot)
        view = app.main.view
        packer = view.loaded.packer
        assert view.markdown == packer.plan(view.budget).render("md")
        assert f"## Recommended Procedures\n\n{POINTER}" in view.markdown
        await pilot.press("tab")
        for position, outcome in enumerate(view.plan.outcomes):
            await cursor_to(pilot, position)
            await settle(pilot)
            assert app.main.selected_key == outcome.entry.key
            assert clean_line(describe(outcome)) in why_text(app).split("\n")
