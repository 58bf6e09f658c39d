"""Every per-user path ctxtui reads or writes, in one place.

They follow the XDG Base Directory spec: `$XDG_CONFIG_HOME` (default
`~/.config`) for what the user writes (config file, themes), `$XDG_CACHE_HOME`
(default `~/.cache`) for what ctxtui can rebuild at any time (the demo project),
`$XDG_DATA_HOME` (default `~/.local/share`) for what ctxtui makes for the user
to keep (screenshots). A variable that is unset, empty or not an absolute path
is ignored, as the spec says ("If an implementation encounters a relative path
in any of these variables it should consider the path invalid and ignore it").

Each function takes an optional `env` mapping (default: `os.environ`, read at
call time) so tests need not touch the real environment. `HOME` is not read
from `env`: the defaults come from `Path.home()`.

The built-in themes are here too (`builtin_themes_dir`): not a user path, but
the one other place the app looks for files outside the project.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

APP = "ctxtui"
# The checkout this module sits in, when it is one (`ctxtui/paths.py` → the repository root).
_CHECKOUT = Path(__file__).resolve().parent.parent


def _xdg(name: str, default: str, env: Mapping[str, str] | None) -> Path:
    value = (os.environ if env is None else env).get(name) or ""
    return Path(value) if os.path.isabs(value) else Path.home() / default


def config_home(env: Mapping[str, str] | None = None) -> Path:
    """`$XDG_CONFIG_HOME`, or `~/.config`."""
    return _xdg("XDG_CONFIG_HOME", ".config", env)


def cache_home(env: Mapping[str, str] | None = None) -> Path:
    """`$XDG_CACHE_HOME`, or `~/.cache`."""
    return _xdg("XDG_CACHE_HOME", ".cache", env)


def data_home(env: Mapping[str, str] | None = None) -> Path:
    """`$XDG_DATA_HOME`, or `~/.local/share`."""
    return _xdg("XDG_DATA_HOME", os.path.join(".local", "share"), env)


def config_file(env: Mapping[str, str] | None = None) -> Path:
    """The user's config file: `$XDG_CONFIG_HOME/ctxtui/config.toml` (theme, key remapping)."""
    return config_home(env) / APP / "config.toml"


def user_themes_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's theme files: `$XDG_CONFIG_HOME/ctxtui/themes/*.toml` (they override built-ins)."""
    return config_home(env) / APP / "themes"


def demo_root(env: Mapping[str, str] | None = None) -> Path:
    """Where `ctxtui demo` writes its project: `$XDG_CACHE_HOME/ctxtui/demo` (rewritten on every launch)."""
    return cache_home(env) / APP / "demo"


def screenshots_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where the palette's "Screenshot" command saves: `$XDG_DATA_HOME/ctxtui/screenshots`.

    Data, not cache: the user asked for the file and expects it to stay
    (a cache directory may be emptied at any time).
    """
    return data_home(env) / APP / "screenshots"


def builtin_themes_dir() -> Traversable:
    """The built-in theme files, wherever ctxtui runs from.

    The source is the repository's top-level `themes/`; building the wheel
    copies it to `ctxtui/themes/` (see `pyproject.toml`), so an installed
    package finds it there. A checkout (an editable install, or the tests run
    from the source tree) has no `ctxtui/themes/` and uses the top-level folder.
    When neither exists the packaged path is returned anyway: reading an
    absent folder finds no themes, which the theme loader reports.
    """
    from importlib.resources import files

    packaged = files(APP).joinpath("themes")
    if packaged.is_dir():
        return packaged
    checkout = _CHECKOUT / "themes"
    if checkout.is_dir() and (_CHECKOUT / "pyproject.toml").is_file():
        return checkout
    return packaged
