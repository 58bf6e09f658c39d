"""Opening `--packer nous`: one logged turn of a nous database, its memory sections rebuilt.

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

import os
from collections.abc import Mapping

from ctxtui.opening.request import Opened, OpenError, PackRequest

SAMPLING = (
    "nous logs candidates for a sample of turns (NOUS_RETRIEVAL_TELEMETRY_CANDIDATE_SAMPLE_RATE, "
    "10% by default); `ctxtui turns --db URL` marks those with *"
)


def require_url(db: str | None) -> str:
    """The request's store as a PostgreSQL URL, or an error saying nous needs one."""
    from ctxtui.engine.sources.memory.shared.urls import is_db_url

    if not is_db_url(db):
        raise OpenError(
            "nous keeps its memories and turn log in PostgreSQL: give --db postgresql://USER@HOST/DB (any libpq URL)"
        )
    return str(db).strip()


def open_nous(request: PackRequest, budget: int | None, env: Mapping[str, str] | None = None) -> Opened:
    """The nous packer for the request's turn (the newest sampled one when none), at `budget` (the turn's own)."""
    from ctxtui.engine.packers.nous.budgets import FRAMES
    from ctxtui.engine.packers.nous.build import packer_for_turn
    from ctxtui.engine.sources.memory.nous.source import newest_sampled_turn, read_turn
    from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
    from ctxtui.engine.sources.memory.shared.urls import redact

    env = os.environ if env is None else env
    url = require_url(request.db)
    agent = request.agent
    warnings: list[str] = []
    if request.tokenizer not in (None, "ctx"):
        warnings.append("nous counts tokens as len(text)//4: --tokenizer is ignored by the nous packer")
    try:
        key = request.turn or newest_sampled_turn(url, agent)
        if key is None:
            raise OpenError(f"no turn with logged candidates for agent {agent or 'nous-default'}: {SAMPLING}")
        turn, rows = read_turn(url, key, agent)
    except MemorySourceError as exc:
        raise OpenError(exc.line) from None
    if turn.retrieval is None or not turn.retrieval.sampled:
        raise OpenError(f"turn {key} has no logged candidates to rebuild from: {SAMPLING}")
    frame = request.frame
    if frame and frame not in FRAMES:
        warnings.append(f"frame {frame!r} has no row in nous's table ({', '.join(FRAMES)}): the defaults apply")
    packer, complaints = packer_for_turn(turn, rows, env, frame=frame, source=redact(url))
    warnings += list(complaints)
    warnings += [str(problem) for problem in packer.problems]
    if budget is None:
        return Opened(packer, packer.default_budget, "the turn's own", warnings=warnings)
    return Opened(packer, budget, "flag", warnings=warnings)
