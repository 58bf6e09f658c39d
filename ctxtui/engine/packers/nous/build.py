"""Settings for a rebuilt turn: nous's defaults, the operator's NOUS_* variables, then what the turn logged.

The log is evidence about that very turn, so what it shows wins over the
environment: the frame and model of its first API call, a greeting (every
memory leg skipped by the intent plan), and which procedure path ran (the
graph ladder's leg or the passive one's). `--frame` (a what-if) wins over all.
"""

from __future__ import annotations

from collections.abc import Mapping

from ctxtui.engine.packers.nous import budgets as b
from ctxtui.engine.packers.nous.packer import NousPacker
from ctxtui.engine.sources.memory.nous.model import NousRow, Turn

PLAN_SKIP = "retrieval plan skipped"
MEMORY_LEGS = ("context_decisions", "context_facts", "context_procedures", "context_episodes")


def settings_for_turn(
    turn: Turn, env: Mapping[str, str] | None = None, frame: str | None = None
) -> tuple[b.NousSettings, list[str]]:
    """The settings that rebuild `turn` as nous built it; and a complaint per unreadable NOUS_* value."""
    settings, complaints = b.settings_from_env(env or {}, b.NousSettings())
    logged: dict[str, object] = {}
    first = turn.first_call
    if first is not None and first.frame_id:
        logged["frame"] = first.frame_id
    if first is not None and first.model:
        logged["model"] = first.model
    retrieval = turn.retrieval
    if retrieval is not None:
        skipped = [
            leg
            for leg in retrieval.legs
            if leg.name in MEMORY_LEGS and not leg.attempted and (leg.skip_reason or "").startswith(PLAN_SKIP)
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
    if logged:
        settings = settings.with_changes("turn log", **logged)
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
