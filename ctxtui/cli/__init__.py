"""Command line: the TUI by default, and headless `pack`, `explain`, `sweep`, `memory`, `turns`, `demo`.

The headless commands never import Textual or Rich: scripts and CI get the
engine's answers at engine speed. Every expected failure is one line on
stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from ctxtui.cli.common import UsageError, add_source_args
from ctxtui.safe_text import clean_line

SUBCOMMANDS = ("pack", "explain", "sweep", "memory", "turns", "demo")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctxtui", description="Inspect and tune ctx context packets.")
    sub = parser.add_subparsers(dest="command")

    pack = sub.add_parser("pack", help="print the packet, byte-identical to `ctx agent`")
    pack.add_argument("project", nargs="?", default=".", help="directory holding .context/ (default: .)")
    add_source_args(pack)
    pack.add_argument("--format", choices=("md", "json"), default="md")
    pack.add_argument("-o", "--output", help="write to FILE instead of stdout")

    explain = sub.add_parser("explain", help="why an entry got its fate, with numbers and thresholds")
    explain.add_argument("args", nargs="+", metavar="[PROJECT] QUERY", help="title substring, key or file:line")
    add_source_args(explain)
    explain.add_argument("--format", choices=("text", "json"), default="text")

    sweep = sub.add_parser("sweep", help="tokens used and fates over a range of budgets")
    sweep.add_argument("project", nargs="?", default=".")
    sweep.add_argument("--from", dest="start", type=int, default=0)
    sweep.add_argument("--to", dest="stop", type=int, default=16000)
    sweep.add_argument("--step", type=int, default=1000)
    sweep.add_argument("--format", choices=("table", "json"), default="table")
    add_source_args(sweep)

    memory = sub.add_parser("memory", help="create or fill a ctxtui memory database (the only writing commands)")
    memory_sub = memory.add_subparsers(dest="memory_command", required=True)
    init = memory_sub.add_parser("init", help="create an empty ctxtui memory database")
    init.add_argument("--db", default=".context/memory.db")
    add = memory_sub.add_parser("add", help="add one memory")
    add.add_argument("--db", default=".context/memory.db")
    add.add_argument("--kind", default="fact")
    add.add_argument("--title", required=True)
    add.add_argument("--body", default="")
    add.add_argument("--importance", type=float, default=0.5)
    add.add_argument("--tags", default="", help="comma-separated")
    add.add_argument("--project", dest="mem_project")
    imp = memory_sub.add_parser("import", help="import a Shabka or Cortex database")
    imp.add_argument("file")
    imp.add_argument("--db", default=".context/memory.db")

    turns = sub.add_parser("turns", help="a nous agent's logged turns, or one turn in full (--turn)",
                           description="List a nous agent's logged turns, or show one with every section's budget "
                                       "and every logged candidate's fate. nous leaves trace_id NULL (retrieval_log "
                                       "keeps it reserved), so a turn is its context_log and retrieval_log rows "
                                       "joined on (agent, session, turn number).")
    turns.add_argument("--db", required=True, help="the nous database: postgresql://USER@HOST/DB (any libpq URL)")
    turns.add_argument("--agent", help="the agent id (default: nous-default, or the only agent in the database)")
    turns.add_argument("--turn", metavar="KEY",
                       help="show this turn: its retrieval_log id (the KEY column), a context_log id, or SESSION#TURN")
    turns.add_argument("--limit", type=int, default=50, help="how many turns to list, newest first (default 50)")
    turns.add_argument("--frame",
                       help="with --turn: rebuild with this frame's section budgets instead of the logged one")
    turns.add_argument("--budget", type=int,
                       help="with --turn: the sum of the four memory sections' budgets (default: the turn's own)")
    turns.add_argument("--format", choices=("text", "json"), default="text")

    demo = sub.add_parser("demo", help="open the TUI on a built-in demo workspace")
    demo.add_argument("--theme")
    demo.add_argument("--budget", type=int)
    return parser


def build_tui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctxtui", description="Inspect and tune ctx context packets (TUI).",
                                     epilog=f"headless commands: {', '.join(SUBCOMMANDS)} (ctxtui COMMAND --help)")
    parser.add_argument("project", nargs="?", default=".", help="directory holding .context/ (default: .)")
    parser.add_argument("--budget", type=int)
    parser.add_argument("--db", help="memory database to join (a file, or a nous postgresql:// URL)")
    parser.add_argument("--agent",
                        help="nous: the agent whose memories to join (default: nous-default, or the only one)")
    parser.add_argument("--project", dest="db_project", help="only memories of this project")
    parser.add_argument("--theme", help="theme name (built-in or from the config directory)")
    parser.add_argument("--now", help="pin the clock, ISO 8601")
    return parser


def build_tui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctxtui", description="Inspect and tune ctx context packets (TUI).",
                                     epilog=f"headless commands: {', '.join(SUBCOMMANDS)} (ctxtui COMMAND --help)")
    parser.add_argument("project", nargs="?", default=".", help="directory holding .context/ (default: .)")
    parser.add_argument("--budget", type=int)
    parser.add_argument("--db", help="memory database to join (a file, or a nous postgresql:// URL)")
    parser.add_argument("--agent",
                        help="nous: the agent whose memories to join (default: nous-default, or the only one)")
    parser.add_argument("--project", dest="db_project", help="only memories of this project")
    parser.add_argument("--theme", help="theme name (built-in or from the config directory)")
    parser.add_argument("--now", help="pin the clock, ISO 8601")
    return parser


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
    if args.command == "memory":
        from ctxtui.cli import memory

        return memory.run(args)
    if args.command == "turns":
        from ctxtui.cli import turns

        return turns.run(args)
    from ctxtui.cli import tui

    return tui.run(args, demo=True)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] in SUBCOMMANDS:
            return dispatch(build_parser().parse_args(argv))
        from ctxtui.cli import tui

        return tui.run(build_tui_parser().parse_args(argv))
    except UsageError as exc:
        print(f"ctxtui: {clean_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
