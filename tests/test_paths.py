"""Every per-user path in one place (`ctxtui.paths`), following the XDG base directory spec."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest
from ctxtui import paths

from tests.conftest import ROOT

HOME = Path.home()
CASES = [  # (function, variable, default under HOME, path under the base)
    (paths.config_file, "XDG_CONFIG_HOME", ".config", "ctxtui/config.toml"),
    (paths.user_themes_dir, "XDG_CONFIG_HOME", ".config", "ctxtui/themes"),
    (paths.demo_root, "XDG_CACHE_HOME", ".cache", "ctxtui/demo"),
    (paths.screenshots_dir, "XDG_DATA_HOME", ".local/share", "ctxtui/screenshots"),
]


@pytest.mark.parametrize("where, variable, default, leaf", CASES, ids=[c[0].__name__ for c in CASES])
def test_an_absolute_xdg_variable_is_the_base(tmp_path, where, variable, default, leaf):
    assert where({variable: str(tmp_path)}) == tmp_path / leaf


@pytest.mark.parametrize("where, variable, default, leaf", CASES, ids=[c[0].__name__ for c in CASES])
@pytest.mark.parametrize("value", [None, "", "relative/dir", "./here", "~/not-expanded"])
def test_unset_empty_or_relative_variables_are_ignored(where, variable, default, leaf, value):
    env = {} if value is None else {variable: value}
    assert where(env) == HOME / default / leaf


def test_other_variables_do_not_leak(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_DATA_HOME": str(tmp_path / "data")}
    assert paths.config_file(env) == HOME / ".config" / "ctxtui" / "config.toml"
    assert paths.demo_root(env) == tmp_path / "cache" / "ctxtui" / "demo"
    assert paths.screenshots_dir(env) == tmp_path / "data" / "ctxtui" / "screenshots"


def test_without_env_the_process_environment_is_read_at_call_time(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "a"))
    assert paths.config_file() == tmp_path / "a" / "ctxtui" / "config.toml"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "b"))
    assert paths.user_themes_dir() == tmp_path / "b" / "ctxtui" / "themes"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert paths.demo_root() == tmp_path / "home" / ".cache" / "ctxtui" / "demo"


def test_builtin_themes_are_the_top_level_themes_folder():
    found = Path(str(paths.builtin_themes_dir()))
    names = sorted(p.name for p in (ROOT / "themes").glob("*.toml"))
    assert names == ["ctxtui-dark.toml", "ctxtui-high-contrast.toml", "ctxtui-light.toml"]
    assert sorted(p.name for p in found.glob("*.toml")) == names
    match, mismatch, errors = filecmp.cmpfiles(found, ROOT / "themes", names, shallow=False)
    assert mismatch == [] and errors == []


def test_builtin_themes_come_from_the_package_when_it_has_them(tmp_path, monkeypatch):
    (tmp_path / "ctxtui" / "themes").mkdir(parents=True)
    monkeypatch.setattr("importlib.resources.files", lambda package: tmp_path / package)
    assert paths.builtin_themes_dir() == tmp_path / "ctxtui" / "themes"


def test_builtin_themes_fall_back_to_the_checkout(tmp_path, monkeypatch):
    monkeypatch.setattr("importlib.resources.files", lambda package: tmp_path / package)  # no themes in it
    assert paths.builtin_themes_dir() == ROOT / "themes"
    monkeypatch.setattr(paths, "_CHECKOUT", tmp_path / "site-packages")  # not a checkout: nothing found
    assert paths.builtin_themes_dir() == tmp_path / "ctxtui" / "themes"
