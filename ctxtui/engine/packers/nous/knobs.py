"""The nous packer's knobs: nous's settings that decide a turn's section budgets and formats.

Each knob says its value, the turn's own (from its logged frame and model)
or nous's default, and where the value came from (default, environment,
user); the TUI's knob panel and `--frame` change them through `with_knob`.
"""

from __future__ import annotations

from typing import Any

from ctxtui.engine.packers.base import Knob
from ctxtui.engine.packers.nous import budgets as b
from ctxtui.engine.packers.nous import formats as f
from ctxtui.engine.packers.nous.intent import classify

INPUT = "turn log (its input, classified as nous does)"


def classified(settings: b.NousSettings) -> dict[str, Any]:
    """The intent and follow-up nous's classifier gives the logged input with these settings (first turn, C1)."""
    if settings.query is None:
        return {}
    c = classify(settings.query, first_turn=settings.first_turn, deictic_detection=settings.deictic_detection)
    return {"intent": b.INTENT_GREETING if c.zeroes_memory else b.INTENT_PLAN, "followup": c.followup}


def input_reading(settings: b.NousSettings) -> str:
    """What nous's classifier made of the logged input, in words (for the knobs' help and the JSON)."""
    if settings.query is None:
        return "the turn's input is not logged"
    c = classify(settings.query, first_turn=settings.first_turn, deictic_detection=settings.deictic_detection)
    return c.why


def knobs(s: b.NousSettings, budgets: b.TurnBudgets, logged_frame: str, logged_model: str) -> tuple[Knob, ...]:
    listed = _main(s, budgets, logged_frame, logged_model)
    listed += _followup(s)
    return tuple(listed)


def _followup(s: b.NousSettings) -> list[Knob]:
    """First turns (F083 A2/C1) and the Procedure Catalog."""
    return [
        Knob(
            "first_turn",
            "the session's first turn (not logged)",
            "bool",
            s.first_turn,
            False,
            s.source("first_turn"),
            help="F083: a first turn may take a deictic follow-up (C1) and, with "
            "NOUS_FOLLOWUP_FIRST_TURN_EPISODE, the first episode's structured summary (A2)",
        ),
        Knob(
            "first_turn_episode",
            "first turn shows the last episode in full (NOUS_FOLLOWUP_FIRST_TURN_EPISODE)",
            "bool",
            s.first_turn_episode,
            False,
            s.source("first_turn_episode"),
        ),
        Knob(
            "deictic_detection",
            "first-turn deictic follow-ups (NOUS_FOLLOWUP_DEICTIC_DETECTION_ENABLED)",
            "bool",
            s.deictic_detection,
            True,
            s.source("deictic_detection"),
        ),
        Knob(
            "parent_episode_truncate",
            "first-turn summary cut (NOUS_RECALL_PARENT_EPISODE_TRUNCATE, characters)",
            "int",
            s.parent_episode_truncate,
            b.PARENT_EPISODE_TRUNCATE,
            s.source("parent_episode_truncate"),
            minimum=0,
        ),
        Knob(
            "catalog",
            "Procedure Catalog rendered (NOUS_PROC_CATALOG_ENABLED)",
            "bool",
            s.catalog,
            True,
            s.source("catalog"),
            help="on the passive path, the critic's picks become one pointer line under Recommended Procedures",
        ),
    ]


