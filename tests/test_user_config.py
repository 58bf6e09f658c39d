"""The user's config file: theme and key remapping; broken files are reported, not fatal."""

from __future__ import annotations

from ctxtui.user_config import read_user_config


def test_missing_file_means_defaults(tmp_path):
    assert read_user_config(tmp_path / "none.toml").theme is None


def test_theme_and_keys(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('theme = "ctxtui-light"\n[keys]\n"app.preview" = "v"\n')
    config = read_user_config(path)
    assert config.theme == "ctxtui-light" and config.keys == {"app.preview": "v"} and not config.problems


def test_broken_file_is_reported(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("theme = [unclosed\n")
    config = read_user_config(path)
    assert config.theme is None and "ignored" in config.problems[0]
    path.write_text("theme = 3\n[keys]\nx = 1\n")
    config = read_user_config(path)
    assert len(config.problems) == 2


def test_read_user_config_reads_the_xdg_config_file(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "ctxtui").mkdir()
    (tmp_path / "ctxtui" / "config.toml").write_text('theme = "ctxtui-light"\n')
    assert read_user_config().theme == "ctxtui-light"
