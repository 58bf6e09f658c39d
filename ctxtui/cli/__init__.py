"""Command line: the TUI by default, and headless `pack`, `explain`, `sweep`, `memory`, `demo`.

The headless commands never import Textual or Rich: scripts and CI get the
engine's answers at engine speed. Every expected failure is one line on
stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from ctxtui.cli.common import UsageError, add_source_args
from ctxtui.engine.packers.registry import CTX_PACKERS
from ctxtui.safe_text import clean_line

SUBCOMMANDS = ("pack", "explain", "sweep", "coverage", "diff", "check", "tune", "memory", "demo")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctxtui", description="Inspect and tune ctx context packets.")
    sub = parser.add_subparsers(dest="command")

    pack = sub.add_parser("pack", help="print the packet, byte-identical to `ctx agent`")
    pack.add_argument("project", nargs="?", default=".", help="directory holding .context/ (default: .)")
    add_source_args(pack)
    pack.add_argument("--format", choices=("md", "json"), default="md")
    pack.add_argument("-o", "--output", help="write to FILE instead of stdout")

    explain = sub.add_parser("explain", help="why an entry got its fate, with numbers and thresholds")
    explain.add_argument("args", nargs="*", metavar="[PROJECT] QUERY", help="title substring, key or file:line")
    add_source_args(explain)
    explain.add_argument("--format", choices=("text", "json"), default="text")
    explain.add_argument("--all", action="store_true", help="every candidate (with --format json: key, title, section, "
                                                            "source, fate, reason, numbers, thresholds)")
    explain.add_argument("--max-seconds", type=float, default=10.0,
                         help="bound on the threshold scan; past it, thresholds say how far they looked (default 10)")

    check = sub.add_parser("check", help="for CI: exit 1 when the rendered packet is over --max-tokens")
    check.add_argument("project", nargs="?", default=".")
    add_source_args(check)
    check.add_argument("--max-tokens", type=int, required=True, help="the most the rendered packet may cost")
    check.add_argument("--format", choices=("md", "json"), default="md", help="which rendering to count")

    sweep = sub.add_parser("sweep", help="tokens used and fates over a range of budgets")
    sweep.add_argument("project", nargs="?", default=".")
    sweep.add_argument("--from", dest="start", type=int, default=0)
    sweep.add_argument("--to", dest="stop", type=int, default=16000)
    sweep.add_argument("--step", type=int, default=1000)
    sweep.add_argument("--format", choices=("table", "json"), default="table")
    sweep.add_argument("--by-section", action="store_true", help="also count fates per section")
    add_source_args(sweep)

    cover = sub.add_parser("coverage", help="per section: what is in now, what can be in full, which budget buys what")
    cover.add_argument("project", nargs="?", default=".")
    add_source_args(cover)
    cover.add_argument("--format", choices=("text", "json"), default="text")
    cover.add_argument("--verbose", "-v", action="store_true", help="list every entry that is never in full, and why")
    cover.add_argument("--max-seconds", type=float, default=30.0,
                       help="stop scanning budgets after this long and say how far it looked (default 30)")

    diff = sub.add_parser("diff", help="which entries change fate between two budgets, settings or packers")
    diff.add_argument("project", nargs="?", default=".")
    add_source_args(diff)
    diff.add_argument("--against", type=int, metavar="BUDGET", help="the budget to compare against (default: the same)")
    diff.add_argument("--against-set", action="append", default=[], metavar="KEY=VALUE", dest="against_settings",
                      help="settings of the state compared against, on top of --set (repeatable)")
    diff.add_argument("--against-packer", choices=CTX_PACKERS, help="the packer compared against (default: the same)")
    diff.add_argument("--format", choices=("text", "json"), default="text")

    tune = sub.add_parser("tune", help="save settings to .ctxrc: shows the change, writes it with --write")
    tune.add_argument("project", nargs="?", default=".", help="directory holding .ctxrc and .context/ (default: .)")
    tune.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="settings",
                      help="a setting to save (repeatable): token_budget, task_budget_pct, convention_budget_pct, tool")
    tune.add_argument("--packer", choices=CTX_PACKERS, help="whose settings (default: the ctx on PATH, else ctx-0.8.1)")
    tune.add_argument("--write", action="store_true", help="write the change (atomically; previous file kept as .ctxrc.bak)")

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

    demo = sub.add_parser("demo", help="open the TUI on a built-in demo workspace")
    demo.add_argument("--theme")
    demo.add_argument("--budget", type=int)
    return parser


def build_tui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctxtui", description="Inspect and tune ctx context packets (TUI).",
                                     epilog=f"headless commands: {', '.join(SUBCOMMANDS)} (ctxtui COMMAND --help)")
    parser.add_argument("project", nargs="?", default=".", help="directory holding .context/ (default: .)")
    parser.add_argument("--budget", type=int)
    parser.add_argument("--db", help="memory database to join")
    parser.add_argument("--project", dest="db_project", help="only memories of this project")
    parser.add_argument("--theme", help="theme name (built-in or from the config directory)")
    parser.add_argument("--now", help="pin the clock, ISO 8601")
    return parser


def build_tui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctxtui", description="Inspect and tune ctx context packets (TUI).",
                                     epilog=f"headless commands: {', '.join(SUBCOMMANDS)} (ctxtui COMMAND --help)")
    parser.add_argument("project", nargs="?", default=".", help="directory holding .context/ (default: .)")
    parser.add_argument("--budget", type=int)
    parser.add_argument("--db", help="memory database to join")
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
    if args.command == "check":
        from ctxtui.cli import check

        return check.run(args)
    if args.command == "coverage":
        from ctxtui.cli import coverage

        return coverage.run(args)
    if args.command == "diff":
        from ctxtui.cli import diff

        return diff.run(args)
    if args.command == "tune":
        from ctxtui.cli import tune

        return tune.run(args)
    if args.command == "memory":
        from ctxtui.cli import memory

        return memory.run(args)
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
