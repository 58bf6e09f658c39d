"""Themes as TOML files (the built-in ones shipped in the package, plus the user's), and what widgets take from a theme.

Built-in themes are the top-level `themes/*.toml` of the repository, shipped in
the wheel as `ctxtui/themes/` (`paths.builtin_themes_dir` finds either); user themes in
`$XDG_CONFIG_HOME/ctxtui/themes/*.toml` (default `~/.config/ctxtui/themes`)
and override a built-in of the same name. Every colour is checked with
`Color.parse` before `register_theme`: Textual accepts a bad colour at first
and crashes on the next CSS refresh. A broken file is skipped and its problems
are collected, so the App can show them in one notification.

How the App uses this module::

    class CtxApp(App):
        def get_theme_variable_defaults(self) -> dict[str, str]:
            # Literal colours for $fate-included, $fate-summarized, $fate-dropped
            # and $overrun, or CSS that names them fails to parse at start-up
            # under a theme that does not define them (e.g. textual-dark).
            return {**super().get_theme_variable_defaults(), **theme_variable_defaults()}

        def on_mount(self) -> None:
            # Reads built-in + user themes, registers them, falls back to ctxtui-dark.
            for notice in apply_theme(self, requested_name):
                # markup=False: the text quotes file names and file contents.
                self.notify(notice, severity="warning", markup=False)

(`ThemeVariablesMixin` is that override, ready to inherit.)
`fate_symbols(app.theme)` gives the theme's fate symbols (for
`EntriesTable.fate_symbols` and the why panel); `fate_colors` and
`muted_color` turn the theme's CSS variables into colours for Rich `Text`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from textual.color import Color, ColorParseError
from textual.css.constants import VALID_STYLE_FLAGS
from textual.theme import Theme

from ctxtui import paths
from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Problem
from ctxtui.engine.sources.files import MAX_CONFIG_BYTES, read_bytes_safely
from ctxtui.safe_text import clean_line

DEFAULT_THEME = "ctxtui-dark"
BUILTIN_THEME_NAMES = ("ctxtui-dark", "ctxtui-light", "ctxtui-high-contrast")

# One glyph per fate so the fate reads without colour; all are one cell wide
# (● and ◐ are East-Asian "ambiguous": two cells only in CJK-wide terminals).
# A theme file may replace them (its `symbols` table).
FATE_SYMBOL = {Fate.INCLUDED: "●", Fate.SUMMARIZED: "◐", Fate.DROPPED: "✕"}

# The App-specific CSS variables and their fallbacks (the ctxtui-dark values).
THEME_VARIABLE_DEFAULTS: dict[str, str] = {
    "fate-included": "#56B4E9",
    "fate-summarized": "#E69F00",
    "fate-dropped": "#D55E00",
    "overrun": "#CC79A7",
}

_COLOUR_FIELDS = (
    "primary",
    "secondary",
    "warning",
    "error",
    "success",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
_FLOAT_FIELDS = ("luminosity_spread", "text_alpha")
_BOOL_FIELDS = ("dark", "ansi")
_TABLES = ("variables", "symbols")
_KNOWN = {"name", *_COLOUR_FIELDS, *_FLOAT_FIELDS, *_BOOL_FIELDS, *_TABLES}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_ALPHA_SUFFIX = re.compile(r"\s+\d+(\.\d+)?%$")


def theme_variable_defaults() -> dict[str, str]:
    """Literal colours for the App's own CSS variables (see the module docstring)."""
    return dict(THEME_VARIABLE_DEFAULTS)


class ThemeVariablesMixin:
    """Put first in an App's bases to supply `theme_variable_defaults()`:
    `class CtxtuiApp(ThemeVariablesMixin, App): ...`."""

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **theme_variable_defaults()}  # type: ignore[misc]


_SYMBOLS: dict[str, dict[Fate, str]] = {}  # theme name → fate symbols, from the last load


def fate_symbols(theme_name: str) -> dict[Fate, str]:
    """The fate symbols of a loaded theme (defaults for any other), for `EntriesTable.fate_symbols`."""
    return dict(_SYMBOLS.get(theme_name, FATE_SYMBOL))


