"""The tuning loop on screen: packer switch, knobs, pin and the differs filter, step marks, coverage, .ctxrc saving,
and the why panel's advice. Each figure on screen is checked against the engine assembling the packet itself."""

from __future__ import annotations

import re

import pytest
from ctxtui.comparison import DIFFERS, DOWN, UP
from ctxtui.engine.explain.advice import advise, describe_advice
from ctxtui.engine.explain.coverage import coverage
from ctxtui.engine.fate import Fate
from ctxtui.opening.ctxrc_save import BACKUP_MARK
from ctxtui.tui.screens.coverage import CoverageChart, CoverageScreen
from ctxtui.tui.screens.ctxrc import ConfirmWriteScreen
from ctxtui.tui.screens.knobs import KnobsScreen
from ctxtui.tui.tuning import PIN_FILTER, STEP_FILTER
from ctxtui.tui.widgets.budget.settings import SettingsLine
from ctxtui.tui.widgets.changes import ChangesLine
from ctxtui.tui.widgets.tiers.bars import TierBars
from textual.widgets import Input

from tests.app.helpers import SIZE, make_app, notices, settle, small_workspace, table, why_text
from tests.conftest import corpus_path, needs_corpus


def settings_text(app) -> str:
    return app.main.query_one(SettingsLine).render().plain


def shown_keys(app) -> set[str]:
    return {row.key for row in table(app).view_rows}


def fate_changes(before, after) -> dict[str, tuple[Fate, Fate]]:
    """Entry key → (fate before, fate after), for every entry whose fate differs: the engine's own answer."""
    return {
        o.entry.key: (o.fate, after.outcome(o.entry.key).fate)
        for o in before.outcomes
        if after.outcome(o.entry.key) is not None and o.fate is not after.outcome(o.entry.key).fate
    }


RANK = {Fate.DROPPED: 0, Fate.SUMMARIZED: 1, Fate.INCLUDED: 2}


@needs_corpus
@pytest.mark.asyncio
async def test_switching_the_packer_keeps_budget_and_selection():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.session.packer_name == "ctx-0.8.1"
        await pilot.press("tab")  # the table
        await pilot.press("down", "down", "down")
        await settle(pilot)
        chosen = app.main.selected_key
        assert chosen is not None
        await pilot.press("v")
        await settle(pilot)
        assert app.session.packer_name == "ctx-0.8.0"
        assert app.session.budget == 4000 and app.main.view.budget == 4000
        assert app.main.view.packer_name == "ctx-0.8.0"
        assert "packer ctx agent 0.8.0" in settings_text(app)
        assert app.main.selected_key == chosen and table(app).selected_key == chosen
        # The packet on screen is 0.8.0's own at that budget.
        assert app.main.view.markdown == app.session.loaded.packer.plan(4000).render("md")


@needs_corpus
@pytest.mark.asyncio
async def test_a_knob_edit_recomputes_like_the_slider():
    app = make_app(corpus_path("ctx-large"), budget=4200, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = app.main.view.plan
        await pilot.press("k")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, KnobsScreen)
        field = screen.query_one("#knob-task_budget_pct", Input)
        field.value = "0.3"
        field.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen  # stays open for the next try
        assert "(set here)" in str(screen.query_one("#source-task_budget_pct").render())
        view = app.main.view
        assert app.session.knob_edits == {"task_budget_pct": 0.3}
        assert view.plan.budget == 4200 and view.plan is not before
        # What is shown is a fresh assembly with the knob set, and the fates it moved are marked.
        rebuilt = app.session.loaded.packer
        assert view.markdown == rebuilt.plan(4200).render("md")
        changes = fate_changes(before, view.plan)
        assert changes
        assert app.main.marks == {k: (UP if RANK[a] > RANK[b] else DOWN) for k, (b, a) in changes.items()}
        assert "task share 30% (set here)" in settings_text(app)
        # A value the packer cannot take: a message under the row, nothing changes.
        field.value = "1.5"
        await pilot.press("enter")
        await settle(pilot)
        assert "at most 1" in str(screen.query_one("#error-task_budget_pct").render())
        assert app.session.knob_edits == {"task_budget_pct": 0.3}
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.main


