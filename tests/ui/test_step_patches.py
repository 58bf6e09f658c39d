"""What a budget step patches instead of redoing is what redoing it gives (issue 21, part 4).

At 50,000 memories a step with a filter or a sort by fate or reason redid
work over every row although a step moves a few entries: a sort by a
one-byte code (`ordering.patch_ordering`), a filter's rows
(`passing.rows_passing`) and the reason codes (`vectors.reason_codes`) are
now patched from the last step's. Each is compared with the full computation
for random inputs, and over walks of small budget steps on a real packet,
where the patch is taken; an unchanged input gives back the very same
result (reused), a changed one a new, right one. The table's row count
changes without a layout of the screen while its scrollbar stays.
"""

from __future__ import annotations

from itertools import compress

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.tui.widgets.entries import ordering, passing
from ctxtui.tui.widgets.entries.columns import columns_for
from ctxtui.tui.widgets.entries.ordering import order_every_row, patch_ordering
from ctxtui.tui.widgets.entries.passing import rows_passing
from ctxtui.tui.widgets.entries.rows import RowFilter, ViewRows, rows_from_outcomes, sorted_indices
from ctxtui.tui.widgets.entries.table import EntriesTable
from ctxtui.tui.widgets.entries.vectors import _REASON_ORDER, reason_codes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import needs_corpus
from tests.ui.fakes import many_outcomes
from tests.ui.gallery import Gallery
from tests.ui.test_kept_orderings import _packer, segments


def _places(order) -> list[int]:
    places = [0] * len(order)
    for row, candidate in enumerate(order):
        places[candidate] = row
    return places


@st.composite
def codes_and_step(draw, size: int, kinds: int):
    """Codes per candidate and the same codes after a step that changed a few of them."""
    old = bytes(draw(st.lists(st.integers(0, kinds - 1), min_size=size, max_size=size)))
    new = bytearray(old)
    for _ in range(draw(st.integers(0, 12))):
        if size:
            new[draw(st.integers(0, size - 1))] = draw(st.integers(0, kinds))
    return old, bytes(new)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), size=st.integers(0, 1500), kinds=st.integers(1, 6), reverse=st.booleans())
def test_a_patched_ordering_is_the_sort_of_the_new_codes(data, size, kinds, reverse):
    order = data.draw(segments(size))
    old, new = data.draw(codes_and_step(size, kinds))
    before = order_every_row(order, old, reverse)
    patched = patch_ordering(before, old, new, _places(order), reverse)
    changed = sum(a != b for a, b in zip(old, new, strict=True))
    if changed * 256 <= size:  # a few changed: patched, never refused
        assert patched is not None
    if patched is not None:
        assert patched == order_every_row(order, new, reverse)
        assert (patched is before) == (old == new)  # nothing changed: the same list, reused
    assert before == order_every_row(order, old, reverse)  # the kept ordering itself is not changed


def test_a_patch_refuses_an_ordering_of_other_codes():
    old, new = bytes([0, 1, 0, 1] * 100), bytes([0, 1, 0, 1] * 99 + [1, 1, 0, 1])
    wrong = list(range(400))  # not sorted by `old`
    assert patch_ordering(wrong, old, new, list(range(400)), False) is None


@settings(max_examples=300, deadline=None)
@given(data=st.data(), size=st.integers(0, 1500))
def test_patched_rows_are_the_rows_that_pass(data, size):
    order = data.draw(segments(size))
    places = _places(order)
    dense = data.draw(st.booleans())
    first = bytes(data.draw(st.lists(st.integers(0, 1) if dense else st.just(0), min_size=size, max_size=size)))
    old, new = first, bytearray(first)
    for _ in range(data.draw(st.integers(0, 12))):
        if size:
            new[data.draw(st.integers(0, size - 1))] = data.draw(st.integers(0, 1))
    last = rows_passing(order, old, places, None)
    step = rows_passing(order, bytes(new), places, last)
    for got, flags in ((last, old), (step, bytes(new))):
        by_row = bytes(flags[candidate] for candidate in order)
        assert got.by_row == by_row
        assert got.rows == list(compress(range(size), by_row))
    if bytes(new) == old:
        assert step.rows is last.rows  # reused
    assert last.rows == list(compress(range(size), bytes(old[c] for c in order)))  # not changed by the step


WALK_FILTERS = [
    RowFilter(fates=frozenset({Fate.SUMMARIZED})),
    RowFilter(fates=frozenset({Fate.DROPPED})),
    RowFilter(text="cap"),  # a reason's label: the reason codes
    RowFilter(text="full", fates=frozenset({Fate.INCLUDED, Fate.SUMMARIZED})),
    RowFilter(sections=frozenset({"decisions", "learnings"})),
    RowFilter(),
]


