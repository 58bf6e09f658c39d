"""Launching the TUI: `ctxtui [PROJECT]` and `ctxtui demo`. The CLI owns the launch; the TUI only runs."""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

from ctxtui.cli.clock import parse_now
from ctxtui.cli.failures import UsageError


def run(args: argparse.Namespace, demo: bool = False) -> int:
    from ctxtui.engine.sources.memory.urls import is_db_url
    from ctxtui.session import Session
    from ctxtui.tui.app import CtxtuiApp
    from ctxtui.user_config import read_user_config

    db_url = args.db if is_db_url(getattr(args, "db", None)) else None  # nous: polled, not watched
    db = Path(args.db) if getattr(args, "db", None) and db_url is None else None
    if demo:
        from ctxtui.demo import demo_memory_db_path, demo_root, write_demo

        now = datetime.now().astimezone()
        project = write_demo(demo_root(), now)
        db = db or (demo_memory_db_path(project) if demo_memory_db_path(project).exists() else None)
    else:
        project = Path(args.project).absolute()
        if not (project / ".context").is_dir():
            raise UsageError(f"no .context/ directory in {project} (try `ctxtui demo`)")
    fixed_now = getattr(args, "now", None)
    if fixed_now:
        parse_now(fixed_now)  # a bad --now is a usage error before the screen opens
    clock = (lambda: parse_now(fixed_now)) if fixed_now else (lambda: datetime.now().astimezone())
    config = read_user_config()
    session = Session(
        project=project,
        db=db,
        db_project=getattr(args, "db_project", None),
        clock=clock,
        db_url=db_url,
        db_agent=getattr(args, "agent", None),
    )
    app = CtxtuiApp(
        session,
        budget=args.budget,
        theme_name=getattr(args, "theme", None) or config.theme,
        keymap=config.keys,
        notices=list(config.problems),
    )
    app.run()
    return 0
