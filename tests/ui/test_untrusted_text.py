"""Titles from user files are shown literally: no Rich markup, no terminal controls."""

from __future__ import annotations

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Bucket, Outcome
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.tui.safe_text import clean_block, clean_line, fit
from ctxtui.tui.widgets.entries.rows import rows_from_outcomes
from ctxtui.tui.widgets.entries.table import EntriesTable
from ctxtui.tui.widgets.tiers.bars import TierBars
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.ui.fakes import entry
from tests.ui.gallery import Gallery

NASTY = "[bold red]x[/] \x1b[31mred\x1b[0m \x9b2J \x07bell \u202eevil\ttab\nline"


def test_clean_line_neutralises_every_control():
    cleaned = clean_line(NASTY)
    assert "[bold red]x[/]" in cleaned  # markup is text, left as it is
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in cleaned)
    assert "\u202e" not in cleaned
    assert "␛[31mred␛[0m" in cleaned
    assert "␇bell" in cleaned and "␊line" in cleaned and "evil tab" in cleaned


def test_clean_block_keeps_newlines_only():
    cleaned = clean_block("a\r\nb\x1bc\td")
    assert cleaned == "a\nb␛c    d"


def test_plain_text_is_returned_unchanged():
    text = "Use SQLite — für Tests ✓ 日本"
    assert clean_line(text) is text


def test_fit_counts_cells_not_characters():
    assert fit("日本語", 4) == "日 …"  # a wide character is never cut in half
    assert fit("日本語", 6) == "日本語"
    assert fit("abc", 5, right=True) == "  abc"
    assert fit("abcdef", 4) == "abc…"


def test_rows_carry_clean_titles():
    outcome = Outcome(entry("k", "learnings", NASTY, 10), 5, Fate.DROPPED, Reason.NO_SHARE, {"share": 0})
    (row,) = rows_from_outcomes([outcome])
    assert "\x1b" not in row.title and "\x9b" not in row.title
    assert row.title.startswith("[bold red]x[/] ␛[31m")


@pytest.mark.asyncio
async def test_table_renders_markup_and_escapes_literally():
    plain = Outcome(entry("a", "learnings", "plain", 10), 5, Fate.DROPPED, Reason.NO_SHARE, {"share": 0})
    outcome = Outcome(
        entry("k", "learnings", "[bold red]x[/] \x1b[31mred", 10), 5, Fate.DROPPED, Reason.NO_SHARE, {"share": 0}
    )
    app = Gallery(outcomes=[plain, outcome])
    async with app.run_test(size=(120, 10)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()
        strip = table.render_line(2)  # not the cursor row, which is bold
        assert "[bold red]x[/] ␛[31mred" in strip.text
        assert all("\x1b" not in segment.text for segment in strip)
        # No segment of the title got a style from the "markup".
        title_segment = next(s for s in strip if "[bold red]" in s.text)
        assert not (title_segment.style and title_segment.style.bold)


@pytest.mark.asyncio
async def test_tier_names_are_literal_too():
    tiers = [Bucket(1, "[red]boom[/]\x1b]52\x07", None, 10)]
    app = Gallery(tiers=tiers)
    async with app.run_test(size=(120, 20)) as pilot:
        bars = app.query_one(TierBars)
        await pilot.pause()
        text = bars.render()
        assert "[red]boom[/]␛]52␇" in text.plain
        assert "\x1b" not in text.plain


@settings(max_examples=1000, deadline=None)
@given(
    st.text(alphabet=st.characters(codec=None, max_codepoint=0x206F) | st.sampled_from("\udc80\ud800\x7f\x9f\r\n\t"))
)
def test_the_ascii_shortcut_names_the_same_characters_as_the_pattern(text):
    import re

    from ctxtui import safe_text

    assert safe_text._safe(text) == (re.search(safe_text._UNSAFE, text) is None)
