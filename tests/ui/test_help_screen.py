"""The help modal lists the keys it is given and closes on Esc, q and ?."""

from __future__ import annotations

import pytest
from ctxtui.tui.screens.help import HelpScreen

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
        lines = app.screen._text().plain.split("\n")
        assert lines == [
            "Budget",
            "       ← →  fine step",
            "         ?  Help",
            "         b  Type a budget",
            "[bold]x[/]  literal ␛[31m",
        ]
        assert app.screen.query_one("#help-keys").size.width == max(len(line) for line in lines)
        await pilot.press(key)
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
