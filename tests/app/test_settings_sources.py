"""The settings line tells where each value came from, through every transition (issue 21, part 3).

Sources: flag, environment, .ctxrc, default, set here. Transitions: the
first load, a budget step (slider, b, [ ]), a knob edit, a save to .ctxrc,
a reload, a packer switch. The session is driven as the screen drives it;
the last test drives the screen itself (slider keys, save, y, r).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxtui.engine.packers.ctx.knobs import BUDGET_KEY, TASK_PCT
from ctxtui.session import Session
from ctxtui.tui.screens.ctxrc import ConfirmWriteScreen
from ctxtui.tui.widgets.budget.settings import SettingsLine

from tests.app.helpers import SIZE, make_app, settle, small_workspace
from tests.conftest import NOW


def _session(project: Path, budget: int | None = None, **options) -> Session:
    session = Session(project=project, clock=lambda: NOW, root_path="/project")
    if options:
        session.options = session.options.but(**options)
    session.load(budget)
    return session


def _sources(session: Session) -> tuple[str, str | None]:
    """(the budget's source, the task share's source) as the settings line shows them (None: ctx 0.8.0 has no
    task share)."""
    view = session.view()
    task = next((k for k in session.knobs() if k.key == TASK_PCT), None)
    return view.budget_source, task.source if task is not None else None


def _line(session: Session) -> str:
    line = SettingsLine()
    line.view = session.view()
    return line.render().plain


@pytest.mark.parametrize(
    ("given", "env", "ctxrc", "want"),
    [
        (4000, {}, "", "flag"),
        (None, {"CTX_TOKEN_BUDGET": "5000"}, "", "environment"),
        (None, {}, "token_budget: 6000\n", ".ctxrc"),
        (None, {}, "", "default"),
    ],
)
def test_a_budget_keeps_its_first_source_through_reloads_and_switches(tmp_path, monkeypatch, given, env, ctxrc, want):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    project = small_workspace(tmp_path / "proj")
    (project / ".ctxrc").write_text(ctxrc, encoding="utf-8")
    session = _session(project, given)
    assert _sources(session)[0] == want and f"({want})" in _line(session)
    budget = session.budget
    session.reload(None)  # r, or the watcher
    assert (session.budget, _sources(session)[0]) == (budget, want)
    session.switch_packer("ctx-0.8.0")
    assert (session.budget, _sources(session)[0]) == (budget, want)
    session.set_budget(budget)  # the same budget again (a slider event that did not move it): no change
    assert _sources(session)[0] == want


def test_every_transition_of_budget_and_knob(tmp_path, monkeypatch):
    project = small_workspace(tmp_path / "proj")
    session = _session(project, 4000)
    assert _sources(session) == ("flag", "default")
    assert "budget 4,000 tokens (flag)" in _line(session) and "task share 40% (default)" in _line(session)

    session.set_budget(4100)  # a slider step, b, [ or ]
    assert _sources(session) == ("set here", "default")
    assert "budget 4,100 tokens (set here)" in _line(session)

    session.set_knob(TASK_PCT, 0.3)
    assert _sources(session) == ("set here", "set here")
    assert "task share 30% (set here)" in _line(session)

    session.reload(None)  # both stay what they were set to here
    assert (session.budget, _sources(session)) == (4100, ("set here", "set here"))

    session.switch_packer("ctx-0.8.0")
    assert (session.budget, _sources(session)) == (4100, ("set here", None))
    session.switch_packer("ctx-0.8.1")
    assert (session.budget, _sources(session)) == (4100, ("set here", "set here"))

    # ctrl+s, y: what the screen writes, then tells the session.
    from ctxtui.engine.sources.ctxrc_edit import plan_ctxrc_change
    from ctxtui.safe_write import write_atomically

    change = plan_ctxrc_change(project, {TASK_PCT: 0.3, BUDGET_KEY: 4100})
    write_atomically(change.path, change.new.encode("utf-8"))
    session.saved_to_ctxrc([TASK_PCT, BUDGET_KEY])
    assert _sources(session) == (".ctxrc", ".ctxrc")
    assert "budget 4,100 tokens (.ctxrc)" in _line(session) and "task share 30% (.ctxrc)" in _line(session)

    session.reload(None)  # r: the file says so now
    assert (session.budget, _sources(session)) == (4100, (".ctxrc", ".ctxrc"))
    session.switch_packer("ctx-0.8.0")
    session.switch_packer("ctx-0.8.1")
    assert (session.budget, _sources(session)) == (4100, (".ctxrc", ".ctxrc"))

    # .ctxrc edited by hand meanwhile: the budget it set follows the file, still (.ctxrc).
    (project / ".ctxrc").write_text("token_budget: 4500\ntask_budget_pct: 0.3\n", encoding="utf-8")
    session.reload(None)
    assert (session.budget, _sources(session)) == (4500, (".ctxrc", ".ctxrc"))


def test_a_budget_set_here_is_kept_when_ctxrc_changes(tmp_path):
    project = small_workspace(tmp_path / "proj")
    (project / ".ctxrc").write_text("token_budget: 6000\n", encoding="utf-8")
    session = _session(project)
    session.set_budget(3000)
    (project / ".ctxrc").write_text("token_budget: 7000\n", encoding="utf-8")
    session.reload(None)
    assert (session.budget, _sources(session)[0]) == (3000, "set here")


@pytest.mark.asyncio
async def test_the_screen_after_a_step_a_save_and_a_reload(tmp_path):
    project = small_workspace(tmp_path / "proj")
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        line = app.main.query_one(SettingsLine)
        assert "budget 4,000 tokens (flag)" in line.render().plain
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "budget 4,100 tokens (set here)" in line.render().plain
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmWriteScreen)
        await pilot.press("y")
        await settle(pilot)
        assert "budget 4,100 tokens (.ctxrc)" in line.render().plain
        await pilot.press("r")
        await settle(pilot)
        assert "budget 4,100 tokens (.ctxrc)" in line.render().plain
        assert "token_budget: 4100" in (project / ".ctxrc").read_text(encoding="utf-8")
