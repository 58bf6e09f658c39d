"""What the live reload watches: every folder and file a packet is read from, each watched once.

Before, only `.context/` and the memory database were watched: an edit to
`.ctxrc` (a budget, a share, `steering.dir`) or to a steering or context
folder named elsewhere left a packet on screen that ctx would no longer
build, until `r`. The targets come from `source_paths` (the same list the
write guards use), so what is read and what is watched cannot drift apart.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple


class WatchTarget(NamedTuple):
    """A folder to watch: all of it (`recursive`), or only the entries named in `names`."""

    folder: Path
    recursive: bool
    names: frozenset[str] | None


def watch_targets(context: Path, sources: list[str], db: Path | None) -> list[WatchTarget]:
    """`.context/` whole; another source folder (steering, 0.8.0's context_dir), its own files; a source file (or a folder not made yet) through its
    parent, by name; the database and its `-wal` (never `-shm`: readers write it too)."""
    targets = [WatchTarget(context, True, None)]
    store = {db} if db is not None else set()
    for text in sources:
        path = Path(text)
        if path in store or (db is not None and path.parent == db.parent and path.name.startswith(db.name)):
            continue  # the store: below
        if path == context or context in path.parents:
            continue
        if path.is_dir():  # its own files only, as ctx reads them: a `context_dir: .` must not watch the repo
            targets.append(WatchTarget(path, False, None))
        else:
            targets.append(WatchTarget(path.parent, False, frozenset({path.name})))
    if db is not None:
        targets.append(WatchTarget(db.parent, False, frozenset({db.name, db.name + "-wal"})))
    merged: dict[tuple[Path, bool], frozenset[str] | None] = {}
    for folder, recursive, names in targets:  # one watch per folder: names joined
        key = (folder, recursive)
        if key not in merged:
            merged[key] = names
        else:
            known = merged[key]
            merged[key] = None if known is None or names is None else known | names
    return [WatchTarget(folder, recursive, names) for (folder, recursive), names in merged.items()]
