"""The preview's "ctxtui pack …" line runs as shown, whatever the names (issue 20, medium 16).

A project called `-dash`, shown relative to the working directory, became
`ctxtui pack -dash …`: an unknown option, not a project. Values that start
with `-` (a project, a store, a query) must still reach the command as values.
"""

from __future__ import annotations

import shlex

from ctxtui.cli import main
from ctxtui.opening.command import pack_command
from ctxtui.opening.request import PackRequest

from tests.conftest import NOW, write_context


def run_line(line: str, capsys) -> str:
    words = shlex.split(line)
    assert words[:2] == ["ctxtui", "pack"]
    assert main(words[1:]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_a_project_named_like_an_option_reproduces(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write_context(tmp_path / "-dash", {"TASKS.md": "# Tasks\n\n- [ ] One\n"})
    request = PackRequest(project=str(tmp_path / "-dash"), now=NOW.isoformat())
    line = pack_command(request, "ctx-0.8.1", 4000, "md")
    assert line is not None
    assert main(["pack", str(tmp_path / "-dash"), "--budget", "4000", "--now", NOW.isoformat()]) == 0
    expected = capsys.readouterr().out
    assert run_line(line, capsys) == expected


def test_option_values_starting_with_a_dash_reproduce(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write_context(tmp_path / "proj", {"TASKS.md": "# Tasks\n\n- [ ] One\n"})
    request = PackRequest(project="proj", now=NOW.isoformat(), root_path="-root", context_dir="-ctx")
    line = pack_command(request, "ctx-0.8.1", 4000, "md")
    assert line is not None
    words = shlex.split(line)
    from ctxtui.cli.parser import build_parser

    parsed = build_parser().parse_args(words[1:])
    assert parsed.root_path == "-root" and parsed.context_dir == "-ctx"
