"""The Turns view against a real (private) PostgreSQL: listed, picked, live, and a server that goes away."""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxtui.opening.request import PackRequest
from ctxtui.session import Session
from ctxtui.tui.app import CtxtuiApp
from ctxtui.tui.screens.turns import TurnsScreen
from textual.widgets import DataTable, Static

from tests.app.helpers import SIZE
from tests.app.nous_turns import add_turn, seed_turns
from tests.conftest import NOW
from tests.pg import NousDb, private_cluster

POLL = 0.2  # seconds: the tests' poll interval


def nous_app(url: str, tmp_path: Path) -> CtxtuiApp:
    session = Session(project=tmp_path, db_url=url, clock=lambda: NOW, options=PackRequest(packer="nous"))
    return CtxtuiApp(session, theme_name="ctxtui-dark", watch=False, real_tokens=False, poll_seconds=POLL)


async def wait_for(pilot, condition, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition not met in time")


def listed(app: CtxtuiApp) -> list[str]:
    screen = app.turns_screen
    assert screen is not None
    table = screen.query_one(DataTable)
    return [str(row.key.value) for row in table.ordered_rows]


def banner(app: CtxtuiApp) -> str:
    screen = app.turns_screen
    assert screen is not None
    widget = screen.query_one("#turns-banner", Static)
    return str(widget.render()) if widget.has_class("-shown") else ""


@pytest.mark.asyncio
async def test_turns_listed_picked_and_live(nous_db, tmp_path):
    with nous_db.connect() as conn:
        ids = seed_turns(conn)
    app = nous_app(nous_db.url, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.turns_screen is not None and listed(app) == ["r3", "c2", "r1"])
        await wait_for(pilot, lambda: app.main.view is not None)
        assert app.session.turn_key == "r3"  # the newest sampled turn opens behind the list
        # Pick r1 (third row): its entries and its sections' bars in the main screen.
        await pilot.press("down", "down", "enter")
        await wait_for(
            pilot, lambda: app.session.turn_key == "r1" and app.main.view.loaded.packer.turn.summary.key == "r1"
        )
        assert isinstance(app.screen, type(app.main))
        titles = {o.entry.title for o in app.main.view.plan.outcomes}
        assert "[units] User prefers metric units" in titles and "Release day" in titles
        bars = [b.name for b in app.main.view.loaded.packer.buckets(app.main.view.plan)]
        assert "Relevant Facts" in bars and "Related Decisions" in bars
        assert app.main._slider.value == app.session.budget == app.main.view.loaded.packer.default_budget

        # A frame knob recomputes, and the budget follows the frame's own sum.
        before = app.session.budget
        assert app.main.apply_knob("frame", "conversation") is None
        await pilot.pause()
        assert app.session.budget == app.session.packer.default_budget != before
        assert app.main._slider.value == app.session.budget

        # Back to the list: a turn committed now shows up within a poll, the cursor stays on its turn.
        await pilot.press("t")
        await wait_for(pilot, lambda: app.turns_screen is not None)
        screen = app.turns_screen
        assert screen.highlighted_key == "r1"
        with nous_db.connect() as conn:
            add_turn(conn, 4, ids, minutes=3)
        await wait_for(pilot, lambda: listed(app)[:1] == ["r4"])
        assert screen.highlighted_key == "r1"

        # A changed memory re-reads the turn on the main screen.
        nous_db.execute(
            "UPDATE heart.facts SET content = 'User prefers imperial units' WHERE id = %s", (ids["metric"],)
        )
        await wait_for(
            pilot,
            lambda: app.main.view is not None and any("imperial" in o.entry.title for o in app.main.view.plan.outcomes),
        )
        await pilot.press("escape")
        assert not isinstance(app.screen, TurnsScreen)


@pytest.mark.asyncio
async def test_an_unsampled_turn_is_not_opened(nous_db, tmp_path):
    with nous_db.connect() as conn:
        seed_turns(conn)
    app = nous_app(nous_db.url, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.turns_screen is not None and listed(app) == ["r3", "c2", "r1"])
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.turns_screen is not None and app.turns_screen.highlighted_key == "c2"
        await pilot.press("question_mark")  # the help explains the Turns view's keys and columns
        await pilot.pause()
        help_text = "\n".join(f"{key}  {words}" for key, words in app.screen.lines() if key is not None)
        help_text += "\n" + "\n".join(words for key, words in app.screen.lines() if key is None)
        assert "t  Turns" in help_text and "Turns view (t)" in help_text and "session#turn" in help_text


@pytest.mark.asyncio
async def test_server_away_banner_then_reconnects(tmp_path):
    with private_cluster() as cluster:
        db = NousDb(cluster, cluster.new_database())
        with db.connect() as conn:
            ids = seed_turns(conn)
        app = nous_app(db.url, tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.turns_screen is not None and listed(app) == ["r3", "c2", "r1"])
            cluster.server.stop_server("fast")
            await wait_for(pilot, lambda: "cannot be read" in banner(app))
            assert "the last good list stays" in banner(app)
            assert listed(app) == ["r3", "c2", "r1"]
            await pilot.press("down")  # the app still answers keys
            assert app.turns_screen.highlighted_key == "c2"

            cluster.server.start_server()
            with db.connect() as conn:
                add_turn(conn, 4, ids, minutes=3)
            await wait_for(pilot, lambda: banner(app) == "" and listed(app)[:1] == ["r4"], seconds=15)
            assert app.turns_screen.highlighted_key == "c2"
            await pilot.press("q")


def test_turns_screen_snapshot(snap_compare, nous_db, tmp_path):
    """The Turns view of three logged turns (the socket path in the title replaced: it is a temp dir)."""
    with nous_db.connect() as conn:
        seed_turns(conn)
    session = Session(project=tmp_path, db_url=nous_db.url, clock=lambda: NOW, options=PackRequest(packer="nous"))
    app = CtxtuiApp(session, theme_name="ctxtui-dark", watch=False, real_tokens=False, poll_seconds=3600)

    async def run_before(pilot) -> None:
        await wait_for(pilot, lambda: app.turns_screen is not None and listed(app) == ["r3", "c2", "r1"])
        await wait_for(pilot, lambda: app.main.view is not None)
        await pilot.pause()
        from textual.widgets import Label

        title = "nous turns of nous-default in postgresql://ctxtui_ro@/nous, newest first (polled every 2 s)"
        app.turns_screen.query_one("#turns-title", Label).update(title)
        await pilot.press("down", "down")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
