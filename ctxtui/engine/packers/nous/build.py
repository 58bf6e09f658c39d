"""Settings for a rebuilt turn: nous's defaults, the operator's NOUS_* variables, then what the turn logged.

The log is evidence about that very turn, so what it shows wins over the
environment: the frame of its first API call, its input (classified as nous
classifies it: a greeting, a short acknowledgement, a follow-up), which
procedure path ran (the graph ladder's leg or the passive one's) and whether
a Procedure Catalog section was in its prompt. `--frame` (a what-if) wins
over all.

What the log does not hold is assumed, and each assumption is a knob whose
source says so: nous's configured model (`NOUS_MODEL`; the log holds the
model of the API call, which need not be it), and whether the turn was its
session's first (F083: `session_id not in _active_episodes`), inferred from
whether the session logged a lower turn number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ctxtui.engine.packers.nous import budgets as b
from ctxtui.engine.packers.nous.intent import QUERY_CHARS
from ctxtui.engine.packers.nous.knobs import INPUT, classified
from ctxtui.engine.packers.nous.packer import NousPacker
from ctxtui.engine.sources.memory.nous.model import NousRow, Turn

PLAN_SKIP = "retrieval plan skipped"
ZERO_SKIP = "section budget is 0"  # context.py:280-292: a zero budget is named before the plan's skip
MEMORY_LEGS = ("context_decisions", "context_facts", "context_procedures", "context_episodes")
LOGGED = "turn log"
ASSUMED_MODEL = "assumed: NOUS_MODEL unset, nous's default"
ASSUMED = "assumed (not logged)"


def _first_turn(turn: Turn) -> tuple[bool, str]:
    summary = turn.summary
    if summary.earlier_turn:
        return False, f"{LOGGED}: a lower turn number of session {summary.session_id} is logged"
    if summary.earlier_turn is False:
        number = summary.turn_number
        return True, (
            f"inferred: no lower turn number of the session is logged (turn {number})"
            if number is not None and number <= 1
            else f"inferred: no lower turn number of the session is logged, though this is turn {number}"
        )
    return False, ASSUMED


def _from_legs(turn: Turn) -> dict[str, Any]:
    """What the retrieval legs show: a skipped memory plan, the procedure path."""
    logged: dict[str, Any] = {}
    retrieval = turn.retrieval
    if retrieval is None:
        return logged
    skipped = [
        leg
        for leg in retrieval.legs
        if leg.name in MEMORY_LEGS and not leg.attempted and (leg.skip_reason or "").startswith((PLAN_SKIP, ZERO_SKIP))
    ]
    if len(skipped) == len(MEMORY_LEGS):
        logged["intent"] = b.INTENT_GREETING
    names = {leg.name for leg in retrieval.legs}
    if "context_procedures_ladder" in names:
        logged["procedure_path"] = b.PROC_GRAPH
    elif names & {"context_procedures_critic"} or (
        "context_procedures" in names
        and any(leg.name == "context_procedures" and leg.attempted for leg in retrieval.legs)
    ):
        logged["procedure_path"] = b.PROC_LIST
    return logged


def settings_for_turn(
    turn: Turn, env: Mapping[str, str] | None = None, frame: str | None = None
) -> tuple[b.NousSettings, list[str]]:
    """The settings that rebuild `turn` as nous built it; and a complaint per unreadable NOUS_* value."""
    env = env or {}
    settings, complaints = b.settings_from_env(env, b.NousSettings())
    if not env.get("NOUS_MODEL", "").strip():
        settings = settings.with_changes(ASSUMED_MODEL, model=b.DEFAULT_MODEL)
    first = turn.first_call
    if first is not None and first.frame_id:
        settings = settings.with_changes(LOGGED, frame=first.frame_id)
    if first is not None and first.token_breakdown:
        settings = settings.with_changes(LOGGED, catalog="procedure_catalog" in first.token_breakdown)
    is_first, why = _first_turn(turn)
    settings = settings.with_changes(why, first_turn=is_first)
    legs = _from_legs(turn)
    query = turn.retrieval.query if turn.retrieval is not None else None
    if query is not None:
        settings = replace(settings, query=query)
        legs.pop("intent", None)
        settings = settings.with_changes(INPUT, **classified(settings))
        if len(query) >= QUERY_CHARS:
            complaints.append(
                f"the turn's input is logged cut to {QUERY_CHARS} characters: classified from those "
                "(a question mark or a recency word after them is not seen)"
            )
    else:
        settings = settings.with_changes(ASSUMED, followup=False)
    if legs:
        settings = settings.with_changes(LOGGED, **legs)
    if frame:
        settings = settings.with_changes("flag", frame=frame)
    return settings, complaints


def packer_for_turn(
    turn: Turn,
    rows: Mapping[tuple[str, str], NousRow],
    env: Mapping[str, str] | None = None,
    *,
    frame: str | None = None,
    source: str = "nous",
) -> tuple[NousPacker, list[str]]:
    """The nous packer for one logged turn and the rows of its candidates."""
    settings, complaints = settings_for_turn(turn, env, frame)
    return NousPacker(turn, rows, settings, source=source), complaints
