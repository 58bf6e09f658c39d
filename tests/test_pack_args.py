"""`pack_args` reads a `pack` command line as argparse does, or hands it to argparse (None).

The property: on any command line, either `pack_args` gives None, or
argparse (the `pack` parser that `--help` describes) accepts the line and
gives the same namespace. Generated from every `pack` option, their `=`
forms, abbreviations, values that look like options, flags given values,
choices right and wrong, "--", "-h" and stray words.
"""

from __future__ import annotations

import argparse
import contextlib
import io

from ctxtui.cli.pack_args import FLAGS, REPEATED_OPTIONS, VALUE_OPTIONS, pack_args
from ctxtui.cli.parser import build_parser
from hypothesis import given, settings
from hypothesis import strategies as st

OPTIONS = [*VALUE_OPTIONS, *REPEATED_OPTIONS, *FLAGS]
VALUES = [
    "4000",
    "0x200",
    "-5",
    "",
    "json",
    "md",
    "ctx-0.8.1",
    "ctx-0.8.0",
    "shabka",
    "nope",
    "o200k_base",
    "2026-11-21T23:56:08Z",
    "a=b",
    "task_budget_pct=30",
    "proj",
    "-",
    "--",
    "x y",
    "--budget",
    "=",
    "ctx",
]
ODD = ["-h", "--help", "--version", "--bud", "--for", "-o=out", "--ignore-refusal=1", "--nope", "-x", "-ofile", "--"]


def _argparse(argv: list[str]) -> dict[str, object] | None:
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            return vars(build_parser(only="pack").parse_args(argv))
    except SystemExit:
        return None


word = st.one_of(
    st.sampled_from(OPTIONS),
    st.builds(lambda o, v: f"{o}={v}", st.sampled_from(OPTIONS), st.sampled_from(VALUES)),
    st.sampled_from(VALUES),
    st.sampled_from(ODD),
    st.text(max_size=6),
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(word, max_size=8))
def test_pack_args_agrees_with_argparse(words):
    argv = ["pack", *words]
    ours = pack_args(argv)
    if ours is not None:
        assert _argparse(argv) == vars(ours), argv


PLAIN_VALUES = {"--packer": "ctx-0.8.1", "--tokenizer": "o200k_base"}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*VALUE_OPTIONS, *REPEATED_OPTIONS, *FLAGS]), max_size=6),
    st.sampled_from([[], ["proj"]]),
    st.booleans(),
)
def test_plain_command_lines_need_no_argparse(options, project, joined):
    argv = ["pack", *project]
    for option in options:
        value = PLAIN_VALUES.get(option, "4000")
        if option in FLAGS:
            argv.append(option)
        elif joined and option.startswith("--"):
            argv.append(f"{option}={value}")
        else:
            argv += [option, value]
    parsed = pack_args(argv)
    assert parsed is not None, argv
    assert vars(parsed) == _argparse(argv), argv


def test_every_pack_option_is_known():
    parser = build_parser(only="pack")
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    declared = {s for a in sub.choices["pack"]._actions for s in a.option_strings} - {"-h", "--help"}
    assert declared == set(OPTIONS)


def test_the_usual_line():
    argv = ["pack", "--budget", "4000", "--now", "2026-11-21T23:56:08Z"]
    assert vars(pack_args(argv)) == _argparse(argv)
    assert pack_args(["pack", "--help"]) is None