@needs_corpus
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    start=st.integers(800, 6000),
    moves=st.lists(st.sampled_from([-40, 40, -10, 10, 100, -1]), min_size=2, max_size=10),
    which=st.sampled_from(range(len(WALK_FILTERS))),
    column=st.sampled_from([None, "fate", "reason", "score", "title"]),
    reverse=st.booleans(),
)
def test_a_walk_of_small_steps_patches_and_agrees_with_every_outcome(start, moves, which, column, reverse):
    """Slider-sized steps (a few fates move): the table's path, patching, gives the rows of every outcome,
    and the reason codes are each outcome's reason's place in the legend's order."""
    packer = _packer()
    columns = columns_for(packer.name)
    row_filter = WALK_FILTERS[which]
    budget = start
    for move in [0, *moves]:
        budget = max(0, budget + move)
        plan = packer.plan(budget)
        lazy = ViewRows(plan, columns)
        eager = rows_from_outcomes(packer.plan(budget).outcomes, columns)
        got = sorted_indices(lazy, row_filter.apply(lazy), column, reverse, columns)
        assert got == sorted_indices(eager, row_filter.apply(eager), column, reverse, columns), (budget, column)
        codes = reason_codes(plan)
        by_candidate = {id(o.entry): o.reason for o in plan.outcomes}
        assert codes == bytes(_REASON_ORDER[by_candidate[id(e)]] for e in packer.candidates())
        assert reason_codes(plan) is codes  # kept with the plan
        assert not lazy.complete


@needs_corpus
def test_small_steps_take_the_patches(monkeypatch):
    """Steps of 10 tokens up and down with a sort by fate and a fate filter: after the first, no full sort
    and no full read of the flags in packet order (each step moved a few entries)."""
    packer = _packer()
    columns = columns_for(packer.name)
    sorts, reads = [], []
    real_sort, real_read = ordering.order_every_row, passing.in_packet_order
    monkeypatch.setattr(ordering, "order_every_row", lambda *a: sorts.append(1) or real_sort(*a))
    monkeypatch.setattr(passing, "in_packet_order", lambda *a: reads.append(1) or real_read(*a))
    row_filter = RowFilter(fates=frozenset({Fate.SUMMARIZED, Fate.DROPPED}))
    plans = [packer.plan(budget) for budget in (3000, 3010, 3000, 3010, 3020)]
    same_order = [p for p in plans if p.order == plans[0].order]
    assert len(same_order) >= 3, "the steps changed the packet order"
    moved = 0
    for plan in same_order:
        lazy = ViewRows(plan, columns)
        got = sorted_indices(lazy, row_filter.apply(lazy), "fate", True, columns)
        eager = rows_from_outcomes(plan.outcomes, columns)
        assert got == sorted_indices(eager, row_filter.apply(eager), "fate", True, columns)
        moved += plan.fates != same_order[0].fates
    assert moved, "no step moved a fate"
    assert len(sorts) <= 1 and len(reads) <= 1


@pytest.mark.asyncio
async def test_a_new_row_count_lays_the_screen_out_only_when_the_scrollbar_comes_or_goes():
    """A filter whose rows change with the budget changed the row count at every step, and each change laid
    the whole screen out (~30 ms at 50,000 memories). Now: the scrollbar's thumb and the scroll range follow
    the count without a layout; a layout only when the scrollbar appears or goes."""
    app = Gallery(outcomes=many_outcomes(300))
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()
        layouts = []
        real = table.refresh

        def refresh(*regions, **options):
            if options.get("layout"):
                layouts.append(1)
            return real(*regions, **options)

        table.refresh = refresh  # type: ignore[method-assign]
        rows = rows_from_outcomes(many_outcomes(300))
        table.set_rows(rows[:250])
        await pilot.pause()
        assert layouts == []
        assert table.virtual_size.height == 251
        assert table.vertical_scrollbar.window_virtual_size == 251
        assert table.max_scroll_y == 251 - table.scrollable_content_region.height
        table.action_last()
        await pilot.pause()
        assert table.selected_key == rows[249].key
        table.set_rows(rows[:100])  # fewer rows, still more than a screen: the scroll offset clamped
        await pilot.pause()
        assert layouts == []
        assert table.scroll_offset.y <= table.max_scroll_y == 101 - table.scrollable_content_region.height
        assert table.vertical_scrollbar.window_virtual_size == 101
        table.set_rows(rows[:5])  # the scrollbar goes: a layout
        await pilot.pause()
        assert layouts
        assert not table.show_vertical_scrollbar and table.scroll_offset.y == 0
        layouts.clear()
        table.set_rows(rows)  # and comes back
        await pilot.pause()
        assert layouts and table.show_vertical_scrollbar


def test_a_step_that_moves_a_few_hundred_rows_costs_less_than_a_sort():
    """Each group's start and size counted once per code, not once per moved row: with 190 of 50,605 rows moved
    the patch took ~80 ms (counts per row, and a sum over the moved rows for each of them) against ~13 ms for a
    sort; now a few ms. Past one row in 256 it declines, and the table sorts."""
    import random
    import time

    rnd = random.Random(3)
    count = 50_605
    old = bytes(rnd.choice((0, 1, 2)) for _ in range(count))
    order = list(range(count))
    rnd.shuffle(order)
    places = _places(order)
    kept = order_every_row(order, old, False)
    new = bytearray(old)
    for candidate in rnd.sample(range(count), 190):
        new[candidate] = (new[candidate] + 1) % 3
    spent = []
    for _ in range(3):
        started = time.process_time()
        patched = patch_ordering(kept, old, bytes(new), places, False)
        spent.append(time.process_time() - started)
    assert patched == order_every_row(order, bytes(new), False)
    assert min(spent) < 0.04, f"{min(spent) * 1000:.0f} ms"
    for candidate in rnd.sample(range(count), 400):
        new[candidate] = (new[candidate] + 1) % 3
    assert patch_ordering(kept, old, bytes(new), places, False) is None
