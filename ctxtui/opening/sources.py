"""Every path a packer of this request reads, whatever its name: what no write may land in.

The write guard (`ctxtui.safe_write`) protects these as well as any folder
named `.context`: the project's `.context/` (skills and `memory.db` inside
it); ctx 0.8.0's context directory by every name it can be given
(`--context-dir`, `$CTX_DIR`, `.ctxrc context_dir`: all of them, whichever
one wins, since another run may pick another); ctx 0.8.1's steering folder
(`.ctxrc steering.dir`, default `.context/steering`); `.ctxrc` itself; the
memory store given with `--db` and the `-wal`, `-shm` and `-journal` files
SQLite keeps beside it. Paths are as the packers join them: relative ones
under the project, a `--db` under the working directory.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ctxtui.engine.sources.ctxrc import read_ctxrc
from ctxtui.engine.sources.fspath import absolute, join
from ctxtui.engine.sources.memory.shared.urls import is_db_url
from ctxtui.engine.sources.steering import DEFAULT_STEERING_DIR
from ctxtui.opening.request import PackRequest
from ctxtui.safe_write import DB_SIDECARS

if TYPE_CHECKING:
    from collections.abc import Mapping

CTXRC = ".ctxrc"


def source_paths(request: PackRequest, env: Mapping[str, str] | None = None, *, ctxrc: bool = True) -> list[str]:
    """The folders and files the packers read for `request` (absolute; some may not exist).

    `ctxrc=False` leaves `.ctxrc` out: for the one write that is meant to change it.
    """
    env = os.environ if env is None else env
    project = absolute(request.project)
    paths = [join(project, ".context")]
    if ctxrc:
        paths.append(join(project, CTXRC))
    config_080 = read_ctxrc(project, "0.8.0")
    for folder in (request.context_dir, env.get("CTX_DIR"), config_080.context_dir):
        if folder:
            paths.append(join(project, folder))
    steering = read_ctxrc(project, "0.8.1").steering_dir or DEFAULT_STEERING_DIR
    paths.append(join(project, steering))
    if request.db and not is_db_url(request.db):
        store = os.path.abspath(request.db)
        paths += [store, *(store + suffix for suffix in DB_SIDECARS)]
    return list(dict.fromkeys(paths))


def touches_sources(paths: list[Path], request: PackRequest, env: Mapping[str, str] | None = None) -> bool:
    """Whether any of `paths` is one of `source_paths` or a file directly in one (as a watcher reports it)."""
    if not paths:
        return False
    try:
        sources = {Path(p) for p in source_paths(request, env)}
    except (OSError, ValueError):  # an unreadable .ctxrc: its own load says so
        return False
    return any(path in sources or path.parent in sources for path in paths)
