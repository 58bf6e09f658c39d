"""TierBars: proportions, numbers in words, narrow and wide layouts."""

from __future__ import annotations

import pytest
from ctxtui.engine.model import Bucket
from ctxtui.tui.widgets.tiers.bars import (
    GLYPH_FREE,
    GLYPH_OVERRUN,
    GLYPH_SUMMARIZED,
    GLYPH_USED,
    TierBars,
    apportion,
    describe_tier,
)

from tests.ui.gallery import Gallery


def test_apportion_fills_exactly_and_keeps_small_parts_visible():
    assert apportion([1, 1], 10) == [5, 5]
    assert apportion([20_000, 40, 0, 0], 30) == [29, 1, 0, 0]
    assert sum(apportion([3, 5, 7, 11], 17)) == 17
    assert apportion([0, 0], 10) == [0, 0]
    assert apportion([5], 0) == [0]


def test_describe_tier():
    assert (
        describe_tier(Bucket(2, "t", 2_000, 1_240, summarized=300, overrun=40))
        == "1,540 / 2,000 tokens cap · 300 of it as summaries · +40 over"  # summaries the budget pays for (Cortex)
    )
    assert (
        describe_tier(Bucket(4, "t", 1_000, 420, full_limit=800)) == "420 / 1,000 tokens share · full-entry limit 800"
    )
    assert describe_tier(Bucket(4, "t", 1_000, 420, full_limit=800), compact=True) == "420 / 1,000 share · full ≤ 800"
    assert describe_tier(Bucket(1, "t", None, 310), budget=4000) == "310 of 4,000 tokens budget (8%) · no cap"
    # Shares of the budget, after the budget, and the pin's delta.
    assert describe_tier(Bucket(2, "t", 2_000, 1_240), budget=8000) == "1,240 / 2,000 tokens cap (25%)"
    assert describe_tier(Bucket(2, "t", 2_000, 1_240), budget=8000, percent=False, compact=True) == "1,240 / 2,000 cap"
    assert (
        describe_tier(Bucket(4, "t", 1_000, 420, summarized=30, unbudgeted=30), delta=-120, compact=True)
        == "420 / 1,000 cap · 30 summarized after the budget · -120 vs pin"
    )
    assert describe_tier(Bucket(6, "t", 0, 0, reached=False)) == "not reached"


@pytest.mark.asyncio
async def test_wide_layout_one_line_per_tier_with_aligned_bars():
    app = Gallery()
    async with app.run_test(size=(120, 30)) as pilot:
        bars = app.query_one(TierBars)
        await pilot.pause()
        lines = bars.render().plain.split("\n")
        assert len(lines) == 6 and bars.size.height == 6
        assert "1,640 / 1,600 cap (40%) · +40 over" in lines[1]  # compact: the long form does not fit at 120 columns
        assert GLYPH_OVERRUN in lines[1] and GLYPH_USED in lines[1]
        assert GLYPH_SUMMARIZED in lines[3]
        assert lines[5].rstrip().endswith("not reached")
        starts = {line.index(GLYPH_FREE) if GLYPH_USED not in line else line.index(GLYPH_USED) for line in lines}
        assert len(starts) == 1  # every bar starts in the same column


@pytest.mark.asyncio
async def test_the_numbers_carry_their_unit_where_they_fit():
    app = Gallery()
    async with app.run_test(size=(200, 30)) as pilot:
        await pilot.pause()
        lines = app.query_one(TierBars).render().plain.split("\n")
        assert lines[1].endswith("1,640 / 1,600 tokens cap (40%) · +40 over")
        assert "420 / 1,000 tokens share (" in lines[3]
        assert lines[3].endswith(") · full-entry limit 800 · 12 summarized after the budget")


@pytest.mark.asyncio
async def test_narrow_layout_puts_numbers_above_the_bar():
    app = Gallery()
    async with app.run_test(size=(50, 30)) as pilot:
        bars = app.query_one(TierBars)
        await pilot.pause()
        lines = bars.render().plain.split("\n")
        assert len(lines) == 12 and bars.size.height == 12
        assert lines[2].startswith("Tier 2 · tasks") and "+40 over" in lines[2]
        assert set(lines[3]) <= {GLYPH_USED, GLYPH_OVERRUN, GLYPH_FREE, GLYPH_SUMMARIZED}
        assert len(lines[3]) == bars.size.width


@pytest.mark.asyncio
async def test_update_tiers_redraws():
    app = Gallery()
    async with app.run_test(size=(120, 30)) as pilot:
        bars = app.query_one(TierBars)
        bars.update_tiers([Bucket(2, "Tier 2 · tasks", 100, 50)], budget=1000)
        await pilot.pause()
        assert bars.size.height == 1
        assert "50 / 100 tokens cap (10%)" in bars.render().plain