def fate_colors(variables: Mapping[str, str]) -> dict[Fate, str]:
    """The theme's fate colours (falling back to colour-blind-safe defaults)."""
    return {fate: variables.get(f"fate-{fate.value}", THEME_VARIABLE_DEFAULTS[f"fate-{fate.value}"]) for fate in Fate}


def muted_color(variables: Mapping[str, str]) -> str:
    """Secondary text for this theme: the foreground 35% of the way to the background.

    `$text-muted` is "auto 60%", which Rich cannot use; this keeps ≥ 4.5:1
    contrast on the dark, light and high-contrast themes alike.
    """
    try:
        background = Color.parse(variables.get("background", "#000000"))
        foreground = Color.parse(variables.get("foreground", "#ffffff"))
    except ColorParseError:
        return "grey50"
    return foreground.blend(background, 0.35).hex


def user_theme_dir(env: Mapping[str, str] | None = None) -> Path:
    """`$XDG_CONFIG_HOME/ctxtui/themes`, or `~/.config/ctxtui/themes`."""
    return paths.user_themes_dir(env)


def builtin_theme_dir():
    """The built-in themes (a Traversable in a wheel; the checkout's `themes/` folder in development)."""
    return paths.builtin_themes_dir()


@dataclass
class LoadedThemes:
    """What `load_themes` found: valid themes, their symbols, and the problems of the rest."""

    themes: dict[str, Theme] = field(default_factory=dict)
    symbols: dict[str, dict[Fate, str]] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def _check_colour(value: Any, where: str, problems: list[str], *, alpha_suffix: bool = False) -> None:
    if not isinstance(value, str):
        problems.append(f"{where}: expected a colour string, got {value!r}")
        return
    text = _ALPHA_SUFFIX.sub("", value.strip()) if alpha_suffix else value.strip()
    try:
        Color.parse(text)
    except ColorParseError:
        problems.append(f"{where}: {value!r} is not a colour")


def parse_theme(data: Mapping[str, Any], source: str) -> tuple[Theme | None, dict[Fate, str], list[Problem]]:
    """Validate one theme table; return the Theme, or None and the problems."""
    messages: list[str] = []
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        messages.append(f"name: expected a theme name like 'my-theme', got {name!r}")
    if "primary" not in data:
        messages.append("primary: missing (the one colour Textual requires)")
    for key in data:
        if key not in _KNOWN:
            messages.append(f"{key}: unknown setting")
    for key in _COLOUR_FIELDS:
        if key in data:
            _check_colour(data[key], key, messages)
    for key in _FLOAT_FIELDS:
        if key in data and (isinstance(data[key], bool) or not isinstance(data[key], (int, float))):
            messages.append(f"{key}: expected a number, got {data[key]!r}")
    for key in _BOOL_FIELDS:
        if key in data and not isinstance(data[key], bool):
            messages.append(f"{key}: expected true or false, got {data[key]!r}")

    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        messages.append("variables: expected a table")
        variables = {}
    for key, value in variables.items():
        where = f"variables.{key}"
        if key in THEME_VARIABLE_DEFAULTS:
            _check_colour(value, where, messages)
        elif key.endswith("text-style"):
            flags = value.split() if isinstance(value, str) else None
            if not flags or any(flag not in VALID_STYLE_FLAGS for flag in flags):
                messages.append(f"{where}: {value!r} is not a text style")
        else:  # Textual's own variables may carry an alpha: "#81a1c1 35%"
            _check_colour(value, where, messages, alpha_suffix=True)

    symbols: dict[Fate, str] = dict(FATE_SYMBOL)
    raw_symbols = data.get("symbols", {})
    if not isinstance(raw_symbols, dict):
        messages.append("symbols: expected a table")
        raw_symbols = {}
    for key, value in raw_symbols.items():
        try:
            fate = Fate(key)
        except ValueError:
            messages.append(f"symbols.{key}: not a fate (included, summarized, dropped)")
            continue
        if not isinstance(value, str) or not value.isprintable() or cell_len(value) != 1:
            messages.append(f"symbols.{key}: expected one printable, one-cell character, got {value!r}")
            continue
        symbols[fate] = value

    if messages or not isinstance(name, str):  # a name that is not a str has its message already
        return None, {}, [Problem(source, message) for message in messages]
    theme = Theme(
        name=name,
        **{key: data[key] for key in (*_COLOUR_FIELDS, *_FLOAT_FIELDS, *_BOOL_FIELDS) if key in data},
        variables={str(k): str(v) for k, v in variables.items()},
    )
    return theme, symbols, []


