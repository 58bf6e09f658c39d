"""`?` lists the keys and Esc closes it; ctrl+p lists ctxtui's commands beside Textual's own."""

from __future__ import annotations

import pytest
from ctxtui.engine.packers.registry import PACKERS
from ctxtui.tui.actions import NOUS_ONLY
from ctxtui.tui.app import CtxtuiApp
from ctxtui.tui.screens.help import HelpScreen
from ctxtui.tui.screens.preview import PreviewScreen
from ctxtui.tui.widgets.entries.columns import columns_for
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
            lines = [f"{key}  {words}" for key, words in app.screen.lines() if key is not None]
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
                ("← →", "budget one cell of the slider, to a round number (slider focused)"),
                ("shift+← →", "budget −1 / +1 token (slider focused)"),
                ("ctrl+p", "command palette"),
            ]:
                shown = f"{key}  {description}"
                assert any(line == shown or line.startswith(shown + ": ") for line in lines), (key, description)
            # The nous-only keys (t: the Turns view) are listed only for a nous database (test_turns_view).
            described = {b.description for b in CtxtuiApp.BINDINGS if b.description and b.id not in NOUS_ONLY}
            assert all(any(f"  {d}" in line for line in lines) for d in described)
            assert "[  −100: the budget 100 tokens lower" in lines
            await pilot.press(close)
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)
        assert app.is_running


@pytest.mark.asyncio
async def test_help_explains_every_symbol_column_and_term(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        items = app.screen.lines()
        keys = {key for key, _ in items if key}
        text = "\n".join(f"{key} {words}" for key, words in items if key is not None)
        for symbol in ("●", "◐", "✕", "█", "▒", "▓", "░"):
            assert symbol in keys, symbol
        for packer in PACKERS:  # every column label of every packer's table, and what it means
            for column in columns_for(packer).columns:
                label = column.label.strip() or f"{column.id} (no header)"
                assert label in keys and column.help in text, (packer, column.id)
        for glyph in ("▲", "▼", "◆", "⚠ over"):
            assert glyph in keys, glyph
        for source in ("(default)", "(flag)", "(.ctxrc)", "(environment)", "(set here)"):
            assert source in text, source
        for term in ("refusal banner", "settings line", "changes line", "knobs", "pin", "coverage", "packer"):
            assert term in keys, term
        for term in ("cap", "share", "full-entry limit", "Also Noted", "misfit", "threshold", "not monotone"):
            assert term in keys, term
        assert "budgeted" in keys and "unbudgeted" in text
        # One word, one meaning: no label explained twice outside the per-packer column lists.
        heading, shared = "", []
        for key, _ in items:
            if key is None:
                heading = _
            elif key and not heading.startswith("Columns"):
                shared.append(key)
        assert sorted({k for k in shared if shared.count(k) > 1}) == []
        assert "summarized: only a shorter form" in text
        headings = [words for key, words in items if key is None]
        assert headings[:3] == ["Keys", "Symbols", "Lines on screen"] and headings[-1] == "Words"
        assert (
            "Columns of Shabka and its MCP tool" in headings
            and "Columns of Cortex" in headings
            and "Columns of nous" in headings
        )


@pytest.mark.asyncio
async def test_help_scrolls_in_a_small_terminal(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), real_tokens=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        box = app.screen.query_one("VerticalScroll")
        assert box.region.height <= 24 and box.max_scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        assert box.scroll_y == box.max_scroll_y  # the last words can be read


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
        lines = [f"{key}  {words.split(':')[0]}" for key, words in app.screen.lines() if key is not None]
        assert "v  Preview" in lines and "f1  Help" in lines and "y, ^y  Copy" in lines
        assert "p  Preview" not in lines and "?  Help" not in lines
        await pilot.press("escape", "v")
        await pilot.pause()
        assert isinstance(app.screen, PreviewScreen)  # and the remapped key does what the help says


@pytest.mark.asyncio
async def test_the_palettes_screenshot_lands_in_a_folder_that_exists_and_says_where(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = make_app(small_workspace(tmp_path / "proj"), real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.deliver_screenshot()  # what the palette's "Screenshot" calls
        await pilot.pause()
        folder = tmp_path / "data" / "ctxtui" / "screenshots"
        shots = list(folder.glob("*.svg"))
        assert len(shots) == 1
        said = [str(n.message) for n in app._notifications]
        assert any(n == f"Screenshot saved: {shots[0]}" for n in said), said


@pytest.mark.asyncio
async def test_toasts_do_not_pile_up(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.clear_notifications()
        for number in range(5):
            app.notify(f"notice {number}", timeout=30)
        await pilot.pause()
        assert [str(n.message) for n in app._notifications] == ["notice 3", "notice 4"]  # the newest two


@pytest.mark.asyncio
async def test_the_turns_key_is_off_without_a_nous_database(tmp_path):
    # MainScreen's own check_action once shadowed the tuning mixin's, so `t Turns` showed in every footer.
    app = make_app(small_workspace(tmp_path / "proj"), real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.check_action("turns", ()) is False
        assert app.main.check_action("cycle_sort", ()) is True
