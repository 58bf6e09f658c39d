"""BudgetSlider: keys, clicks, drags, coalesced Changed messages, scales."""

from __future__ import annotations

import itertools

import pytest
from ctxtui.tui.widgets.budget.slider import BudgetSlider, LinearScale, LogScale
from textual import events

from tests.ui.gallery import Gallery


def changed(app: Gallery) -> list[int]:
    return [m.value for m in app.of_type(BudgetSlider.Changed)]


@pytest.mark.asyncio
async def test_no_changed_on_construction_or_programmatic_set():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        slider = app.query_one(BudgetSlider)
        await pilot.pause()
        assert slider.value == 4000
        slider.value = 5000
        slider.set_value(6000)
        await pilot.pause()
        assert changed(app) == []
        slider.set_value(7000, post=True)
        await pilot.pause()
        assert changed(app) == [7000]


@pytest.mark.asyncio
async def test_keys_fine_coarse_home_end():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        slider = app.query_one(BudgetSlider)
        slider.focus()
        await pilot.press("shift+right")
        assert slider.value == 4001
        await pilot.press("shift+left", "shift+left")
        assert slider.value == 3999
        thumb = slider.thumb_x()
        await pilot.press("right")  # one cell on, to a round value
        assert slider.thumb_x() == thumb + 1 and slider.value % 100 == 0 and slider.value > 3999
        await pilot.press("left")
        assert slider.thumb_x() == thumb and slider.value == 4000  # the roundest budget of its cell
        await pilot.press("pageup")
        up = slider.value
        assert up > 3999 + 100
        await pilot.press("pagedown")
        assert slider.value < up
        await pilot.press("end")
        assert slider.value == 200_000
        await pilot.press("right")  # clamped: no change, no message
        assert slider.value == 200_000
        await pilot.press("home")
        assert slider.value == 0
        await pilot.press("left")
        assert slider.value == 0
        await pilot.pause()
        assert changed(app)[-1] == 0
        assert changed(app)[:3] == [4001, 4000, 3999]


@pytest.mark.asyncio
async def test_arrow_steps_are_one_cell_each_way_and_reach_both_ends():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        slider = app.query_one(BudgetSlider)
        slider.focus()
        slider.set_value(0)
        seen, cells = [0], []
        while slider.value < slider.maximum:
            await pilot.press("right")
            seen.append(slider.value)
            cells.append(slider.thumb_x())
        assert seen == sorted(set(seen))  # always on, never back
        assert all(b - a <= 1 for a, b in itertools.pairwise(cells))  # never skips a cell
        assert len(seen) <= slider.content_region.width + 1
        while slider.value > 0:
            await pilot.press("left")
        assert slider.value == 0


