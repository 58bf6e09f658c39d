"""Text from the user's files is shown literally: Rich markup stays text, terminal controls are neutralised."""

from __future__ import annotations

import pytest
from textual.geometry import Region

from tests.app.helpers import (
    DECISIONS,
    SIZE,
    cursor_to,
    decision,
    make_app,
    rendered_lines,
    settle,
    small_workspace,
    status_text,
    table,
    why_text,
)

NASTY = "[bold red]x[/] \x1b[31mred"
SHOWN = "[bold red]x[/] ␛[31mred"
NASTY_DECISIONS = DECISIONS + decision(
    "2026-11-21-120000",
    NASTY + "\x1b[0m \x07 \u202eevil",
    body="Body with [link=http://x]markup[/link] and \x1b]52;c;aGk=\x07 OSC 52.",
)


def x_of(strip, wanted) -> int:
    """The cell where `wanted` starts in `strip`."""
    x = 0
    for segment in strip:
        if segment is wanted:
            return x
        x += segment.cell_length
    raise AssertionError("segment not in strip")


def segment_at(strip, x: int):
    for segment in strip:
        if x < segment.cell_length:
            return segment
        x -= segment.cell_length
    raise AssertionError("x past the strip")


def no_escape_in(strips) -> None:
    for strip in strips:
        for segment in strip:
            assert "\x1b" not in segment.text and "\x07" not in segment.text and "\u202e" not in segment.text


@pytest.mark.asyncio
async def test_markup_and_escapes_in_a_title_are_literal_in_the_table_and_why_panel(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj", **{"DECISIONS.md": NASTY_DECISIONS}), real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        outcomes = app.main.view.plan.outcomes
        position = next(i for i, o in enumerate(outcomes) if o.entry.title.startswith(NASTY))
        entries = table(app)

        # The table, as drawn: the markup is text, the ESC a visible ␛, and nothing is bold or red.
        strip = entries.render_line(1 + position)  # not the cursor row yet
        assert SHOWN in strip.text
        no_escape_in([strip])
        title_segment = next(s for s in strip if "[bold red]" in s.text)
        other = next(i for i, o in enumerate(outcomes) if o.fate is outcomes[position].fate and i not in (0, position))
        plain_title = segment_at(entries.render_line(1 + other), x_of(strip, title_segment))
        assert title_segment.style == plain_title.style  # no bold, no red: styled like any other title

        await pilot.press("tab")
        await cursor_to(pilot, position)
        await settle(pilot)
        text = why_text(app)
        assert SHOWN + "␛[0m ␇ \ufffdevil" in text
        assert "[link=http://x]markup[/link]" in text and "␛]52;c;aGk=␇ OSC 52." in text
        body = app.query_one("#why-body")
        drawn = body.render_lines(Region(0, 0, *body.size))
        no_escape_in(drawn)
        assert any(SHOWN in strip.text for strip in drawn)
        for strip in drawn:  # the "markup" never became a style or a link
            for segment in strip:
                if "[bold red]x[/]" in segment.text or "markup[/link]" in segment.text:
                    assert not (
                        segment.style
                        and (segment.style.link or (segment.style.color and segment.style.color.name == "red"))
                    )

        # The whole screen, as a terminal would get it (the SVG export).
        svg = app.export_screenshot()
        assert "\x1b" not in svg and "\x07" not in svg
        assert "␛[31mred" in svg and "[bold&#160;red]x[/]" in svg


@pytest.mark.asyncio
async def test_file_and_project_names_are_literal_in_banner_and_status(tmp_path):
    project = small_workspace(
        tmp_path / "[bold red]proj\x1bx", **{"steering__[red]boom.md": "---\nname: [unclosed\n---\nx\n"}
    )
    app = make_app(project, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert status_text(app).startswith("[bold red]proj␛x  budget")
        status = app.query_one("#status")
        drawn = status.render_lines(Region(0, 0, *status.outer_size))  # what reaches the terminal (TextLines)
        no_escape_in(drawn)
        assert "".join(segment.text for segment in drawn[0]).lstrip().startswith("[bold red]proj␛x")
        banner = app.query_one("#banner")
        assert banner.has_class("shown")
        assert ".context/steering/[red]boom.md" in "\n".join(rendered_lines(banner))
