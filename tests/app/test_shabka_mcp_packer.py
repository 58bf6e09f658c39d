"""Shabka's MCP packet in the app: `v` offers it beside `shabka context-pack` for a Shabka store, the screen
shows the tool's own text, the why panel explains its fates, and knob edits carry across the switch."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from ctxtui.engine.packers.shabka.mcp import NO_MEMORIES
from ctxtui.opening.request import PackRequest
from ctxtui.session import Session
from ctxtui.tui.app import CtxtuiApp

from tests.app.helpers import SIZE, settle, why_text
from tests.factories.shabka_dbs import bulk_store

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)


def shabka_app(tmp_path: Path) -> CtxtuiApp:
    store = bulk_store(tmp_path / "shabka.db", 40)
    session = Session(
        project=tmp_path,
        db=store,
        clock=lambda: NOW,
        options=PackRequest(packer="shabka", user="alice", now=NOW.isoformat()),
    )
    return CtxtuiApp(session, budget=600, theme_name="ctxtui-dark", watch=False, real_tokens=False)


def test_a_shabka_store_feeds_both_of_shabkas_packets(tmp_path: Path):
    store = bulk_store(tmp_path / "shabka.db", 10)
    session = Session(project=tmp_path, db=store, clock=lambda: NOW, options=PackRequest(packer="shabka"))
    assert session.available_packers() == ("shabka", "shabka-mcp")


@pytest.mark.asyncio
async def test_v_switches_to_the_mcp_packet_and_back(tmp_path: Path):
    app = shabka_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.session.packer_name == "shabka"
        cli_text = app.main.view.markdown
        await pilot.press("v")
        await settle(pilot)
        assert app.session.packer_name == "shabka-mcp"
        view = app.main.view
        assert view.budget == 600  # the budget is the tool's token_budget
        packer = app.session.loaded.packer
        assert view.markdown == packer.plan(600).render("md")
        # Same pipeline, same text, less println!'s newline (or the tool's text for an empty pack).
        assert view.markdown == (cli_text[:-1] if cli_text else NO_MEMORIES)
        await pilot.press("tab")
        await settle(pilot)
        assert why_text(app).strip()  # the selected memory's fate, explained
        await pilot.press("v")
        await settle(pilot)
        assert app.session.packer_name == "shabka"


def test_a_tags_edit_carries_across_the_switch(tmp_path: Path):
    store = bulk_store(tmp_path / "shabka.db", 30)
    session = Session(project=tmp_path, db=store, clock=lambda: NOW, options=PackRequest(packer="shabka-mcp"))
    session.load(budget=5000)
    session.set_knob("tag", "alpha, beta")
    mcp = session.loaded.packer
    assert mcp.settings.tags == ("alpha", "beta") and mcp.tags_text == "alpha, beta"
    session.switch_packer("shabka")
    assert session.loaded.packer.settings.tags == ("alpha", "beta")  # the CLI's -t list, from the one string