@needs_corpus
@pytest.mark.asyncio
async def test_pin_marks_what_differs_and_d_filters_it():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("P")
        await settle(pilot)
        pinned = app.main.view.plan
        assert app.main.pin is not None and app.main.pin.budget == 4000
        assert app.main.marks == {}  # nothing differs from itself
        app.main.request_budget(6000)
        await settle(pilot)
        now = app.main.view.plan
        differs = fate_changes(pinned, now)
        assert differs
        # Every entry that differs carries a mark; nothing else does.
        assert set(app.main.marks) == set(differs)
        assert app.main.against_pin.keys == frozenset(differs)
        line = app.main.query_one(ChangesLine)
        assert f"{len(differs)} entries differ from the pin" in line.pinned
        # The bars show each bucket's token delta against the pin.
        deltas = app.query_one(TierBars).deltas
        assert sum(deltas.values()) == now.tokens_used - pinned.tokens_used
        # d: only what differs from the pin; again: what the last step moved; again: everything.
        await pilot.press("d")
        await settle(pilot)
        assert app.main.row_filter.keys_label == PIN_FILTER
        assert shown_keys(app) == set(differs)
        await pilot.press("d")
        await settle(pilot)
        assert app.main.row_filter.keys_label == STEP_FILTER
        assert shown_keys(app) == set(app.main.step.keys)
        await pilot.press("d")
        await settle(pilot)
        assert app.main.row_filter.keys is None and len(shown_keys(app)) == len(now.outcomes)
        # The pin filter follows the budget.
        await pilot.press("d")
        app.main.request_budget(8000)
        await settle(pilot)
        assert shown_keys(app) == set(fate_changes(pinned, app.main.view.plan))
        # Unpin: no ◆ left.
        await pilot.press("P")
        await settle(pilot)
        assert app.main.pin is None and DIFFERS not in app.main.marks.values()
        assert not app.main.query_one(ChangesLine).pinned


@needs_corpus
@pytest.mark.asyncio
async def test_step_marks_follow_each_slider_move():
    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for budget in (4100, 3500, 3500, 9000):
            before = app.main.view.plan
            app.main.request_budget(budget)
            await settle(pilot)
            after = app.main.view.plan
            changes = fate_changes(before, after)
            expected = {k: (UP if RANK[a] > RANK[b] else DOWN) for k, (b, a) in changes.items()}
            if before.budget == after.budget:
                continue  # the same view: the last step's marks stay
            assert app.main.marks == expected
            summary = app.main.query_one(ChangesLine).step
            if not changes:
                assert summary == "no entry changed fate"
                continue
            # In words, counted by where entries went: "4 moved to full, 2 to summarized".
            for fate, word in ((Fate.INCLUDED, "full"), (Fate.SUMMARIZED, "summarized"), (Fate.DROPPED, "dropped")):
                went = sum(1 for b, a in changes.values() if a is fate)
                if went:
                    assert re.search(rf"(^|, ){went:,} (moved )?to {word}\b", summary), summary
            # The marks column draws them.
            drawn = {row.key: app.main.marks.get(row.key) for row in table(app).view_rows}
            assert {k for k, m in drawn.items() if m} == set(expected)


@needs_corpus
@pytest.mark.asyncio
async def test_coverage_screen_agrees_with_the_engine_and_a_click_jumps_the_budget():
    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        for _ in range(50):
            if isinstance(app.screen, CoverageScreen):
                break
            await pilot.pause(0.1)
        screen = app.screen
        assert isinstance(screen, CoverageScreen)
        text = str(screen.query_one("#coverage-table").render())
        expected = coverage(app.session.loaded.packer, 4000)
        assert f"The packet stops changing at a budget of {expected.settles_at:,} tokens." in text
        by = {s.section: s for s in expected.sections}
        assert "25 never in full at any budget" in text and "32 never in full at any budget" in text
        decisions = by["decisions"]
        assert f"{decisions.full_now:,} · {decisions.title_now:,} · {decisions.dropped_now:,} of 109" in text
        chart = screen.query_one(CoverageChart)
        x = 6 + chart.size.width // 3
        target = chart.budget_at(x)
        assert 0 < target != 4000
        await pilot.click(CoverageChart, offset=(x, 3))
        await settle(pilot)
        assert app.screen is app.main
        assert app.session.budget == target and app.main.view.budget == target


