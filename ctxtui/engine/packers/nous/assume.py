"""What a rebuild had to assume because the turn's log does not hold it, each with the knob that changes it.

An assumption is reported only where it can change the rebuilt sections:
nous's configured model when the budgets are scaled by it, the first turn
when a first-turn rule could apply, the catalog when critic picks are
printed by it, the input when none was logged.
"""

from __future__ import annotations

from ctxtui.engine.packers.nous import budgets as b
from ctxtui.engine.packers.nous.intent import classify
from ctxtui.engine.sources.memory.nous.model import Turn

ASSUMED_PREFIXES = ("assumed", "inferred")


def _assumed(settings: b.NousSettings, key: str) -> bool:
    return settings.source(key).startswith(ASSUMED_PREFIXES)


def assumptions(settings: b.NousSettings, turn: Turn, critic_picks: bool) -> list[tuple[str, str]]:
    """(knob, sentence) for each assumption this rebuild rests on."""
    out: list[tuple[str, str]] = []
    s = settings
    if _assumed(s, "model") and s.budget_scale and s.context_window <= 0:
        first = turn.first_call
        api = first.model if first is not None and first.model else None
        line = (
            f"nous's configured model is not logged: assumed {s.model} (NOUS_MODEL unset), window "
            f"{s.window:,} tokens, budgets ×{s.factor:g}"
        )
        if api and b.scale_factor(b.context_window(api)) != s.factor:
            line += f" (the API call's {api} would give ×{b.scale_factor(b.context_window(api)):g})"
        out.append(("model", line + "; set the model knob or NOUS_MODEL"))
    if _assumed(s, "first_turn"):
        deictic = s.query is not None and s.deictic_detection and classify(s.query).deictic
        if s.first_turn_episode or deictic:
            what = "first turn" if s.first_turn else "not the session's first turn"
            out.append(
                (
                    "first_turn",
                    f"whether this was the session's first turn is not logged: {s.source('first_turn')}, so "
                    f"{what}; set the first_turn knob",
                )
            )
    if _assumed(s, "catalog") and critic_picks and s.procedure_path == b.PROC_LIST:
        out.append(
            (
                "catalog",
                "whether a Procedure Catalog rendered is not logged (no token breakdown): assumed "
                f"{'yes' if s.catalog else 'no'}; set the catalog knob",
            )
        )
    if s.query is None and _assumed(s, "followup"):
        out.append(
            (
                "intent",
                "the turn's input is not logged: assumed an ordinary turn, not a follow-up, unless the legs show "
                "a skipped plan; set the intent and followup knobs",
            )
        )
    return out
