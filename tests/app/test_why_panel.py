"""The why panel: fate, the numbers sentence, thresholds (once computed) and where the entry comes from."""

from __future__ import annotations

import threading

import pytest
from ctxtui.engine.explain.reasons import describe, describe_threshold
from ctxtui.engine.fate import Fate
from ctxtui.session import Loaded
from ctxtui.tui.safe_text import clean_line
from ctxtui.tui.widgets.why.panel import WhyPanel

from tests.app.helpers import (
    SIZE,
    assert_why_laid_out,
    cursor_to,
    make_app,
    rendered_lines,
    settle,
    small_workspace,
    table,
    why_text,
)
from tests.conftest import corpus_path, needs_corpus

pytestmark = needs_corpus


def first(app, section: str, fate: Fate) -> tuple[int, object]:
    for position, outcome in enumerate(app.main.view.plan.outcomes):
        if outcome.entry.section == section and outcome.fate is fate:
            return position, outcome
    raise AssertionError(f"no {fate.value} {section} entry")


@pytest.mark.asyncio
async def test_why_panel_explains_a_summarized_learning():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Select an entry" not in why_text(app)  # the first row is selected from the start
        position, outcome = first(app, "learnings", Fate.SUMMARIZED)
        await pilot.press("tab")
        await cursor_to(pilot, position)
        await settle(pilot)
        assert app.main.selected_key == outcome.entry.key

        text = why_text(app)
        lines = text.split("\n")
        assert lines[0].startswith("◐ summarized  ·  learnings (tier 5)")
        assert f"{outcome.entry.tokens:,} tokens" in lines[0]
        assert lines[1] == clean_line(outcome.entry.title)
        assert lines[2] == outcome.entry.source
        assert outcome.entry.source.startswith(".context/") and ":" in outcome.entry.source  # file:line
        assert clean_line(describe(outcome)) in lines
        assert "summarized, its title under Also Noted" in describe(outcome)  # the numbers sentence, in words
        threshold = app.main.view.loaded.thresholds()[outcome.entry.key]
        assert app.main.view.loaded.thresholds_ready
        assert lines[lines.index("Budgets") + 1] == describe_threshold(threshold)
        assert "from a budget of" in describe_threshold(threshold) or "in the packet at" in describe_threshold(
            threshold
        )
        assert f"  {outcome.score.total:.3f}" in text and f"(rank {outcome.score.rank})" in text

        # What the screen draws, not only the Text: the source line is visible in the panel.
        assert_why_laid_out(app)
        drawn = "\n".join(rendered_lines(app.query_one(WhyPanel).query_one("#why-body")))
        assert outcome.entry.source in drawn
        assert "◐ summarized" in drawn


@pytest.mark.asyncio
async def test_why_panel_says_computing_until_thresholds_arrive(monkeypatch):
    gate = threading.Event()
    original = Loaded.thresholds

    def slow_thresholds(self):
        if threading.current_thread() is not threading.main_thread():
            gate.wait(10)  # only the worker waits; the UI thread never calls it before they are ready
        return original(self)

    monkeypatch.setattr(Loaded, "thresholds", slow_thresholds)
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(300):
                await pilot.pause(0.01)
                if app.main.view is not None and app.main.selected_key is not None:
                    break
            await pilot.pause()
            assert not app.main.view.loaded.thresholds_ready
            assert "Budgets\ncomputing…" in why_text(app)
            gate.set()
            await settle(pilot)
            key = app.main.selected_key
            assert "computing…" not in why_text(app)
            assert describe_threshold(app.main.view.loaded.thresholds()[key]) in why_text(app)
    finally:
        gate.set()


