"""`?` lists the keys and Esc closes it; ctrl+p lists ctxtui's commands beside Textual's own."""

from __future__ import annotations

import pytest
from ctxtui.tui.actions import NOUS_ONLY
from ctxtui.tui.app import CtxtuiApp
from ctxtui.tui.screens.help import HelpScreen
from ctxtui.tui.screens.preview import PreviewScreen
from textual.command import CommandList, CommandPalette

from tests.app.helpers import SIZE, make_app, settle, small_workspace


@pytest.mark.asyncio
async def test_help_lists_every_key_and_closes(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for close in ("escape", "question_mark"):
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            lines = [line.strip() for line in app.screen._text().plain.split("\n")]
            for key, description in [
                ("?", "Help"),
                ("b", "Budget…"),
                ("[", "−100"),
                ("]", "+100"),
                ("/", "Filter"),
                ("f", "Fate"),
                ("s", "Sort"),
                ("p", "Preview"),
                ("c", "Copy"),
                ("w", "Save"),
                ("r", "Reload"),
                ("q", "Quit"),
                ("← →", "budget fine step (slider focused)"),
                ("ctrl+p", "command palette"),
            ]:
                assert f"{key}  {description}" in lines, (key, description)
            # The nous-only keys (t: the Turns view) are listed only for a nous database (test_turns_view).
            described = {b.description for b in CtxtuiApp.BINDINGS if b.description and b.id not in NOUS_ONLY}
            assert all(any(line.endswith(d) for line in lines) for d in described)
            await pilot.press(close)
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)
        assert app.is_running


async def palette_hits(pilot, query: str) -> list[str]:
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(pilot.app.screen, CommandPalette)
    await pilot.press(*query)
    commands = pilot.app.screen.query_one(CommandList)
    for _ in range(60):
        await pilot.pause(0.02)
        if commands.option_count:
            break
    await pilot.pause(0.1)
    return [str(commands.get_option_at_index(i).prompt).split("\n")[0] for i in range(commands.option_count)]


async def palette_choose(pilot, name: str) -> None:
    """Move the highlight to the hit called `name` with ↓ and press Enter."""
    commands = pilot.app.screen.query_one(CommandList)
    for _ in range(commands.option_count + 1):
        highlighted = commands.highlighted
        if highlighted is not None and str(commands.get_option_at_index(highlighted).prompt).startswith(name):
            break
        await pilot.press("down")
    await pilot.press("enter")
    await settle(pilot)


@pytest.mark.asyncio
async def test_palette_lists_ctxtui_commands_and_runs_one(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        hits = await palette_hits(pilot, "Preview")
        assert "Preview packet as Markdown" in hits and "Preview packet as JSON" in hits
        await palette_choose(pilot, "Preview packet as JSON")
        assert isinstance(app.screen, PreviewScreen) and app.screen.current_format == "json"


@pytest.mark.asyncio
async def test_palette_budget_preset_and_system_commands(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        hits = await palette_hits(pilot, "Budget 16")
        assert hits[0] == "Budget 16,000"
        await palette_choose(pilot, "Budget 16,000")
        assert app.main.view.budget == 16000

        hits = await palette_hits(pilot, "theme")  # Textual's own commands are still there
        assert any("theme" in hit.lower() for hit in hits)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, CommandPalette)


@pytest.mark.asyncio
async def test_help_shows_the_users_remapped_keys(tmp_path):
    app = make_app(
        small_workspace(tmp_path / "proj"),
        real_tokens=False,
        keymap={"app.preview": "v", "app.help": "f1", "app.copy": "y,ctrl+y"},
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = [line.strip() for line in app.screen._text().plain.split("\n")]
        assert "v  Preview" in lines and "f1  Help" in lines and "y, ^y  Copy" in lines
        assert "p  Preview" not in lines and "?  Help" not in lines
        await pilot.press("escape", "v")
        await pilot.pause()
        assert isinstance(app.screen, PreviewScreen)  # and the remapped key does what the help says
