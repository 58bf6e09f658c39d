"""Live reload beyond `.context/`: `.ctxrc`, a steering folder it names, 0.8.0's context folder.

Before, only `.context/` and the database were watched: an edit to `.ctxrc` in
an editor left a packet on screen that ctx would no longer build, until `r`
(seen in tmux: `tool: claude` added, the settings line still said `tool none`).
"""

from __future__ import annotations

import pytest
from ctxtui.opening.request import PackRequest
from ctxtui.opening.sources import source_paths
from ctxtui.tui.watch_targets import WatchTarget, watch_targets
from ctxtui.tui.widgets.budget.settings import SettingsLine

from tests.app.helpers import SIZE, make_app, settle, small_workspace
from tests.app.test_live_reload import GOOD_STEERING, wait_until


def settings_text(app) -> str:
    return app.main.query_one(SettingsLine).render().plain


def test_every_source_is_watched_once_and_a_context_dir_of_dot_is_not_watched_whole(tmp_path):
    project = tmp_path / "p"
    (project / ".context").mkdir(parents=True)
    (project / "rules").mkdir()
    (project / ".ctxrc").write_text("steering:\n  dir: rules\ncontext_dir: .\n", encoding="utf-8")
    db = project / ".context" / "memory.db"
    sources = source_paths(PackRequest(project=str(project), db=str(db)), {})
    found = watch_targets(project / ".context", sources, db)
    assert found == [
        WatchTarget(project / ".context", True, None),
        WatchTarget(project, False, None),  # .ctxrc, and 0.8.0's `context_dir: .`: this folder's files, not its tree
        WatchTarget(project / "rules", False, None),
        WatchTarget(project / ".context", False, frozenset({"memory.db", "memory.db-wal"})),  # never -shm
    ]
    assert not any(target.recursive and target.folder == project for target in found)


def test_a_steering_folder_not_made_yet_is_watched_through_its_parent(tmp_path):
    project = tmp_path / "p"
    (project / ".context").mkdir(parents=True)
    found = watch_targets(project / ".context", [str(project / ".ctxrc"), str(project / "rules")], None)
    assert found == [
        WatchTarget(project / ".context", True, None),
        WatchTarget(project, False, frozenset({".ctxrc", "rules"})),
    ]


@pytest.mark.asyncio
async def test_an_edit_to_ctxrc_reloads_the_packet(tmp_path):
    project = small_workspace(tmp_path / "proj")
    app = make_app(project, budget=None, watch=True, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "budget 8,000 tokens (default)" in settings_text(app)
        await pilot.pause(0.3)  # let the watchers start
        (project / ".ctxrc").write_text("token_budget: 3000\ntool: claude\n", encoding="utf-8")
        await wait_until(pilot, lambda: "tool claude (.ctxrc)" in settings_text(app))
        assert "budget 3,000 tokens (.ctxrc)" in settings_text(app)
        assert app.main.view.budget == 3000 and app.main.view.plan.budget == 3000


@pytest.mark.asyncio
async def test_a_steering_folder_named_in_ctxrc_is_watched_from_the_load_that_reads_it(tmp_path):
    project = small_workspace(tmp_path / "proj")
    rules = project / "rules"
    rules.mkdir()
    app = make_app(project, budget=4000, watch=True, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause(0.3)
        (project / ".ctxrc").write_text("steering:\n  dir: rules\n", encoding="utf-8")
        await wait_until(pilot, lambda: app.session.loaded.workspace.config.steering_dir == "rules")  # reloaded
        await wait_until(pilot, lambda: any(target.folder == rules for target in app._watching))  # and watched
        await pilot.pause(0.3)  # the watcher's first poll
        (rules / "a.md").write_text(GOOD_STEERING, encoding="utf-8")
        await wait_until(pilot, lambda: bool(app.session.packer.packet(app.main.view.plan).steering))


def test_a_reload_follows_the_files_budget_unless_the_user_set_it(tmp_path):
    """default → .ctxrc's token_budget → removed again: the budget and its label follow the file; a budget set
    here is the user's and stays. Before, `(default)` stayed on screen over a budget .ctxrc now replaced."""
    from ctxtui.session import Session

    from tests.app.helpers import NOW

    project = small_workspace(tmp_path / "proj")
    session = Session(project=project, clock=lambda: NOW, root_path="/project")
    session.load(None)
    assert (session.budget, session.budget_source) == (8000, "default")
    (project / ".ctxrc").write_text("token_budget: 3000\n", encoding="utf-8")
    session.reload({project / ".ctxrc"})
    assert (session.budget, session.budget_source) == (3000, ".ctxrc")
    (project / ".ctxrc").write_text("tool: claude\n", encoding="utf-8")
    session.reload({project / ".ctxrc"})
    assert (session.budget, session.budget_source) == (8000, "default")
    session.set_budget(5000)
    (project / ".ctxrc").write_text("token_budget: 3000\n", encoding="utf-8")
    session.reload({project / ".ctxrc"})
    assert (session.budget, session.budget_source) == (5000, "set here")