@pytest.mark.asyncio
async def test_why_panel_names_the_blocking_entry_and_follows_the_cursor():
    app = make_app(corpus_path("ctx-dogfood"), budget=1000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        blocked = [(i, o) for i, o in enumerate(app.main.view.plan.outcomes) if o.blocked_by]
        assert blocked, "ctx-dogfood at 1,000 has tasks dropped after a misfit"
        await pilot.press("tab")
        position, outcome = blocked[0]
        await cursor_to(pilot, position)
        await settle(pilot)
        blocker = app.main.view.plan.outcome(outcome.blocked_by)
        assert f"Blocked by: {clean_line(blocker.entry.title)}" in why_text(app)
        assert why_text(app).startswith("✕ dropped")
        # Each cursor move shows that entry.
        for position in (1, 2):
            await cursor_to(pilot, position)
            outcome = table(app).selected_row.outcome
            assert why_text(app).split("\n")[2] == outcome.entry.source


@pytest.mark.asyncio
async def test_a_longer_text_in_the_same_frame_gets_its_full_height(tmp_path):
    """Regression: thresholds and the first selection both update the panel in one frame.

    Textual 8.2.8 caches a box model by `_layout_updates`, bumped by `refresh(layout=True)` only
    when no layout is pending; a layout pass between the two updates cached the first text's height
    and the panel showed one line of a 12-line explanation. This replays that interleaving with
    Textual's own layout calls, so it fails every time rather than one run in two.
    """
    from rich.text import Text

    app = make_app(small_workspace(tmp_path / "proj"), real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.query_one(WhyPanel)
        body = panel.query_one("#why-body")
        panel.show(Text("one line"))
        # A layout pass runs before the body's own refresh is processed: it measures the one-line text...
        panel._clear_arrangement_cache()
        app.screen._layout_widgets.setdefault(panel, set()).add(body)
        app.screen._refresh_layout()
        assert body._layout_required and body.size.height == 1
        # ...then a longer text arrives in the same frame.
        panel.show(Text("a\nb\nc\nd"))
        await pilot.pause()
        assert body.size.height == 4


@pytest.mark.asyncio
async def test_the_same_explanation_is_not_drawn_again():
    """Asked again with nothing changed (a theme signal, thresholds already shown), the body is left as it is."""
    from textual.widgets import Static

    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.query_one(WhyPanel)
        body = panel.query_one("#why-body", Static)
        updates: list[object] = []
        original, in_place = body.update, body.update_lines
        body.update = lambda *args, **kwargs: (updates.append(args), original(*args, **kwargs))[1]
        body.update_lines = lambda *args: (updates.append(args), in_place(*args))[1]  # digits only: in place
        panel.refresh_explanation()
        assert updates == []
        app.main.request_budget(4100)
        await settle(pilot)
        assert len(updates) == 1  # the numbers changed: drawn once


@pytest.mark.asyncio
async def test_a_step_that_changes_only_numbers_is_not_measured_again_and_other_text_is(monkeypatch):
    """A slider step mostly changes an explanation's digits: the text is drawn, its height not measured again
    (Textual wraps the whole text to measure it; issue 21 part 4). Text with other words is measured, and a
    taller one gets its height."""
    from rich.text import Text
    from textual.widgets import Static

    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.query_one(WhyPanel)
        body = panel.query_one("#why-body", Static)
        measured = []
        real = body.get_content_height
        monkeypatch.setattr(body, "get_content_height", lambda *a: measured.append(1) or real(*a))
        panel.show(Text("fits 1,200+340≤3,200 tokens\nsecond line"))
        await settle(pilot)
        assert measured
        measured.clear()
        panel.show(Text("fits 1,240+345≤3,280 tokens\nsecond line"))  # only digits changed
        await settle(pilot)
        assert measured == []
        assert rendered_lines(body)[0].startswith("fits 1,240+345≤3,280 tokens")
        panel.show(Text("fits 1,240+345≤13,280 tokens\nsecond line"))  # a digit more: measured
        await settle(pilot)
        assert measured
        taller = "\n".join(f"line {i}" for i in range(12))
        panel.show(Text(taller))
        await settle(pilot)
        assert_why_laid_out(app)
        assert rendered_lines(body)[11].startswith("line 11")


@pytest.mark.asyncio
async def test_a_digits_only_change_repaints_the_changed_lines_alone():
    """A step that changes a few numbers of an explanation repaints those lines, in place, drawn as Textual
    draws the whole text (issue 21 part 4: a 30-line explanation cost ~9 ms a step, every line restyled)."""
    from rich.text import Text
    from textual.geometry import Region

    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.query_one(WhyPanel)
        body = panel.query_one("#why-body")
        text = "\n".join(f"line {i}: fits {i},200+340≤3,200 tokens" for i in range(12))
        panel.show(Text(text))
        await settle(pilot)
        dirty: list[tuple[Region, ...]] = []
        real = body._set_dirty
        body._set_dirty = lambda *regions: (dirty.append(regions), real(*regions))[1]
        panel.show(
            Text(
                text.replace("line 3: fits 3,200", "line 3: fits 3,900").replace("line 7: fits 7,2", "line 7: fits 7,5")
            )
        )
        await settle(pilot)
        assert all(dirty)  # no whole repaint
        assert sorted({region.y for regions in dirty for region in regions}) == [3, 7]
        lines = rendered_lines(body)
        assert lines[3].startswith("line 3: fits 3,900+340≤3,200") and lines[7].startswith("line 7: fits 7,500+340")
        assert lines[5].startswith("line 5: fits 5,200+340≤3,200")
        body._set_dirty = real
        # A whole repaint (a theme, a resize) draws from the widget's own text: it must be the new one. This
        # holds `update_lines` to the private names of the pinned Textual's Static: renamed, the old text
        # would come back on the next repaint.
        body.refresh()
        await settle(pilot)
        assert rendered_lines(body) == lines
        # the same text drawn from scratch draws the same lines
        panel._content = None
        panel._shape = None
        body.update(Text(""))
        await settle(pilot)
        panel.show(
            Text(
                text.replace("line 3: fits 3,200", "line 3: fits 3,900").replace("line 7: fits 7,2", "line 7: fits 7,5")
            )
        )
        await settle(pilot)
        assert rendered_lines(body) == lines