def _main(s: b.NousSettings, budgets: b.TurnBudgets, logged_frame: str, logged_model: str) -> list[Knob]:
    """Every setting of the rebuild as a knob: its value, the turn's own (logged) or nous's default, and where it came from."""
    window = s.window
    listed = [
        Knob(
            "frame",
            "frame (its row of section budgets)",
            "choice",
            s.frame,
            logged_frame,
            s.source("frame"),
            choices=(*b.FRAMES, b.OTHER_FRAME),
            help="ContextBudget.for_frame (schemas.py:127-146); an unknown frame gets the defaults",
        ),
        Knob(
            "model",
            "model (sets the scale through its context window)",
            "str",
            s.model,
            b.DEFAULT_MODEL,
            s.source("model"),
            help=f"nous's configured model (NOUS_MODEL), not the API call's ({logged_model}): window {window:,} "
            f"tokens → budgets ×{s.factor:g} (context.py:1859-1868)",
        ),
        Knob(
            "context_window",
            "context window override (NOUS_CONTEXT_WINDOW; 0: from the model)",
            "int",
            s.context_window,
            0,
            s.source("context_window"),
            minimum=0,
        ),
        Knob(
            "budget_scale",
            "scale budgets by the model's window (NOUS_BUDGET_SCALE_ENABLED)",
            "bool",
            s.budget_scale,
            True,
            s.source("budget_scale"),
        ),
        Knob(
            "intent",
            "intent plan",
            "choice",
            s.intent,
            b.INTENT_PLAN,
            s.source("intent"),
            choices=b.INTENTS,
            help="plan: nous's overrides for this frame; greeting: a greeting or short ack skips all memory; "
            f"off: the frame table alone. The input: {input_reading(s)}",
        ),
        Knob(
            "followup",
            "a follow-up turn (temporal recency > 0.5)",
            "bool",
            s.followup,
            False,
            s.source("followup"),
            help="lifts the conversation frame's episodes to 1000 and shows summaries under Recent Conversations",
        ),
        Knob(
            "followup_episode_budget",
            "conversation frame gets episodes (NOUS_FOLLOWUP_EPISODE_BUDGET_ENABLED)",
            "bool",
            s.followup_episode_budget,
            True,
            s.source("followup_episode_budget"),
        ),
        Knob(
            "procedure_path",
            "procedure section (NOUS_PROC_SELECTION_GRAPH_PRIMARY)",
            "choice",
            s.procedure_path,
            b.PROC_GRAPH,
            s.source("procedure_path"),
            choices=b.PROCEDURE_PATHS,
            help="graph: Recommended Procedures, whole blocks; list: Known Procedures, cut mid-text",
        ),
    ]
    without = b.resolve(
        b.NousSettings(
            frame=s.frame,
            model=s.model,
            intent=s.intent,
            followup=s.followup,
            followup_episode_budget=s.followup_episode_budget,
        )
    )
    for fld in b.MEMORY_FIELDS:
        eff = budgets.effective(fld)
        listed.append(
            Knob(
                fld,
                f"{fld} budget (tokens, before the ×{s.factor:g} scale)",
                "int",
                budgets.base[fld],
                without.base[fld],
                s.source(fld),
                minimum=0,
                help=f"nous cuts {fld} at {eff:,} tokens = {eff * f.CHARS_PER_TOKEN:,} characters",
            )
        )
    listed += [
        Knob(
            "fact_max_chars",
            "fact content cut (NOUS_FACT_FORMAT_MAX_CHARS)",
            "int",
            s.fact_max_chars,
            b.FACT_FORMAT_MAX_CHARS,
            s.source("fact_max_chars"),
            minimum=1,
        ),
        Knob(
            "fact_full_top_n",
            "facts shown uncut (NOUS_FACT_FORMAT_FULL_TOP_N)",
            "int",
            s.fact_full_top_n,
            b.FACT_FORMAT_FULL_TOP_N,
            s.source("fact_full_top_n"),
            minimum=0,
        ),
        Knob(
            "proc_body_max_chars",
            "procedure block cap (NOUS_PROC_RECOMMENDED_BODY_MAX_CHARS)",
            "int",
            s.proc_body_max_chars,
            b.PROC_BODY_MAX_CHARS,
            s.source("proc_body_max_chars"),
            minimum=1,
        ),
    ]
    return listed


def with_knob(settings: b.NousSettings, key: str, value: Any, source: str = "user") -> b.NousSettings:
    """The settings with one knob changed; KeyError for a knob the packer does not have."""
    if key in b.MEMORY_FIELDS:
        changed = settings.with_override(key, None if value is None else int(value), source)
    elif key in ("frame", "model", "intent", "procedure_path"):
        changed = settings.with_changes(source, **{key: str(value)})
    elif key in (
        "budget_scale",
        "followup",
        "followup_episode_budget",
        "first_turn",
        "first_turn_episode",
        "deictic_detection",
        "catalog",
    ):
        changed = settings.with_changes(source, **{key: bool(value)})
    elif key in (
        "context_window",
        "fact_max_chars",
        "fact_full_top_n",
        "proc_body_max_chars",
        "parent_episode_truncate",
    ):
        changed = settings.with_changes(source, **{key: int(value)})
    else:
        raise KeyError(f"the nous packer has no knob {key!r}")
    if key in ("first_turn", "deictic_detection"):
        # A first-turn deictic follow-up (F083 C1) depends on both: read the input again, unless set by hand.
        again = {k: v for k, v in classified(changed).items() if changed.source(k) == INPUT}
        if again:
            changed = changed.with_changes(INPUT, **again)
    return changed
