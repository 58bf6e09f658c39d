"""`--packer nous`: one logged turn of a nous database, its memory sections rebuilt (`pack`, `explain`, `sweep`).

`--db postgresql://…` (any libpq URL) and `--agent` choose the store;
`--turn` the turn (its retrieval_log id as `ctxtui turns` lists it, a
context_log id, or SESSION#TURN; default: the newest turn whose candidates
nous sampled); `--frame` switches the frame's row of section budgets;
`--budget` is the sum of the four memory sections' budgets (default: the
turn's own). The operator's settings come from nous's own NOUS_* variables
(NOUS_CONTEXT_BUDGET_OVERRIDES, NOUS_CONTEXT_WINDOW, ...), read from the
environment as nous reads them.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from ctxtui.cli.failures import UsageError, warn

if TYPE_CHECKING:
    from ctxtui.engine.packers.base import Packer

SAMPLING = (
    "nous logs candidates for a sample of turns (NOUS_RETRIEVAL_TELEMETRY_CANDIDATE_SAMPLE_RATE, "
    "10% by default); `ctxtui turns --db URL` marks those with *"
)


def require_url(args: argparse.Namespace) -> str:
    from ctxtui.engine.sources.memory.urls import is_db_url

    url = getattr(args, "db", None)
    if not is_db_url(url):
        raise UsageError(
            "nous keeps its memories and turn log in PostgreSQL: give --db postgresql://USER@HOST/DB (any libpq URL)"
        )
    return str(url).strip()


def load(args: argparse.Namespace) -> tuple[Packer, int]:
    """The nous packer for the chosen turn, and the budget to pack at."""
    from ctxtui.engine.packers.nous.budgets import FRAMES
    from ctxtui.engine.packers.nous.build import packer_for_turn
    from ctxtui.engine.sources.memory.errors import MemorySourceError
    from ctxtui.engine.sources.memory.nous_source import newest_sampled_turn, read_turn
    from ctxtui.engine.sources.memory.urls import redact

    url = require_url(args)
    agent = getattr(args, "agent", None)
    if getattr(args, "tokenizer", "ctx") not in (None, "ctx"):
        warn("nous counts tokens as len(text)//4: --tokenizer is ignored by the nous packer")
    try:
        key = getattr(args, "turn", None) or newest_sampled_turn(url, agent)
        if key is None:
            raise UsageError(f"no turn with logged candidates for agent {agent or 'nous-default'}: {SAMPLING}")
        turn, rows = read_turn(url, key, agent)
    except MemorySourceError as exc:
        raise UsageError(exc.line) from None
    if turn.retrieval is None or not turn.retrieval.sampled:
        raise UsageError(f"turn {key} has no logged candidates to rebuild from: {SAMPLING}")
    frame = getattr(args, "frame", None)
    if frame and frame not in FRAMES:
        warn(f"frame {frame!r} has no row in nous's table ({', '.join(FRAMES)}): the defaults apply")
    packer, complaints = packer_for_turn(turn, rows, os.environ, frame=frame, source=redact(url))
    for line in complaints:
        warn(line)
    for problem in packer.problems:
        warn(str(problem))
    budget = args.budget if getattr(args, "budget", None) is not None else packer.default_budget
    return packer, budget
