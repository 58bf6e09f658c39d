"""The history view (`h`): step through commits with keys and mouse, the past read-only, back in one key."""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxtui.tui.screens.history import HistoryScreen
from ctxtui.tui.widgets.past import PastBanner
from textual.widgets import OptionList

from tests.app.helpers import SIZE, make_app, notices, plain, settle, snapshot_ready
from tests.factories.history import make_history


@pytest.fixture
def project(tmp_path) -> tuple[Path, list[str]]:
    root = tmp_path / "project"
    commits = make_history(root, commits=4, seed=11, tasks=12, decisions=4, learnings=4, conventions=4, steering=1)
    return root, commits


async def _open(pilot) -> HistoryScreen:
    await settle(pilot)
    await pilot.press("h")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, HistoryScreen)
    return screen


@pytest.mark.asyncio
async def test_keys_step_through_commits_and_the_past_is_labelled(project):
    root, commits = project
    app = make_app(root, budget=2000)
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot)
        options = app.screen.query_one(OptionList)
        assert options.option_count == 1 + len(commits) - 1  # the working tree, then every commit with .context/
        await pilot.press("down")  # the newest commit
        await settle(pilot)
        session = app.main.session
        assert session.at_revision and session.past.commit.commit == commits[-1]
        assert session.now().isoformat() == session.past.commit.date.replace("Z", "+00:00")
        await pilot.press("down")
        await settle(pilot)
        assert session.past.commit.commit == commits[-2]
        banner = app.main.query_one(PastBanner)
        assert banner.has_class("shown") and commits[-2][:10] in plain(banner) and "read-only" in plain(banner)
        # the packet on screen is the one `pack --rev` prints for that commit
        from ctxtui.opening.request import PackRequest
        from ctxtui.opening.revision import History, open_at

        with History(str(root)) as history:
            opened = open_at(
                "ctx-0.8.1", PackRequest(project=str(root), root_path="/project"), history, history.resolve(commits[-2])
            )
        assert app.main.view.plan.render("md") == opened.packer.plan(2000).render("md")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is app.main and session.at_revision
        await pilot.press("H")  # back to the working tree in one key
        await settle(pilot)
        assert not session.at_revision and not banner.has_class("shown")


@pytest.mark.asyncio
async def test_mouse_picks_a_commit(project):
    root, commits = project
    app = make_app(root, budget=2000)
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot)
        options = app.screen.query_one(OptionList)
        await pilot.click(OptionList, offset=(4, 3))  # the third row: the second-newest commit
        await settle(pilot)
        assert app.main.session.at_revision
        assert app.main.session.past.commit.commit == commits[-1 - (options.highlighted - 1)]


@pytest.mark.asyncio
async def test_the_past_is_read_only(project):
    root, commits = project
    app = make_app(root, budget=2000)
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        before = (root / ".ctxrc").read_bytes() if (root / ".ctxrc").exists() else None
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert any("read-only" in text for text in notices(app))
        after = (root / ".ctxrc").read_bytes() if (root / ".ctxrc").exists() else None
        assert after == before


@pytest.mark.asyncio
async def test_the_pin_compares_two_commits(project):
    root, commits = project
    app = make_app(root, budget=2000)
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot)
        await pilot.press("down", "down", "down", "enter")  # the oldest commit with .context/
        await settle(pilot)
        await pilot.press("P")  # pin it
        await settle(pilot)
        await pilot.press("H")  # the working tree against the pinned past
        await settle(pilot)
        comparison = app.main.against_pin
        assert comparison is not None and "the pin" in comparison.summary


@pytest.mark.asyncio
async def test_not_a_repository_is_a_message(tmp_path):
    from tests.app.helpers import small_workspace

    app = make_app(small_workspace(tmp_path / "plain"), budget=2000)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        assert app.screen is app.main
        assert any("not in a git repository" in text for text in notices(app))


def test_history_view_snapshot(snap_compare, tmp_path):
    root = tmp_path / "p"
    make_history(root, commits=6, seed=12, tasks=14, decisions=5, learnings=5, conventions=4, steering=1)

    async def run_before(pilot) -> None:
        await snapshot_ready(pilot)
        await pilot.press("h")
        await settle(pilot)
        await pilot.press("down", "down")
        await snapshot_ready(pilot)

    assert snap_compare(make_app(root, budget=2000), terminal_size=SIZE, run_before=run_before)


async def _wait_for(pilot, condition, tries=300):
    for _ in range(tries):
        if condition():
            return True
        await pilot.pause(0.05)
    return condition()


@pytest.mark.asyncio
async def test_y_shows_the_selected_entrys_history_in_the_why_panel(project):
    """Issue 23 part 4: the entry's history is in the why panel (its History section), a dialog on `y` again."""
    from ctxtui.tui.screens.entry_history import EntryHistoryScreen
    from ctxtui.tui.widgets.why.panel import WhyPanel

    root, commits = project
    app = make_app(root, budget=2000)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main.query_one("#entries").focus()
        await settle(pilot)
        panel = app.main.query_one(WhyPanel)
        assert "History" not in panel.explanation().plain  # only once asked for
        await pilot.press("y")
        await pilot.pause()
        view = app.main.view
        slot = (view.budget, app.main.selected_key)
        assert slot in view.loaded.entry_histories
        assert await _wait_for(pilot, lambda: view.loaded.entry_histories.get(slot) is not None)
        await settle(pilot)
        assert app.screen is app.main  # wide: no dialog, the panel shows it
        text = panel.explanation().plain
        assert "History  (y: in a dialog)" in text and "commits that touched .context/" in text
        await pilot.press("y")
        assert await _wait_for(pilot, lambda: isinstance(app.screen, EntryHistoryScreen))
        dialog = str(app.screen.query_one("Static").render())
        assert "commits that touched .context/" in dialog
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.main


@pytest.mark.asyncio
async def test_y_in_a_narrow_terminal_opens_the_dialog(project):
    from ctxtui.tui.screens.entry_history import EntryHistoryScreen

    root, commits = project
    app = make_app(root, budget=2000)
    async with app.run_test(size=(90, 40)) as pilot:
        await settle(pilot)
        app.main.query_one("#entries").focus()
        await settle(pilot)
        await pilot.press("y")
        assert await _wait_for(pilot, lambda: isinstance(app.screen, EntryHistoryScreen))
        assert "commits that touched .context/" in str(app.screen.query_one("Static").render())


@pytest.mark.asyncio
async def test_a_failed_walk_is_not_left_following_for_ever(project, monkeypatch):
    """A walk that raised left its slot pending: the panel said "following it…" and `y` "still following"."""

    def fails(*args, **kwargs):
        raise RuntimeError("the walk broke")

    monkeypatch.setattr("ctxtui.opening.history_log.entry_history", fails)
    root, commits = project
    app = make_app(root, budget=2000)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main.query_one("#entries").focus()
        await settle(pilot)
        await pilot.press("y")
        view = app.main.view
        slot = (view.budget, app.main.selected_key)
        assert await _wait_for(pilot, lambda: slot not in view.loaded.entry_histories)
        await settle(pilot)
        assert any("the walk broke" in text for text in notices(app))
        assert app.is_running
