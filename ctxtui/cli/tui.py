"""Launching the TUI: `ctxtui [PROJECT]` and `ctxtui demo`. The CLI owns the launch; the TUI only runs."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from ctxtui.cli.common import UsageError, parse_now, request_from_args
from ctxtui.cli.failures import PASSWORD_IN_ARGV
from ctxtui.safe_text import clean_line


def run(args: argparse.Namespace, demo: bool = False) -> int:
    from ctxtui.cli.common import missing_db
    from ctxtui.cli.projects import missing_project, suggest_project
    from ctxtui.engine.packers.registry import PEER_PACKERS
    from ctxtui.engine.sources.memory.shared.urls import has_secret, is_db_url
    from ctxtui.opening.choose import Choice
    from ctxtui.opening.stores import PACKER_OF_STORE, store_kind
    from ctxtui.session import Session
    from ctxtui.tui.app import CtxtuiApp
    from ctxtui.tui.tour import DEMO_TOUR
    from ctxtui.user_config import read_user_config

    given = getattr(args, "project", None)
    if not demo and given and not getattr(args, "db", None) and (is_db_url(given) or Path(given).is_file()):
        # `ctxtui shabka.db` / `ctxtui postgresql://…`: a memory store alone, shown through its own packer.
        args.db, args.project = given, "."
    for problem in (None if demo else missing_project(args.project), missing_db(getattr(args, "db", None))):
        if problem is not None:
            raise UsageError(problem)
    db_url = args.db if is_db_url(getattr(args, "db", None)) else None  # nous: polled, not watched
    db = Path(args.db) if getattr(args, "db", None) and db_url is None else None
    if demo:
        from ctxtui.demo import demo_memory_db_path

        notes: list[str] = []
        project = write_demo_somewhere(datetime.now().astimezone(), notes)
        db = db or (demo_memory_db_path(project) if demo_memory_db_path(project).exists() else None)
        print(
            f"ctxtui demo: the workspace is {clean_line(str(project))} (written anew on each launch: "
            "edits there are lost; copy it to keep them)",
            file=sys.stderr,
        )
        for note in notes:
            print(f"ctxtui demo: {clean_line(note)}", file=sys.stderr)
    else:
        project = Path(args.project).absolute()
    budget = None
    if args.budget is not None:
        from ctxtui.opening.ctx import parse_budget
        from ctxtui.opening.request import Refused

        try:
            budget = parse_budget(args.budget, "ctx-0.8.1")  # 0x200, 1_000... as ctx's pflag reads them
        except Refused:
            raise UsageError(f"--budget: not a whole number: {args.budget!r}") from None
    options = request_from_args(str(project), args).but(budget=None)
    choice = None
    rev = getattr(args, "rev", None)
    if not demo and rev is None and not (project / ".context").is_dir() and options.packer not in PEER_PACKERS:
        # No .context/: a memory store can still be shown through its own tool's packer.
        own = PACKER_OF_STORE.get(store_kind(db_url or db) or "") if (db_url or db) else None
        if own is None:
            hint = suggest_project(args.project) or "try `ctxtui demo`"
            raise UsageError(f"no .context/ directory in {project} ({hint})")
        options = options.but(packer=own)
        choice = Choice(own, f"the {store_kind(db_url or db)} store's own packer")
    fixed_now = getattr(args, "now", None)
    if fixed_now:
        parse_now(fixed_now)  # a bad --now is a usage error before the screen opens
    clock = (lambda: parse_now(fixed_now)) if fixed_now else (lambda: datetime.now().astimezone())
    config = read_user_config()
    past = None
    if rev is not None:  # the TUI opens on the packet at REV (read-only; `H` goes to the working tree)
        from ctxtui.session.past import Past

        past = Past(str(project))
        past.choose(rev)
    session = Session(
        project=project,
        db=db,
        db_project=getattr(args, "db_project", None),
        clock=clock,
        db_url=db_url,
        db_agent=getattr(args, "agent", None),
        root_path=getattr(args, "root_path", None),
        options=options,
        choice=choice,
        past=past,
    )
    app = CtxtuiApp(
        session,
        budget=budget,
        theme_name=getattr(args, "theme", None) or config.theme,
        keymap=config.keys,
        notices=list(config.problems) + ([PASSWORD_IN_ARGV] if db_url and has_secret(db_url) else []),
        tour=DEMO_TOUR if demo else None,
    )
    app.run()
    if getattr(app, "work_left_running", False):
        _leave_now()
    return 0


def _leave_now() -> None:
    """End the process without waiting for a thread worker that is still running (the screen is closed)."""
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0)


def write_demo_somewhere(now: datetime, notes: list[str] | None = None) -> Path:
    """The demo written in the cache folder or, when that cannot be written, in a new temporary folder.

    An unusable cache folder (`XDG_CACHE_HOME` under a file, a read-only file system) is said in one line,
    never a traceback; when no temporary folder can be written either, a UsageError says both reasons.
    """
    import sqlite3
    import tempfile

    from ctxtui.demo import demo_root, write_demo

    root = demo_root()
    try:
        return write_demo(root, now, notes=notes)
    except (OSError, sqlite3.Error) as exc:
        first = f"{root}: {getattr(exc, 'strerror', None) or exc}"
    try:
        temporary = Path(tempfile.mkdtemp(prefix="ctxtui-demo-"))
        project = write_demo(temporary, now, notes=notes)
    except (OSError, sqlite3.Error) as exc:
        raise UsageError(
            f"cannot write the demo: {first}; nor in a temporary folder: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    print(f"ctxtui demo: cannot write the cache folder ({clean_line(first)}): using a temporary one", file=sys.stderr)
    return project