def parse_theme_text(text: str, source: str) -> tuple[Theme | None, dict[Fate, str], list[Problem]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return None, {}, [Problem(source, f"not valid TOML: {error}")]
    return parse_theme(data, source)


def _theme_files(folder) -> Iterable:
    try:
        if not folder.is_dir():
            return []
        return sorted((f for f in folder.iterdir() if f.name.endswith(".toml") and f.is_file()), key=lambda f: f.name)
    except OSError:
        return []


def load_themes(
    builtin_dir=None, user_dir: Path | None = None, *, env: Mapping[str, str] | None = None
) -> LoadedThemes:
    """Read built-in then user theme files; a user theme overrides a built-in of the same name."""
    loaded = LoadedThemes()
    folders = [
        ("built-in", builtin_dir if builtin_dir is not None else builtin_theme_dir()),
        ("user", user_dir if user_dir is not None else user_theme_dir(env)),
    ]
    for origin, folder in folders:
        names_here: dict[str, str] = {}
        for file in _theme_files(folder):
            source = str(file)
            try:
                text = read_bytes_safely(file, follow_symlinks=True, limit=MAX_CONFIG_BYTES).decode("utf-8")
            except (OSError, UnicodeDecodeError) as error:
                loaded.problems.append(Problem(source, f"cannot read: {error}"))
                continue
            theme, symbols, problems = parse_theme_text(text, source)
            if theme is None:
                loaded.problems.extend(problems)
                continue
            if theme.name in names_here:
                loaded.problems.append(
                    Problem(source, f"theme {theme.name!r} is already defined in {names_here[theme.name]}: skipped")
                )
                continue
            names_here[theme.name] = source
            loaded.themes[theme.name] = theme
            loaded.symbols[theme.name] = symbols
            loaded.sources[theme.name] = f"{origin}: {source}"
    _SYMBOLS.update(loaded.symbols)
    return loaded


def register_themes(app, loaded: LoadedThemes) -> None:
    """Register every valid theme with the App."""
    for theme in loaded.themes.values():
        app.register_theme(theme)


def apply_theme(app, name: str | None, loaded: LoadedThemes | None = None) -> list[str]:
    """Register the themes and switch the App to `name` (unknown: `ctxtui-dark`).

    With `loaded=None` the theme files are read and registered first. Returns
    the notices to show (skipped files, unknown name), possibly none.
    """
    notices: list[str] = []
    if loaded is None:
        loaded = load_themes()
        register_themes(app, loaded)
    problems = problems_notice(loaded.problems)
    if problems:
        notices.append(problems)
    wanted = name or DEFAULT_THEME
    if wanted in app.available_themes:
        app.theme = wanted
        return notices
    fallback = DEFAULT_THEME if DEFAULT_THEME in app.available_themes else "textual-dark"
    app.theme = fallback
    known = ", ".join(sorted(app.available_themes))
    notices.append(f"Unknown theme {clean_line(wanted)!r}: using {fallback}. Known themes: {known}")
    return notices


def problems_notice(problems: list[Problem]) -> str | None:
    """All theme problems as one notification text (None when there are none)."""
    if not problems:
        return None
    files = sorted({p.path for p in problems})
    lines = [f"{len(files)} theme file(s) skipped:"]
    lines += [f"• {clean_line(str(p))}" for p in problems[:12]]
    if len(problems) > 12:
        lines.append(f"… and {len(problems) - 12} more")
    return "\n".join(lines)
