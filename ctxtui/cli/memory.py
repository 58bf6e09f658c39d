"""`ctxtui memory init|add|import [PROJECT]`: the only commands that write, and only to one database:
`--db`, else PROJECT's `.context/memory.db` (PROJECT: the current directory unless given, as elsewhere)."""

from __future__ import annotations

import argparse
import os
from datetime import UTC, datetime
from pathlib import Path

from ctxtui.cli.failures import UsageError, warn


def run(args: argparse.Namespace) -> int:
    from ctxtui.engine.sources.memory import MemorySourceError, import_db
    from ctxtui.engine.sources.memory.native import schema
    from ctxtui.opening.request import PackRequest
    from ctxtui.opening.sources import source_paths
    from ctxtui.safe_write import WriteRefused, check_target

    project = Path(args.project)
    if args.db is None:
        if not project.is_dir():
            raise UsageError(f"{args.project}: {'not a folder' if project.exists() else 'no such folder'}")
        args.db = str(project / ".context" / "memory.db")
    # What the project's packers read (`.ctxrc`, the context and steering folders) is never a database target.
    sources = source_paths(PackRequest(project=str(project))) if project.is_dir() else []
    try:
        check_target(args.db, database=True, sources=sources)
    except WriteRefused as exc:
        raise UsageError(f"--db {exc}") from None
    # `add` and `import` create a database that is not there yet: say so, so a typo in --db shows.
    created = "" if os.path.lexists(args.db) else f"created {args.db}; "
    try:
        if args.memory_command == "init":
            if schema.init_db(Path(args.db)):
                print(f"created {args.db}")
            else:
                print(f"{args.db} is already a ctxtui memory database: left as it is")
        elif args.memory_command == "add":
            memory_id = schema.add_memory(
                Path(args.db),
                kind=args.kind,
                title=args.title,
                body=args.body,
                importance=args.importance,
                tags=[t.strip() for t in args.tags.split(",") if t.strip()],
                project=args.mem_project,
                created_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            )
            print(f"{created}added {memory_id} to {args.db}")
        else:
            report = import_db(Path(args.db), Path(args.file))
            for problem in report.problems:
                warn(str(problem))
            print(f"{created}imported {report.imported} memories from {args.file} into {args.db}")
    except MemorySourceError as exc:
        raise UsageError(exc.line) from None  # the message names the file it is about: --db or the import source
    except ValueError as exc:
        raise UsageError(f"memory {args.memory_command}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"{args.db}: {exc.strerror or exc}") from None
    return 0
