"""Command line: the TUI by default, and headless `pack`, `explain`, `sweep`, `memory`.

The headless commands never import Textual or Rich: scripts and CI get the
engine's answers at engine speed. Every expected failure is one line on
stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime
from pathlib import Path

from ctxtui.engine.config import resolve_budget
from ctxtui.safe_text import active_controls, clean_for_terminal, clean_line

SUBCOMMANDS = ("pack", "explain", "sweep", "memory", "demo")
TOKENIZERS = ("ctx", "o200k_base", "cl100k_base")


class UsageError(Exception):
    """A failure the user can fix; printed as one line, exit status 2."""


def parse_now(text: str | None) -> datetime:
    """--now as ISO 8601 (a bare date-time is taken as UTC); default: the local clock."""
    if text is None:
        return datetime.now().astimezone()
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--now: not an ISO 8601 date-time: {text!r}") from None
    if value.tzinfo is None:
        from datetime import timezone

        value = value.replace(tzinfo=timezone.utc)
    return value


def _add_source_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--budget", type=int, help="token budget (default: $CTX_TOKEN_BUDGET, .ctxrc, 8000)")
    parser.add_argument("--now", help="pin the clock, ISO 8601 (e.g. 2026-11-21T23:56:08Z)")
    parser.add_argument("--root-path", help="project path printed under 'Read These Files'")
    parser.add_argument("--tokenizer", choices=TOKENIZERS, default="ctx", help="tokenizer used for budgeting")
    parser.add_argument("--db", help="memory database to join (ctxtui, Shabka or Cortex)")
    parser.add_argument("--project", dest="db_project", help="only memories of this project (where the store has one)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctxtui", description="Inspect and tune ctx context packets.")
    sub = parser.add_subparsers(dest="command")

    pack = sub.add_parser("pack", help="print the packet, byte-identical to `ctx agent`")
    pack.add_argument("project", nargs="?", default=".", help="directory holding .context/ (default: .)")
    _add_source_args(pack)
    pack.add_argument("--format", choices=("md", "json"), default="md")
    pack.add_argument("-o", "--output", help="write to FILE instead of stdout")

    explain = sub.add_parser("explain", help="why an entry got its fate, with numbers and thresholds")
    explain.add_argument("args", nargs="+", metavar="[PROJECT] QUERY", help="title substring, key or file:line")
    _add_source_args(explain)
    explain.add_argument("--format", choices=("text", "json"), default="text")

    sweep = sub.add_parser("sweep", help="tokens used and fates over a range of budgets")
    sweep.add_argument("project", nargs="?", default=".")
    sweep.add_argument("--from", dest="start", type=int, default=0)
    sweep.add_argument("--to", dest="stop", type=int, default=16000)
    sweep.add_argument("--step", type=int, default=1000)
    sweep.add_argument("--format", choices=("table", "json"), default="table")
    _add_source_args(sweep)

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


def load_engine(project: str, args):
    """Workspace + memories + engine for the headless commands."""
    from ctxtui.engine.reader import ContextMissing
    from ctxtui.engine.workspace import load_workspace

    try:
        workspace = load_workspace(project)
    except ContextMissing as exc:
        raise UsageError(str(exc)) from None
    if getattr(args, "db", None):
        from ctxtui.engine.memory_join import attach_memories

        attach_memories(workspace, Path(args.db), project=args.db_project, now=parse_now(args.now))
    for problem in [*workspace.problems, *resolve_budget(args.budget, os.environ, workspace.config)[2]]:
        print(f"ctxtui: warning: {clean_line(str(problem))}", file=sys.stderr)
    budget = resolve_budget(args.budget, os.environ, workspace.config)[0]
    count = None
    if args.tokenizer != "ctx":
        from ctxtui.engine.tokenizers import TokenizerUnavailable, get_tokenizer

        try:
            count = get_tokenizer(args.tokenizer).count
        except TokenizerUnavailable as exc:
            raise UsageError(str(exc)) from None
    engine = workspace.engine(parse_now(args.now), args.root_path, count=count)
    return workspace, engine, budget


def cmd_pack(args) -> int:
    from ctxtui.engine.render import to_json, to_markdown

    workspace, engine, budget = load_engine(args.project, args)
    if args.output is not None:  # refused before any work: `-o ""` or `-o .context/TASKS.md` never get a packet
        from ctxtui.safe_write import WriteRefused, check_target

        try:
            check_target(args.output, context_dirs=[workspace.project / ".context"])
        except WriteRefused as exc:
            raise UsageError(f"-o {exc}") from None
    packet = engine.assemble(budget)
    text = to_json(packet) if args.format == "json" else to_markdown(packet)
    data = text.encode("utf-8", "surrogateescape")
    if args.output is not None:
        from ctxtui.safe_write import WriteRefused, write_atomically

        try:
            write_atomically(args.output, data, context_dirs=[workspace.project / ".context"])
        except WriteRefused as exc:
            raise UsageError(f"-o {exc}") from None
    else:
        write_packet_to_stdout(text, data)
    return 0


def write_packet_to_stdout(text: str, data: bytes) -> None:
    """The exact bytes to a pipe or file; to a terminal, control sequences made visible, with a warning.

    A packet can carry escape sequences from the user's files (an OSC 52 in a
    task line rewrites the clipboard when a terminal prints it). Pipes and
    files get the packet byte for byte; a terminal never executes them.
    """
    if sys.stdout.isatty() and (count := active_controls(text)):
        print(f"ctxtui: warning: the packet holds {count} terminal control character{'s' if count != 1 else ''} "
              "(ESC, BEL, ...): shown here as visible symbols such as ␛; redirect to a file or a pipe, "
              "or use -o FILE, for the exact bytes", file=sys.stderr)
        sys.stdout.write(clean_for_terminal(text))
        sys.stdout.flush()
        return
    sys.stdout.buffer.write(data)
    sys.stdout.flush()


def find_entries(packet, query: str):
    """Outcomes whose key or source equals QUERY, else whose title contains it (case-insensitive)."""
    exact = [o for o in packet.outcomes if query in (o.entry.key, o.entry.source)]
    if exact:
        return exact
    needle = query.casefold()
    return [o for o in packet.outcomes if needle in o.entry.title.casefold()]


def cmd_explain(args) -> int:
    from ctxtui.engine.explain import describe_threshold, thresholds

    if len(args.args) > 2:
        raise UsageError("explain takes [PROJECT] QUERY (quote a query with spaces)")
    project, query = (args.args if len(args.args) == 2 else [".", args.args[0]])
    _, engine, budget = load_engine(project, args)
    packet = engine.assemble(budget)
    matches = find_entries(packet, query)
    if not matches:
        print(f"ctxtui: no entry matches {query!r} (try a shorter title substring)", file=sys.stderr)
        return 1
    if len(matches) > 1:
        print(f"ctxtui: {len(matches)} entries match {query!r}; be more specific or pass one key:", file=sys.stderr)
        for outcome in matches[:20]:
            print(f"  {clean_line(outcome.entry.source)}  [{outcome.entry.section}] {clean_line(outcome.entry.title)[:70]}",
                  file=sys.stderr)
        if len(matches) > 20:
            print(f"  … and {len(matches) - 20} more", file=sys.stderr)
        return 1
    outcome = matches[0]
    threshold = thresholds(engine).get(outcome.entry.key)
    if args.format == "json":
        # ASCII escapes: valid JSON even when the inputs held invalid UTF-8 (lone surrogates).
        print(json.dumps(outcome_json(outcome, threshold, budget), indent=2, ensure_ascii=True))
        return 0
    entry = outcome.entry
    lines = [
        f"{clean_line(entry.title)}",
        f"  where:   {clean_line(entry.source)}",
        f"  section: {entry.section} (tier {outcome.tier}), {entry.tokens:,} tokens",
        f"  fate:    {outcome.fate.value} at budget {budget:,} ({outcome.reason.value})",
        f"  why:     {clean_line(outcome.explanation)}",
    ]
    if outcome.score is not None:
        s = outcome.score
        age = "unparsable date" if s.age_days is None else f"{s.age_days} days"
        lines.append(f"  score:   {s.total:.3f} = recency {s.recency} ({age}) + relevance {s.relevance:.3f}"
                     + (f" × weight (importance {s.importance}, usage {s.usage})" if s.importance is not None else "")
                     + f"; rank {s.rank}" + (" — superseded" if s.superseded else ""))
        lines.append(f"  matched: {clean_line(', '.join(s.matched_keywords)) or '(no task keyword)'}")
    if threshold is not None:
        lines.append(f"  budgets: {describe_threshold(threshold)}")
    print("\n".join(lines))
    return 0


def outcome_json(outcome, threshold, budget) -> dict:
    entry = outcome.entry
    data = {
        "key": entry.key, "title": entry.title, "section": entry.section, "source": entry.source,
        "tier": outcome.tier, "tokens": entry.tokens, "budget": budget, "fate": outcome.fate.value,
        "reason": outcome.reason.value, "explanation": outcome.explanation, "numbers": outcome.numbers,
        "blocked_by": outcome.blocked_by,
    }
    if outcome.score is not None:
        s = outcome.score
        data["score"] = {"total": s.total, "recency": s.recency, "age_days": s.age_days, "relevance": s.relevance,
                         "matched_keywords": list(s.matched_keywords), "superseded": s.superseded, "rank": s.rank,
                         "importance": s.importance, "usage": s.usage}
    if threshold is not None:
        data["thresholds"] = {"full_at": threshold.full_at, "any_at": threshold.any_at,
                              "monotone": threshold.monotone,
                              "full_ranges": threshold.full_ranges, "any_ranges": threshold.any_ranges}
    return data


def cmd_sweep(args) -> int:
    from ctxtui.engine.explain import sweep

    if args.step <= 0:
        raise UsageError("--step must be positive")
    if args.stop < args.start:
        raise UsageError("--to must not be below --from")
    _, engine, _ = load_engine(args.project, args)
    rows = sweep(engine, range(args.start, args.stop + 1, args.step))
    if args.format == "json":
        print(json.dumps([row.__dict__ if hasattr(row, "__dict__") else
                          {f: getattr(row, f) for f in row.__slots__} for row in rows], indent=2))
        return 0
    print(f"{'budget':>9} {'used':>9} {'included':>9} {'summarized':>11} {'dropped':>8}")
    for row in rows:
        print(f"{row.budget:>9,} {row.tokens_used:>9,} {row.included:>9} {row.summarized:>11} {row.dropped:>8}")
    return 0


def cmd_memory(args) -> int:
    """The only commands that write, and only to the database named by --db."""
    from datetime import timezone

    from ctxtui.engine.memory import MemorySourceError, schema
    from ctxtui.safe_write import WriteRefused, check_target

    try:
        check_target(args.db, database=True)
    except WriteRefused as exc:
        raise UsageError(f"--db {exc}") from None
    try:
        if args.memory_command == "init":
            schema.init_db(Path(args.db))
            print(f"created {args.db}")
        elif args.memory_command == "add":
            memory_id = schema.add_memory(
                Path(args.db), kind=args.kind, title=args.title, body=args.body, importance=args.importance,
                tags=[t.strip() for t in args.tags.split(",") if t.strip()], project=args.mem_project,
                created_at=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            )
            print(f"added {memory_id} to {args.db}")
        else:
            report = schema.import_db(Path(args.db), Path(args.file))
            for problem in report.problems:
                print(f"ctxtui: warning: {clean_line(str(problem))}", file=sys.stderr)
            print(f"imported {report.imported} memories from {args.file} into {args.db}")
    except (MemorySourceError, OSError, ValueError) as exc:
        raise UsageError(f"{args.db if args.memory_command != 'import' else args.file}: {exc}") from None
    return 0


def run_tui(args, demo: bool = False) -> int:
    from ctxtui.app import run_app

    return run_app(args, demo=demo)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] in SUBCOMMANDS:
            args = build_parser().parse_args(argv)
            handler = {"pack": cmd_pack, "explain": cmd_explain, "sweep": cmd_sweep, "memory": cmd_memory}.get(args.command)
            if handler is None:
                return run_tui(args, demo=True)
            return handler(args)
        return run_tui(build_tui_parser().parse_args(argv))
    except UsageError as exc:
        print(f"ctxtui: {clean_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
