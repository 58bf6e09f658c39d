"""Themes: `--theme` applies, an unknown name falls back with a notice, a broken user theme never stops the app."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ctxtui.cli import main
from ctxtui.engine.fate import Fate
from ctxtui.tui.themes import THEME_VARIABLE_DEFAULTS, fate_colors

from tests.app.helpers import SIZE, CapturedRun, make_app, notices, settle, small_workspace, table, why_text

MY_THEME = """
name = "my-theme"
primary = "#ff00ff"
background = "#101010"
dark = true
[variables]
fate-included = "#00ff00"
[symbols]
included = "+"
summarized = "~"
dropped = "-"
"""


def user_themes() -> Path:
    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "ctxtui" / "themes"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def why_fate_colour(app) -> str:
    """The colour the why panel gives the fate word (its first span)."""
    return str(app.query_one("#why-body").content.spans[0].style).split()[-1]


@pytest.mark.asyncio
async def test_theme_flag_applies(tmp_path, monkeypatch):
    runs = CapturedRun(monkeypatch)
    assert main([str(small_workspace(tmp_path / "proj")), "--theme", "ctxtui-light"]) == 0
    app = runs.app
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "ctxtui-light" and not app.current_theme.dark
        assert fate_colors(app.get_css_variables())[Fate.INCLUDED] == "#0072B2"
        assert not [n for n in notices(app) if "theme" in n.lower()]


@pytest.mark.asyncio
async def test_config_file_theme_and_flag_wins(tmp_path, monkeypatch):
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "ctxtui" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('theme = "ctxtui-high-contrast"\n', encoding="utf-8")
    project = str(small_workspace(tmp_path / "proj"))
    runs = CapturedRun(monkeypatch)
    assert main([project]) == 0
    assert main([project, "--theme", "ctxtui-light"]) == 0
    config_app, flag_app = runs.apps
    for app, expected in ((config_app, "ctxtui-high-contrast"), (flag_app, "ctxtui-light")):
        app._watch = False
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert app.theme == expected


@pytest.mark.asyncio
async def test_unknown_theme_falls_back_with_a_notice(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), theme="no-such-theme", real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "ctxtui-dark"
        unknown = [n for n in notices(app) if n.startswith("Unknown theme 'no-such-theme'")]
        assert unknown and "using ctxtui-dark" in unknown[0] and "ctxtui-light" in unknown[0]
        assert app.main.view is not None


@pytest.mark.asyncio
async def test_a_broken_user_theme_is_reported_and_the_app_runs(tmp_path):
    (user_themes() / "broken.toml").write_text('name = "broken"\nprimary = "not-a-colour"\n', encoding="utf-8")
    (user_themes() / "garbage.toml").write_text("this is [not toml", encoding="utf-8")
    app = make_app(small_workspace(tmp_path / "proj"), theme="broken", real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "ctxtui-dark"
        skipped = [n for n in notices(app) if n.startswith("2 theme file(s) skipped")]
        assert skipped and "broken.toml" in skipped[0] and "'not-a-colour' is not a colour" in skipped[0]
        assert "garbage.toml" in skipped[0] and "not valid TOML" in skipped[0]
        assert any(n.startswith("Unknown theme 'broken'") for n in notices(app))
        assert app.main.view is not None and table(app).total_count > 0
        await pilot.press("right_square_bracket")  # and it keeps working (a bad colour would crash on refresh)
        await settle(pilot)
        assert app.main.view.budget == 4100


@pytest.mark.asyncio
async def test_a_user_theme_brings_its_colours_and_symbols(tmp_path):
    (user_themes() / "mine.toml").write_text(MY_THEME, encoding="utf-8")
    app = make_app(small_workspace(tmp_path / "proj"), theme="my-theme", real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "my-theme" and not notices(app)
        variables = app.get_css_variables()
        assert variables["fate-included"] == "#00ff00"
        assert variables["fate-dropped"] == THEME_VARIABLE_DEFAULTS["fate-dropped"]  # unset: the default
        entries = table(app)
        assert entries.fate_symbols == {Fate.INCLUDED: "+", Fate.SUMMARIZED: "~", Fate.DROPPED: "-"}
        included_line = 1 + next(i for i, row in enumerate(entries.view_rows) if row.fate is Fate.INCLUDED)
        assert entries.render_line(included_line).text[1] == "+"
        # The why panel draws the same glyphs as the table.
        entries.select_key(entries.view_rows[included_line - 1].key)
        await settle(pilot)
        assert why_text(app).lstrip().startswith("+ included")


@pytest.mark.asyncio
async def test_switching_theme_at_run_time_recolours_what_was_drawn(tmp_path):
    app = make_app(small_workspace(tmp_path / "proj"), theme="ctxtui-dark", real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("tab", "down")  # an included task
        await settle(pilot)
        assert why_text(app).startswith("● included")
        assert why_fate_colour(app) == "#56B4E9"
        app.theme = "ctxtui-light"
        await settle(pilot)
        assert why_fate_colour(app) == "#0072B2"
