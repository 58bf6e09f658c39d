"""Theme files: built-ins valid, broken files reported and skipped, unknown names fall back."""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.tui.themes import (
    BUILTIN_THEME_NAMES,
    DEFAULT_THEME,
    THEME_VARIABLE_DEFAULTS,
    ThemeVariablesMixin,
    apply_theme,
    fate_symbols,
    load_themes,
    parse_theme_text,
    problems_notice,
    register_themes,
    user_theme_dir,
)
from ctxtui.tui.widgets.entries.table import EntriesTable
from textual.color import Color

from tests.ui.gallery import Gallery

ROOT = Path(__file__).resolve().parents[2]
GOOD = """
name = "mine"
primary = "#123456"
dark = false
[variables]
fate-included = "#0072B2"
footer-key-foreground = "#81a1c1 35%"
block-cursor-text-style = "bold reverse"
[symbols]
dropped = "x"
"""


def test_builtin_themes_load_without_problems(tmp_path):
    loaded = load_themes(user_dir=tmp_path)
    assert loaded.problems == []
    assert set(BUILTIN_THEME_NAMES) <= set(loaded.themes)
    for name in BUILTIN_THEME_NAMES:
        theme = loaded.themes[name]
        for variable in THEME_VARIABLE_DEFAULTS:
            Color.parse(theme.variables[variable])
        colours = {theme.variables[v].lower() for v in ("fate-included", "fate-summarized", "fate-dropped")}
        assert len(colours) == 3


def test_user_theme_dir_follows_xdg(tmp_path):
    assert user_theme_dir({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "ctxtui" / "themes"
    assert user_theme_dir({}) == Path.home() / ".config" / "ctxtui" / "themes"
    assert user_theme_dir({"XDG_CONFIG_HOME": "relative"}) == Path.home() / ".config" / "ctxtui" / "themes"


def test_a_valid_user_theme_parses_with_symbols():
    theme, symbols, problems = parse_theme_text(GOOD, "mine.toml")
    assert problems == [] and theme is not None
    assert theme.name == "mine" and theme.dark is False
    assert symbols[list(symbols)[2]] == "x"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('name = "bad"\nprimary = "#12345"', "primary: '#12345' is not a colour"),
        ('name = "bad"\nprimary = "#123456"\n[variables]\nfate-dropped = "reddish"', "variables.fate-dropped"),
        ('name = "bad"\nprimary = "#123456"\n[variables]\nfate-dropped = "#D55E00 50%"', "variables.fate-dropped"),
        ('name = "bad"\nprimary = "#123456"\n[variables]\nblock-cursor-text-style = "shiny"', "not a text style"),
        ('name = "bad"\nprimary = "#123456"\nprimay = "#fff"', "primay: unknown setting"),
        ('name = "bad"', "primary: missing"),
        ('primary = "#123456"', "name:"),
        ('name = "bad"\nprimary = "#123456"\ndark = "yes"', "dark: expected true or false"),
        ('name = "bad"\nprimary = "#123456"\n[symbols]\nincluded = "ab"', "symbols.included"),
        ('name = "bad"\nprimary = "#123456"\n[symbols]\nincluded = "\\u001b"', "symbols.included"),
        ('name = "bad\nprimary', "not valid TOML"),
    ],
)
def test_broken_theme_is_rejected_with_a_reason(text, fragment):
    theme, _symbols, problems = parse_theme_text(text, "bad.toml")
    assert theme is None
    assert any(fragment in str(p) for p in problems), problems


def write_user_themes(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / "mine.toml").write_text(GOOD, encoding="utf-8")
    (folder / "broken.toml").write_text('name = "broken"\nprimary = "not-a-colour"\n', encoding="utf-8")
    (folder / "dup.toml").write_text(GOOD, encoding="utf-8")  # same name as mine.toml


def test_load_collects_problems_and_skips_broken_files(tmp_path):
    folder = tmp_path / "ctxtui" / "themes"
    write_user_themes(folder)
    loaded = load_themes(env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert "mine" in loaded.themes and "broken" not in loaded.themes
    paths = {Path(p.path).name for p in loaded.problems}
    assert paths == {"broken.toml", "dup.toml"} or paths == {"broken.toml", "mine.toml"}
    notice = problems_notice(loaded.problems)
    assert notice.startswith("2 theme file(s) skipped:") and "not-a-colour" in notice


@pytest.mark.asyncio
async def test_app_reports_problems_once_and_falls_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    write_user_themes(tmp_path / "ctxtui" / "themes")
    app = Gallery(theme_name="no-such-theme")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == DEFAULT_THEME
        assert len(app.notices) == 2
        assert "theme file(s) skipped" in app.notices[0]
        assert "Unknown theme 'no-such-theme': using ctxtui-dark" in app.notices[1]
        assert "mine" in app.available_themes
        app.theme = "mine"  # a user theme without our variables still renders: defaults apply
        await pilot.pause()
        assert app.get_css_variables()["fate-dropped"] == THEME_VARIABLE_DEFAULTS["fate-dropped"]
        assert app.get_css_variables()["fate-included"] == "#0072B2"


@pytest.mark.asyncio
@pytest.mark.parametrize("name", BUILTIN_THEME_NAMES)
async def test_each_builtin_theme_applies(name, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app = Gallery(theme_name=name)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == name and app.notices == []


@pytest.mark.asyncio
async def test_register_then_apply_with_preloaded_themes(tmp_path):
    app = Gallery()
    async with app.run_test(size=(80, 24)) as pilot:
        loaded = load_themes(user_dir=tmp_path)
        register_themes(app, loaded)
        assert apply_theme(app, "ctxtui-light", loaded) == []
        await pilot.pause()
        assert app.theme == "ctxtui-light"


@pytest.mark.asyncio
async def test_switching_theme_recolours_the_cached_table_rows(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app = Gallery()
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.query_one(EntriesTable)
        await pilot.pause()

        def glyph_colour() -> str:
            segment = next(s for s in table.render_line(2) if s.text == "●")
            return segment.style.color.triplet.hex.upper()

        assert glyph_colour() == "#56B4E9"
        app.theme = "ctxtui-light"
        await pilot.pause()
        assert glyph_colour() == "#0072B2"


def test_fate_symbols_and_mixin(tmp_path):
    theme_dir = tmp_path / "themes"
    theme_dir.mkdir()
    (theme_dir / "ascii.toml").write_text(
        'name = "ascii"\nprimary = "#123456"\n[symbols]\nincluded = "+"\nsummarized = "~"\ndropped = "x"\n',
        encoding="utf-8",
    )
    load_themes(user_dir=theme_dir)
    assert fate_symbols("ascii") == {Fate.INCLUDED: "+", Fate.SUMMARIZED: "~", Fate.DROPPED: "x"}
    assert fate_symbols("unknown")[Fate.DROPPED] == "✕"

    class Base:
        def get_theme_variable_defaults(self):
            return {"x": "#000000"}

    class App(ThemeVariablesMixin, Base):
        pass

    assert App().get_theme_variable_defaults() == {"x": "#000000", **THEME_VARIABLE_DEFAULTS}