@pytest.mark.asyncio
async def test_click_jumps_and_drag_follows_the_pointer():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        slider = app.query_one(BudgetSlider)
        await pilot.pause()
        width = slider.content_region.width
        await pilot.mouse_down(slider, offset=(0, 0))
        assert slider.value == 0
        assert slider.dragging and app.mouse_captured is slider
        await pilot.hover(slider, offset=(width // 2, 0))
        middle = slider.value
        assert 0 < middle < 200_000
        assert slider.thumb_x() == width // 2
        # Past the right end (outside the widget): the capture still delivers, clamped.
        await pilot.hover(None, offset=(99, 5))
        assert slider.value == 200_000
        await pilot.mouse_up(None, offset=(99, 5))
        assert not slider.dragging and app.mouse_captured is None
        await pilot.hover(slider, offset=(3, 0))  # no longer dragging: ignored
        assert slider.value == 200_000
        await pilot.pause()
        assert changed(app)[-1] == 200_000
        assert middle in changed(app)


@pytest.mark.asyncio
async def test_a_burst_of_moves_posts_one_coalesced_changed():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        slider = app.query_one(BudgetSlider)
        await pilot.mouse_down(slider, offset=(1, 0))
        await pilot.pause()
        before = len(changed(app))
        region = slider.region
        # Many moves in one go, as a fast drag delivers them: no pause between.
        for x in range(2, 30):
            slider.post_message(
                events.MouseMove(slider, x, 0, 0, 0, 1, False, False, False, screen_x=region.x + x, screen_y=region.y)
            )
        await pilot.pause()
        after = changed(app)[before:]
        assert after == [slider.value]  # one message, carrying the newest value
        assert slider.value == slider.value_at(29)
        await pilot.mouse_up(slider, offset=(29, 0))


@pytest.mark.asyncio
async def test_changed_can_replace_only_same_slider():
    a, b = BudgetSlider(), BudgetSlider()
    assert BudgetSlider.Changed(a, 1).can_replace(BudgetSlider.Changed(a, 2))
    assert not BudgetSlider.Changed(a, 1).can_replace(BudgetSlider.Changed(b, 2))


@pytest.mark.asyncio
async def test_mouse_release_ends_the_drag():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        slider = app.query_one(BudgetSlider)
        await pilot.mouse_down(slider, offset=(5, 0))
        assert slider.dragging
        app.capture_mouse(None)  # capture taken away: MouseRelease arrives
        await pilot.pause()
        assert not slider.dragging


def test_round_budget_keeps_two_significant_digits_in_the_asked_direction():
    from ctxtui.tui.widgets.budget.slider import round_budget

    assert [round_budget(v) for v in (0, 7, 99, 101, 8437, 12_345, 99_999, 1_234_567)] == [
        0,
        7,
        99,
        100,
        8400,
        12_000,
        100_000,
        1_200_000,
    ]
    assert round_budget(8437, 1) == 8500 and round_budget(8437, -1) == 8400 and round_budget(8400, 1) == 8400
    assert round_budget(-8437) == -8400


def test_log_scale_covers_the_range_and_round_trips():
    scale = LogScale()
    assert scale.from_fraction(0.0, 0, 200_000) == 0
    assert scale.from_fraction(1.0, 0, 200_000) == 200_000
    values = [scale.from_fraction(i / 39, 0, 200_000) for i in range(40)]
    assert values == sorted(values)
    assert len(set(values)) == 40  # every cell of a 40-cell track is a different budget
    assert any(1_000 <= v <= 20_000 for v in values[10:30])
    for value in (0, 150, 4000, 8000, 123_456, 200_000):
        fraction = scale.to_fraction(value, 0, 200_000)
        assert abs(scale.from_fraction(fraction, 0, 200_000) - value) <= max(1, value * 1e-9)


def test_linear_scale_and_negative_minimum():
    scale = LinearScale()
    assert scale.from_fraction(0.5, -100, 100) == 0
    assert LogScale().from_fraction(0.0, -500, 500) == -500


@pytest.mark.asyncio
async def test_fine_steps_reach_every_integer():
    app = Gallery()
    async with app.run_test(size=(100, 30)) as pilot:
        slider = app.query_one(BudgetSlider)
        slider.focus()
        slider.set_value(9)
        seen = []
        for _ in range(6):
            await pilot.press("shift+right")
            seen.append(slider.value)
        assert seen == [10, 11, 12, 13, 14, 15]


@pytest.mark.asyncio
async def test_pressing_on_the_thumb_keeps_the_exact_value():
    from textual.app import App

    class One(App):
        def compose(self):
            yield BudgetSlider(3942, minimum=0, maximum=200_000, id="s")

    app = One()
    async with app.run_test(size=(60, 3)) as pilot:
        slider = app.query_one(BudgetSlider)
        await pilot.pause()
        thumb = slider.thumb_x()
        await pilot.mouse_down(slider, offset=(thumb, 0))
        await pilot.mouse_up(slider, offset=(thumb, 0))
        await pilot.pause()
        assert slider.value == 3942
