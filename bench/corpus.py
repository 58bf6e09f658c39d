"""Where the benchmarks find the shared corpora: one lookup for every script."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def find_corpus() -> Path:
    """$CTXTUI_CORPUS, else the first `shared/corpus` beside this checkout or one of its parents (worktrees)."""
    explicit = os.environ.get("CTXTUI_CORPUS")
    if explicit:
        return Path(explicit)
    for parent in ROOT.parents:
        if (parent / "shared" / "corpus").is_dir():
            return parent / "shared" / "corpus"
    return ROOT.parent / "shared" / "corpus"