@pytest.mark.asyncio
async def test_saving_to_ctxrc_asks_first_and_writes_atomically_only_on_yes(tmp_path):
    root = small_workspace(tmp_path)
    (root / ".ctxrc").write_text("# my settings\nunknown_key: keep me\n")
    app = make_app(root, budget=3000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.apply_knob("task_budget_pct", 0.25) is None
        await settle(pilot)
        app.main.action_save_ctxrc()
        await settle(pilot)
        assert isinstance(app.screen, ConfirmWriteScreen)
        shown = str(app.screen.query_one("#confirm-diff").render())
        assert "+task_budget_pct: 0.25" in shown and "+token_budget: 3000" in shown
        assert (root / ".ctxrc").read_text() == "# my settings\nunknown_key: keep me\n"  # nothing yet
        await pilot.press("n")
        await settle(pilot)
        assert app.screen is app.main
        assert (root / ".ctxrc").read_text() == "# my settings\nunknown_key: keep me\n"
        assert not (root / ".ctxrc.bak").exists()
        app.main.action_save_ctxrc()
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert (root / ".ctxrc").read_text() == (
            "# my settings\nunknown_key: keep me\ntask_budget_pct: 0.25\ntoken_budget: 3000\n"
        )
        assert (root / ".ctxrc.bak").read_text() == BACKUP_MARK + "# my settings\nunknown_key: keep me\n"
        assert sorted(p.name for p in root.iterdir()) == [".context", ".ctxrc", ".ctxrc.bak"]  # no temp file left
        assert any("Saved" in n for n in notices(app))
        # Saving again: nothing to change, nothing asked.
        app.main.action_save_ctxrc()
        await settle(pilot)
        assert app.screen is app.main and any("nothing to change" in n for n in notices(app))


@pytest.mark.asyncio
async def test_saving_refuses_a_ctxrc_it_cannot_read_back(tmp_path):
    root = small_workspace(tmp_path)
    (root / ".ctxrc").write_bytes(b"tool: \xff\xfe\n")  # not UTF-8: ctxtui will not rewrite what it cannot read
    app = make_app(root, budget=3000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main.action_save_ctxrc()
        await settle(pilot)
        assert app.screen is app.main
        assert any("cannot read" in n for n in notices(app))
        assert (root / ".ctxrc").read_bytes() == b"tool: \xff\xfe\n" and not (root / ".ctxrc.bak").exists()


async def _select_summarized_learning(pilot, shown: str) -> str:
    """Select ctx-large's "Agents reliably introduce…" (summarized at 4,000) and wait for `shown` in the panel."""
    app = pilot.app
    await settle(pilot)
    key = next(
        o.entry.key for o in app.main.view.plan.outcomes if o.entry.title.startswith("Agents reliably introduce")
    )
    await pilot.press("tab")
    assert table(app).select_key(key)
    for _ in range(100):
        await pilot.pause(0.05)
        await settle(pilot)
        if shown in why_text(app):
            break
    return key


@needs_corpus
@pytest.mark.asyncio
async def test_advice_is_shown_only_once_reassembly_confirms_it():
    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        key = await _select_summarized_learning(pilot, "To get it in full:")
        view = app.main.view
        text = why_text(app)
        packer = view.loaded.packer
        moves = advise(packer, 4000, key, view.loaded.thresholds()[key])
        assert moves
        assert " ".join(describe_advice(moves).split()) in " ".join(text.split())
        # Each move on screen holds when the packet is assembled again with it.
        for move in moves:
            if move.kind == "budget":
                target = int(re.search(r"budget to ([\d,]+)", move.text).group(1).replace(",", ""))
                assert packer.plan(target).outcome(key).fate is Fate.INCLUDED
            if move.kind == "setting":
                name, value = re.search(r"\((\w+)\) to ([\d.]+)%", move.text).groups()
                rebuilt = packer.rebuilt(knobs=packer.settings.with_values({name: float(value) / 100}))
                assert rebuilt.plan(4000).outcome(key).fate is Fate.INCLUDED
        # An entry in full gets no advice line.
        full = next(o.entry.key for o in view.plan.outcomes if o.fate is Fate.INCLUDED)
        assert table(app).select_key(full)
        await settle(pilot)
        assert "To get it in" not in why_text(app)


@pytest.mark.asyncio
async def test_no_advice_line_when_no_move_is_confirmed(tmp_path, monkeypatch):
    """When re-assembly confirms no move, the panel says so instead of guessing."""
    import ctxtui.engine.explain.advice as advice_module

    monkeypatch.setattr(advice_module, "advise_bounded", lambda *a, **k: ([], True))
    root = small_workspace(tmp_path)
    app = make_app(root, budget=60, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        outcome = next(o for o in app.main.view.plan.outcomes if o.fate is not Fate.INCLUDED)
        await pilot.press("tab")
        assert table(app).select_key(outcome.entry.key)
        for _ in range(50):
            await settle(pilot)
            if "no single change found" in why_text(app):
                break
            await pilot.pause(0.05)
        assert "To get it in: no single change found that does it" in why_text(app)
        assert "To get it in full:" not in why_text(app)


@pytest.mark.asyncio
async def test_the_chart_draws_no_curve_for_a_section_never_in_full():
    """Constitution on ctx-large is never in full: a flat 0 % line of it used to paint over the other curves."""
    from ctxtui.engine.explain.coverage import Coverage, CurvePoint, SectionCoverage
    from ctxtui.tui.screens.coverage import GLYPHS
    from textual.app import App

    never = SectionCoverage("constitution", total=3, dropped_now=3)
    rising = SectionCoverage("tasks", total=2, can_be_full=2, curve=[CurvePoint(0, 0, 0), CurvePoint(500, 2, 2)])
    found = Coverage(budget=100, sections=[never, rising], settles_at=500)

    class Host(App[None]):
        def compose(self):
            yield CoverageChart(found)

    async with Host().run_test(size=(60, 16)) as pilot:
        await pilot.pause()
        chart = pilot.app.query_one(CoverageChart)
        drawn = "".join(strip.text for strip in (chart.render_line(y) for y in range(chart.size.height)))
        assert GLYPHS[0] not in drawn  # no constitution curve
        assert GLYPHS[1] in drawn  # the tasks curve, its 0 % stretch included


@pytest.mark.asyncio
async def test_ctrl_s_saves_from_the_main_screen_and_from_the_knobs_screen(tmp_path):
    """The save had no key (only the palette); ctrl+s asks, from the main screen and from the knobs dialog."""
    root = small_workspace(tmp_path)
    app = make_app(root, budget=3000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmWriteScreen)
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("k")
        await settle(pilot)
        assert isinstance(app.screen, KnobsScreen)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmWriteScreen)
        await pilot.press("y")
        await settle(pilot)
        assert (root / ".ctxrc").read_text() == "token_budget: 3000\n"


@needs_corpus
@pytest.mark.asyncio
async def test_advice_past_its_time_bound_says_the_search_stopped(monkeypatch):
    """The why panel's search is bounded (ADVICE_SECONDS): past it, what was verified shows, and says so."""
    import ctxtui.tui.widgets.why.panel as panel

    monkeypatch.setattr(panel, "ADVICE_SECONDS", 0.0)
    app = make_app(corpus_path("ctx-large"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await _select_summarized_learning(pilot, "time bound")
        text = " ".join(why_text(app).split())
        assert "To get it in full: raise the budget to" in text  # needs no re-assembly: found within any bound
        assert "(the search stopped at its time bound: there may be other moves)" in text
