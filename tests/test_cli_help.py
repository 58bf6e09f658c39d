"""Every option of every command has a help text, and one with a default value names it (issue 12, part 7)."""

from __future__ import annotations

import argparse

from ctxtui.cli.parser import build_parser, build_tui_parser

NO_DEFAULT = (None, False, argparse.SUPPRESS, [], ())


def options(parser: argparse.ArgumentParser, name: str):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                yield from options(subparser, f"{name} {sub}")
        elif not isinstance(action, argparse._HelpAction | argparse._VersionAction):
            yield name, action


def test_every_option_is_described_with_its_default():
    missing = []
    for name, action in [*options(build_parser(), "ctxtui"), *options(build_tui_parser(), "ctxtui")]:
        label = f"{name} {'/'.join(action.option_strings) or action.dest}"
        if action.help == argparse.SUPPRESS:
            continue  # hidden on purpose (e.g. sweep's --budget, refused with a message)
        if not action.help:
            missing.append(f"{label}: no help")
        elif action.default not in NO_DEFAULT and "default" not in action.help.lower():
            missing.append(f"{label}: default {action.default!r} not said")
    assert not missing, missing
