"""The user's config file: `$XDG_CONFIG_HOME/ctxtui/config.toml` (see `ctxtui.paths.config_file`).

    theme = "ctxtui-light"        # default theme (--theme wins)
    [keys]                        # remap any binding by its id
    "app.preview" = "v"
    "app.copy" = "y,ctrl+c"

A missing file means defaults; a broken one is reported and ignored, never fatal.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ctxtui.engine.sources.files import MAX_CONFIG_BYTES, read_bytes_safely
from ctxtui.paths import config_file


@dataclass(frozen=True, slots=True)
class UserConfig:
    theme: str | None = None
    keys: dict[str, str] = field(default_factory=dict)
    problems: tuple[str, ...] = ()


def read_user_config(path: Path | None = None) -> UserConfig:
    path = path or config_file()
    try:
        data = tomllib.loads(read_bytes_safely(path, follow_symlinks=True, limit=MAX_CONFIG_BYTES).decode("utf-8"))
    except FileNotFoundError:
        return UserConfig()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return UserConfig(problems=(f"{path}: ignored ({exc})",))
    problems = []
    theme = data.get("theme")
    if theme is not None and not isinstance(theme, str):
        problems.append(f"{path}: theme must be a string")
        theme = None
    keys = data.get("keys", {})
    if not isinstance(keys, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in keys.items()):
        problems.append(f"{path}: [keys] must map binding ids to key strings")
        keys = {}
    return UserConfig(theme=theme, keys=dict(keys), problems=tuple(problems))
