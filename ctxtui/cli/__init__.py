"""Command line: the TUI by default, and the headless commands (`ctxtui --help` lists them).

The headless commands never import Textual or Rich: scripts and CI get the
engine's answers at engine speed. Every expected failure is one line on
stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ctxtui.cli.commands import SUBCOMMANDS
from ctxtui.cli.failures import PASSWORD_IN_ARGV, Refused, ToolAnswered, UsageError, hide_secrets, note_secrets
from ctxtui.safe_text import clean_for_terminal, clean_line

if TYPE_CHECKING:
    import argparse

__all__ = ["SUBCOMMANDS", "dispatch", "main"]


def dispatch(args: argparse.Namespace) -> int:
    """Run one parsed headless command; each module is imported only when its command runs."""
    if args.command == "pack":
        from ctxtui.cli import pack

        return pack.run(args)
    if args.command == "explain":
        from ctxtui.cli import explain

        return explain.run(args)
    if args.command == "sweep":
        from ctxtui.cli import sweep

        return sweep.run(args)
    if args.command == "check":
        from ctxtui.cli import check

        return check.run(args)
    if args.command == "coverage":
        from ctxtui.cli import coverage

        return coverage.run(args)
    if args.command == "diff":
        from ctxtui.cli import diff

        return diff.run(args)
    if args.command == "log":
        from ctxtui.cli import log

        return log.run(args)
    if args.command == "turns":
        from ctxtui.cli import turns

        return turns.run(args)
    if args.command == "tune":
        from ctxtui.cli import tune

        return tune.run(args)
    if args.command == "memory":
        from ctxtui.cli import memory

        return memory.run(args)
    from ctxtui.cli import tui

    return tui.run(args, demo=True)


def stderr_is_read() -> bool:
    """stderr goes to a terminal, where a person reads it (not a pipe or a file a script compares)."""
    return sys.stderr.isatty()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if note_secrets(argv):
        print(f"ctxtui: notice: {PASSWORD_IN_ARGV}", file=sys.stderr)
    try:
        if argv[:1] == ["pack"]:
            from ctxtui.cli.pack_args import pack_args

            plain = pack_args(argv)  # the usual command line, without argparse's cost
            if plain is not None:
                from ctxtui.cli import pack

                return pack.run(plain)
        from ctxtui.cli.parser import build_tui_parser, parse_command

        if argv and argv[0] in SUBCOMMANDS:
            return dispatch(parse_command(argv))  # one command's options, anywhere among its positionals
        from ctxtui.cli import tui

        return tui.run(build_tui_parser().parse_intermixed_args(argv))
    except Refused as exc:  # ctx would print this instead of a packet: so do we, exactly
        sys.stdout.write(exc.refusal.stdout)
        sys.stdout.flush()
        sys.stderr.write(clean_for_terminal(exc.refusal.stderr) if sys.stderr.isatty() else exc.refusal.stderr)
        if exc.hint and stderr_is_read():
            # After ctx's words, for the person reading them; a pipe or a file (scripts, CI, the recorded
            # runs' comparisons) gets ctx's stderr byte for byte.
            print(f"ctxtui: hint: {clean_line(exc.hint)}", file=sys.stderr)
        return exc.refusal.exit_code
    except ToolAnswered as exc:  # the tool's own error (Shabka's MCP tool): printed as the client receives it
        sys.stderr.write(exc.output)
        return exc.status
    except UsageError as exc:
        print(f"ctxtui: {clean_line(hide_secrets(str(exc)))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
