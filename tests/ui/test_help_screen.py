"""The help modal lists the keys it is given and closes on Esc, q and ?."""

from __future__ import annotations

import pytest
from ctxtui.tui.screens.help import HelpScreen
from textual.geometry import Region

from tests.ui.gallery import Gallery

ENTRIES = [
    (None, "Budget"),
    ("← →", "fine step"),
    ("?", "Help"),
    ("b", "Type a budget"),
    ("[bold]x[/]", "literal \x1b[31m"),
]


@pytest.mark.asyncio
@pytest.mark.parametrize("key", ["escape", "q", "question_mark"])
async def test_help_lists_keys_and_closes(key):
    app = Gallery()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HelpScreen(ENTRIES))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.lines() == [
            (None, "Budget"),
            ("← →", "fine step"),
            ("?", "Help"),
            ("b", "Type a budget"),
            ("[bold]x[/]", "literal ␛[31m"),
        ]
        widget = app.screen.query_one("#help-keys")
        shown = [strip.text.rstrip() for strip in widget.render_lines(Region(0, 0, *widget.size))]
        assert shown[0].strip() == "Budget"
        assert shown[1].endswith("← →  fine step") and shown[1].index("←") == shown[4].index("[") + 7
        assert shown[4].endswith("[bold]x[/]  literal ␛[31m")  # markup shown as typed, ESC made visible
        await pilot.press(key)
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
