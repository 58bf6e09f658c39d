"""Every command's options, described with their defaults: what `--help` shows.

One place builds the parsers, so each option is named and explained once;
the commands themselves (`pack.py`, `explain.py`...) only run.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ctxtui.cli.commands import COMMANDS, TOKENIZERS
from ctxtui.cli.common import add_source_args
from ctxtui.cli.failures import UsageError
from ctxtui.engine.packers.registry import CTX_PACKERS

PROJECT_HELP = "the directory holding .context/ (default: the current directory)"
DEFAULT_DB = ".context/memory.db"


class VersionAction(argparse.Action):
    """`--version`: the installed version, looked up only when asked (start-up stays cheap)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(
            option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print ctxtui's version and exit"
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("ctxtui")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        print(f"ctxtui {number}")
        parser.exit()


class NoBudget(argparse.Action):
    """sweep walks its own range of budgets: a --budget there is a mistake worth saying so."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        raise UsageError("sweep takes a range of budgets (--from, --to, --step), not --budget")


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(prog, max_help_position=32, width=110)


def _pack(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    pack = command("pack")
    pack.add_argument("project", nargs="?", default=".", help=PROJECT_HELP)
    add_source_args(pack)
    pack.add_argument(
        "--format",
        default="md",
        metavar="md|json",
        help="Markdown or JSON; as ctx, anything but json means Markdown (default: md)",
    )
    pack.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (atomically; never inside .context/) instead of stdout"
    )


def _explain(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    explain = command("explain")
    explain.add_argument(
        "args",
        nargs="*",
        metavar="[PROJECT] QUERY",
        help="the project (default: .) and the entry: a title substring, its key, or file:line such as TASKS.md:12",
    )
    add_source_args(explain)
    explain.add_argument("--format", choices=("text", "json"), default="text", help="(default: text)")
    explain.add_argument(
        "--all",
        action="store_true",
        help="every candidate; with --format json: key, title, section, source, fate, reason, numbers, thresholds",
    )
    from ctxtui.cli.revision import add_history_arg

    add_history_arg(explain)
    explain.add_argument(
        "--max-seconds",
        type=float,
        default=10.0,
        metavar="S",
        help="bound on the whole command (the threshold scan and the advice search; with --all the listing too); "
        "past it, the output says how far it got (default: 10)",
    )


def _sweep(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    sweep = command("sweep")
    sweep.add_argument("project", nargs="?", default=".", help=PROJECT_HELP)
    sweep.add_argument("--from", dest="start", type=int, default=0, metavar="A", help="first budget (default: 0)")
    sweep.add_argument("--to", dest="stop", type=int, default=16000, metavar="B", help="last budget (default: 16000)")
    sweep.add_argument("--step", type=int, default=1000, metavar="S", help="budget step (default: 1000)")
    sweep.add_argument("--format", choices=("table", "json"), default="table", help="(default: table)")
    sweep.add_argument("--by-section", action="store_true", help="also count fates per section")
    sweep.add_argument(
        "--max-seconds",
        type=float,
        default=10.0,
        metavar="S",
        help="stop after this long and say which budgets were not examined (default: 10)",
    )
    add_source_args(sweep, budget=False)
    sweep.add_argument("--budget", action=NoBudget, help=argparse.SUPPRESS)


def _coverage(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    cover = command("coverage")
    cover.add_argument("project", nargs="?", default=".", help=PROJECT_HELP)
    add_source_args(cover)
    cover.add_argument("--format", choices=("text", "json"), default="text", help="(default: text)")
    cover.add_argument("--verbose", "-v", action="store_true", help="list every entry that is never in full, and why")
    cover.add_argument(
        "--max-seconds",
        type=float,
        default=10.0,
        metavar="S",
        help="stop scanning budgets after this long and say how far it looked (default: 10)",
    )


def _diff(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    diff = command("diff")
    diff.add_argument("project", nargs="?", default=".", help=PROJECT_HELP)
    add_source_args(diff)
    diff.add_argument(
        "--against", type=int, metavar="BUDGET", help="the budget to compare against (default: the same budget)"
    )
    diff.add_argument(
        "--against-set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="against_settings",
        help="settings of the state compared against, on top of --set (repeatable)",
    )
    diff.add_argument(
        "--against-packer",
        choices=CTX_PACKERS,
        metavar="NAME",
        help="the packer compared against (default: the same packer)",
    )
    from ctxtui.cli.revision import add_against_rev_arg

    add_against_rev_arg(diff)
    diff.add_argument("--format", choices=("text", "json", "md"), default="text", help="(default: text)")


def _check(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    check = command("check")
    check.add_argument("project", nargs="?", default=".", help=PROJECT_HELP)
    add_source_args(check, tokenizer=False)
    check.add_argument("--max-tokens", type=int, required=True, metavar="N", help="the most the packet may cost")
    check.add_argument(
        "--tokenizer",
        choices=TOKENIZERS,
        default="ctx",
        help="what counts the rendered packet: ctx's estimate or a real vocabulary (default: ctx)",
    )
    check.add_argument("--format", choices=("md", "json"), default="md", help="which rendering to count (default: md)")


def _log(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    from ctxtui.cli.revision import add_log_args

    log = command("log")
    log.add_argument("project", nargs="?", default=".", help=PROJECT_HELP)
    add_source_args(log)
    add_log_args(log)


def _tune(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    tune = command("tune")
    tune.add_argument("project", nargs="?", default=".", help="the directory holding .ctxrc (default: .)")
    tune.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="settings",
        help="a setting to save (repeatable): token_budget, task_budget_pct, convention_budget_pct, tool",
    )
    tune.add_argument(
        "--packer",
        choices=CTX_PACKERS,
        metavar="NAME",
        help="whose settings: ctx-0.8.1, ctx-0.8.0 or ctx-mcp (default: the ctx on PATH, else 0.8.1)",
    )
    tune.add_argument(
        "--write",
        action="store_true",
        help="write the change (atomically; through a linked .ctxrc to its target, the link kept; the previous "
        "content is kept in .ctxrc.bak, never over a file ctxtui did not write)",
    )


def _turns(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    turns = sub.add_parser(
        "turns",
        help=COMMANDS["turns"],
        formatter_class=_formatter,
        description="List a nous agent's logged turns, or show one with every section's budget "
        "and every logged candidate's fate. nous leaves trace_id NULL (retrieval_log "
        "keeps it reserved), so a turn is its context_log and retrieval_log rows "
        "joined on (agent, session, turn number).",
    )
    turns.add_argument(
        "--db", required=True, metavar="URL", help="the nous database: postgresql://USER@HOST/DB (any libpq URL)"
    )
    turns.add_argument("--agent", help="the agent id (default: nous-default, or the only agent in the database)")
    turns.add_argument(
        "--turn",
        metavar="KEY",
        help="show this turn: its retrieval_log id (the KEY column), a context_log id, or SESSION#TURN",
    )
    turns.add_argument("--limit", type=int, default=50, help="how many turns to list, newest first (default: 50)")
    turns.add_argument(
        "--frame", help="with --turn: rebuild with this frame's section budgets instead of the logged one"
    )
    turns.add_argument(
        "--budget", type=int, help="with --turn: the sum of the four memory sections' budgets (default: the turn's own)"
    )
    turns.add_argument("--format", choices=("text", "json"), default="text", help="(default: text)")


def _memory(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    from ctxtui.engine.sources.memory.shared.records import KINDS  # here: `pack` builds only its own options

    memory = command("memory")
    memory_sub = memory.add_subparsers(dest="memory_command", required=True, metavar="init|add|import")
    db_help = f"the database to write (default: PROJECT/{DEFAULT_DB})"
    project_help = "the directory holding .context/, whose memory.db is written (default: the current directory)"
    init = memory_sub.add_parser("init", help="create an empty ctxtui memory database", formatter_class=_formatter)
    init.add_argument("project", nargs="?", default=".", help=project_help)
    init.add_argument("--db", help=db_help)
    add = memory_sub.add_parser("add", help="add one memory", formatter_class=_formatter)
    add.add_argument("project", nargs="?", default=".", help=project_help)
    add.add_argument("--db", help=db_help)
    add.add_argument(
        "--kind",
        default="fact",
        choices=KINDS,
        metavar="KIND",
        help=f"one of {', '.join(KINDS)}; decision joins Recent Decisions, learning/lesson/fix/error/"
        "gotcha join Key Learnings, the rest form a Memories section (default: fact)",
    )
    add.add_argument("--title", required=True, help="one line, shown in the packet's entry header")
    add.add_argument("--body", default="", help="the text under the title (default: empty)")
    add.add_argument(
        "--importance",
        type=float,
        default=0.5,
        metavar="0..1",
        help="how much it matters; scales its score by 0.5 + importance (default: 0.5)",
    )
    add.add_argument("--tags", default="", help="comma-separated tags (default: none)")
    add.add_argument("--project", dest="mem_project", help="the project it belongs to (default: none)")
    imp = memory_sub.add_parser(
        "import", help="copy a Shabka or Cortex database's memories into ctxtui's own", formatter_class=_formatter
    )
    imp.add_argument("file", help="the Shabka or Cortex database to read (never written)")
    imp.add_argument("project", nargs="?", default=".", help=project_help)
    imp.add_argument("--db", help=db_help)


def _demo(sub: Any, command: Callable[[str], argparse.ArgumentParser]) -> None:
    demo = command("demo")
    demo.add_argument("--theme", help="theme name (default: the config file's, else ctxtui-dark)")
    demo.add_argument("--budget", type=int, help="the starting budget (default: the demo's .ctxrc, else 8000)")


_BUILDERS: dict[str, Callable[[Any, Callable[[str], argparse.ArgumentParser]], None]] = {
    "pack": _pack,
    "explain": _explain,
    "sweep": _sweep,
    "coverage": _coverage,
    "diff": _diff,
    "check": _check,
    "log": _log,
    "tune": _tune,
    "turns": _turns,
    "memory": _memory,
    "demo": _demo,
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; `only`: of that command alone (what running it needs, built faster).

    Building all ten commands' options costs a cold `ctxtui pack` several
    milliseconds; parsing `ctxtui pack ...` with only `pack` added gives the
    same result, usage text and errors (a subcommand's `prog` is the same).
    """
    parser = argparse.ArgumentParser(
        prog="ctxtui",
        description="See, explain and tune the context packets coding "
        "agents receive. Without a command: the TUI (ctxtui [PROJECT]).",
        formatter_class=_formatter,
    )
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=COMMANDS[name], description=COMMANDS[name], formatter_class=_formatter)

    for name, add in _BUILDERS.items():
        if only is None or name == only:
            add(sub, command)
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """A parser's subcommands by name (argparse keeps them in its one subparsers action)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def parse_command(argv: list[str]) -> argparse.Namespace:
    """`ctxtui COMMAND ...` parsed with options anywhere among the positionals.

    `ctxtui explain p --budget 4000 Exploratory` reads as `explain p Exploratory --budget 4000`:
    argparse's `parse_intermixed_args`, on the command's own parser (it cannot take the top
    parser, whose subcommands are a positional of their own). Usage and errors name the
    command (`usage: ctxtui explain ...`), as before.
    """
    name, rest = argv[0], argv[1:]
    command = _subcommands(build_parser(only=name))[name]
    inner = _subcommands(command)  # memory: init, add, import
    if inner:
        if rest and rest[0] in inner:
            args = inner[rest[0]].parse_intermixed_args(rest[1:])
            args.memory_command = rest[0]
        else:
            args = command.parse_args(rest)  # help, or a missing or unknown subcommand: argparse's own words
    else:
        args = command.parse_intermixed_args(rest)
    args.command = name
    return args


def build_tui_parser() -> argparse.ArgumentParser:
    lines = [f"  {name:<9} {text}" for name, text in COMMANDS.items()]
    parser = argparse.ArgumentParser(
        prog="ctxtui",
        description="See, explain and tune the context packets coding "
        "agents receive: the TUI on PROJECT, or a headless command.",
        epilog="commands (ctxtui COMMAND --help for each):\n" + "\n".join(lines),
        formatter_class=lambda prog: argparse.RawDescriptionHelpFormatter(prog, max_help_position=32, width=110),
    )
    parser.add_argument("--version", action=VersionAction)
    parser.add_argument("project", nargs="?", default=".", help=PROJECT_HELP)
    parser.add_argument(
        "--budget",
        metavar="N",
        help="the starting budget (default: $CTX_TOKEN_BUDGET, .ctxrc token_budget, 8000; shabka and cortex: "
        "2000; nous: the turn's own)",
    )
    add_source_args(parser, budget=False, tokenizer=False)
    parser.add_argument("--theme", help="theme name, built-in or from the config folder (default: ctxtui-dark)")
    return parser
