"""nous's section budgets for one turn: the frame table, the intent plan, the operator's overrides, the model scale.

All from nous's source at commit 47939528 (notes/nous.md §2.1; `file:line`
into the rebuilt copies under /work/oracles/nous/src/):

1. `ContextBudget.for_frame(frame_id)` (schemas.py:127-146): the per-frame
   table below; an unknown frame gets the defaults (schemas.py:112-124).
   Then the operator's `NOUS_CONTEXT_BUDGET_OVERRIDES` REPLACE fields by name
   (schemas.py:148-157, context.py:237-240).
2. The intent plan's `budget_overrides` REPLACE them (context.py:352-356;
   `IntentClassifier.plan_retrieval`, intent.py@001bc6d8): a greeting or a
   short acknowledgement zeroes and skips all four memory types; the
   conversation frame gets decisions 500, facts 500, procedures 0 and
   episodes 600 (0 when `followup_episode_budget_enabled` is off); the
   decision frame gets decisions 3500 and procedures 2000; a follow-up
   (temporal recency > 0.5) lifts an episodes override below 1000 to 1000.
3. The operator's overrides again, last (context.py:358-366, "Audit CL-6").
4. `_scaled_budget` (context.py:1859-1868) multiplies user_profile,
   decisions, facts, procedures and episodes — never identity, censors, frame
   or working memory — by 2.5 when the model's window is ≥ 1,000,000 tokens,
   by 1.5 when ≥ 200,000, else 1 (`int(b * factor)`), on by default
   (`budget_scale_enabled`). The model is nous's configured one,
   `Settings.model` (`NOUS_MODEL`), not the model of the API call the turn
   logged; its window is `NOUS_CONTEXT_WINDOW` when > 0, else the longest
   `MODEL_CONTEXT_WINDOWS` key (schemas.py:16-24) contained in the model name
   (`Settings._get_context_window`, config.py: `sorted(..., key=len,
   reverse=True)`), else 200,000 — so nous's default model
   (claude-sonnet-4-6) gets ×2.5 and any unknown model ×1.5.

No log row records the budgets a turn used: they are recomputed here from the
frame the turn logged, the intent (nous's classifier applied to the input
`retrieval_log.query` kept, `intent.py` here), and the operator's settings
(`NOUS_*` variables, as nous reads them; an unset `NOUS_MODEL` is nous's
default model, an assumption the knob shows).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

# schemas.py:112-124
DEFAULTS: dict[str, int] = {
    "total": 8000,
    "identity": 500,
    "user_profile": 200,
    "censors": 300,
    "frame": 500,
    "working_memory": 700,
    "decisions": 2000,
    "facts": 1500,
    "procedures": 1500,
    "episodes": 1000,
    "conversation_window": 5,
}
# schemas.py:137-144 (only the fields each frame changes)
FRAME_TABLE: dict[str, dict[str, int]] = {
    "conversation": {
        "total": 3000,
        "decisions": 500,
        "facts": 500,
        "procedures": 0,
        "episodes": 600,
        "conversation_window": 3,
    },
    "question": {
        "total": 6000,
        "decisions": 1000,
        "facts": 1500,
        "procedures": 500,
        "episodes": 500,
        "conversation_window": 5,
    },
    "task": {"total": 8000, "conversation_window": 5},
    "decision": {
        "total": 12000,
        "decisions": 3000,
        "facts": 2000,
        "procedures": 2000,
        "episodes": 1000,
        "conversation_window": 8,
    },
    "creative": {
        "total": 6000,
        "censors": 100,
        "decisions": 1000,
        "facts": 1500,
        "procedures": 500,
        "episodes": 500,
        "conversation_window": 4,
    },
    "debug": {
        "total": 10000,
        "decisions": 1500,
        "facts": 1000,
        "procedures": 2500,
        "episodes": 1000,
        "conversation_window": 6,
    },
}
FRAMES = tuple(FRAME_TABLE)
OTHER_FRAME = "other"  # any frame id nous has no row for: the defaults
# The sections whose budget `_scaled_budget` multiplies (context.py:768, 915, 1036, 1212, 1446, 1581).
SCALED_FIELDS = ("user_profile", "decisions", "facts", "procedures", "episodes")
# The four budgeted memory sections ctxtui rebuilds, by the budget field that gates each.
MEMORY_FIELDS = ("decisions", "facts", "procedures", "episodes")
TYPE_OF_FIELD = {"decisions": "decision", "facts": "fact", "procedures": "procedure", "episodes": "episode"}

# schemas.py:16-24
MODEL_CONTEXT_WINDOWS: dict[str, int] = {
    "claude-sonnet-4-6": 1_000_000,
    "claude-opus-4-6": 1_000_000,
    "claude-sonnet-4-5": 200_000,
    "claude-opus-4-5": 200_000,
    "claude-haiku-4-5": 200_000,
    "gpt-4o": 128_000,
    "gpt-4-turbo": 128_000,
}
DEFAULT_MODEL = "claude-sonnet-4-6"  # nous's Settings.model default (config.py@00c68220)
UNKNOWN_MODEL_WINDOW = 200_000

INTENT_PLAN = "plan"  # nous's intent plan for a normal (non-greeting) turn of this frame
INTENT_GREETING = "greeting"  # a greeting or short acknowledgement: all four memory types skipped
INTENT_OFF = "off"  # no plan: the frame table alone
INTENTS = (INTENT_PLAN, INTENT_GREETING, INTENT_OFF)

PROC_GRAPH = "graph"  # proc_selection_graph_primary=True (default): Recommended Procedures, whole blocks
PROC_LIST = "list"  # the passive path: Known Procedures, cut mid-text
PROCEDURE_PATHS = (PROC_GRAPH, PROC_LIST)

FACT_FORMAT_MAX_CHARS = 200  # Settings.fact_format_max_chars (context.py:2040)
PARENT_EPISODE_TRUNCATE = 500  # Settings.recall_parent_episode_truncate (config.py, F067): the first-turn summary cut
FACT_FORMAT_FULL_TOP_N = 0  # Settings.fact_format_full_top_n (context.py:1019)
PROC_BODY_MAX_CHARS = 2500  # Settings.proc_recommended_body_max_chars (context.py:1193)


def context_window(model: str, override: int = 0) -> int:
    """`Settings._get_context_window`: NOUS_CONTEXT_WINDOW when > 0, else by model name, else 200,000."""
    if override > 0:
        return override
    for key in sorted(MODEL_CONTEXT_WINDOWS, key=len, reverse=True):  # longest key first (stable for ties)
        if key in (model or ""):
            return MODEL_CONTEXT_WINDOWS[key]
    return UNKNOWN_MODEL_WINDOW


def scale_factor(window: int, enabled: bool = True) -> float:
    """`_scaled_budget`'s factor (context.py:1859-1868)."""
    if not enabled:
        return 1.0
    if window >= 1_000_000:
        return 2.5
    if window >= 200_000:
        return 1.5
    return 1.0


def scaled(base: int, factor: float) -> int:
    """`int(base * factor)`, exactly as nous computes it."""
    return base if factor == 1.0 else int(base * factor)


@dataclass(frozen=True, slots=True)
class NousSettings:
    """What shapes a rebuilt turn besides the budget slider, with where each value came from.

    `overrides` are the operator's NOUS_CONTEXT_BUDGET_OVERRIDES (field →
    tokens, unscaled), which nous applies first and last; the section-budget
    knobs write here.
    """

    frame: str = "task"
    model: str = DEFAULT_MODEL
    context_window: int = 0  # NOUS_CONTEXT_WINDOW; 0: from the model name
    budget_scale: bool = True  # NOUS_BUDGET_SCALE_ENABLED
    intent: str = INTENT_PLAN
    followup: bool = False  # the intent classifier's temporal recency > 0.5 (also nous's temporal_boost)
    followup_episode_budget: bool = True  # NOUS_FOLLOWUP_EPISODE_BUDGET_ENABLED
    overrides: tuple[tuple[str, int], ...] = ()
    procedure_path: str = PROC_GRAPH  # NOUS_PROC_SELECTION_GRAPH_PRIMARY
    fact_max_chars: int = FACT_FORMAT_MAX_CHARS  # NOUS_FACT_FORMAT_MAX_CHARS
    fact_full_top_n: int = FACT_FORMAT_FULL_TOP_N  # NOUS_FACT_FORMAT_FULL_TOP_N
    proc_body_max_chars: int = PROC_BODY_MAX_CHARS  # NOUS_PROC_RECOMMENDED_BODY_MAX_CHARS
    first_turn: bool = False  # the session's first turn (not logged: inferred from the session's turn numbers)
    first_turn_episode: bool = False  # NOUS_FOLLOWUP_FIRST_TURN_EPISODE (F083 A2, off by default)
    deictic_detection: bool = True  # NOUS_FOLLOWUP_DEICTIC_DETECTION_ENABLED (F083 C1, on by default)
    parent_episode_truncate: int = PARENT_EPISODE_TRUNCATE  # NOUS_RECALL_PARENT_EPISODE_TRUNCATE
    catalog: bool = True  # NOUS_PROC_CATALOG_ENABLED and a catalog rendered: critic picks print as one pointer line
    query: str | None = field(default=None, compare=False)  # the input nous classified (retrieval_log.query)
    sources: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def source(self, key: str) -> str:
        return dict(self.sources).get(key, "default")

    def with_changes(self, source: str = "user", **changes: Any) -> NousSettings:
        """A copy with `changes` applied; each changed key's source becomes `source`."""
        sources = dict(self.sources)
        sources.update({key: source for key in changes})
        return replace(self, sources=tuple(sources.items()), **changes)

    def with_override(self, fld: str, tokens: int | None, source: str = "user") -> NousSettings:
        """Set (or with None, clear) the operator override of one budget field."""
        current = {k: v for k, v in self.overrides if k != fld}
        if tokens is not None:
            current[fld] = max(0, int(tokens))
        sources = dict(self.sources)
        sources[fld] = source if tokens is not None else "frame"
        return replace(self, overrides=tuple(sorted(current.items())), sources=tuple(sources.items()))

    @property
    def window(self) -> int:
        return context_window(self.model, self.context_window)

    @property
    def factor(self) -> float:
        return scale_factor(self.window, self.budget_scale)


@dataclass(frozen=True, slots=True)
class TurnBudgets:
    """The budgets a turn's sections got: unscaled (after frame, plan and overrides), and as used (scaled)."""

    base: Mapping[str, int]  # every ContextBudget field
    skip_types: frozenset[str]
    factor: float
    frame_row: str  # the frame table row that applied ("other" for an unknown frame id)

    def effective(self, fld: str) -> int:
        """The budget a section is cut to: scaled for the five fields nous scales."""
        value = self.base[fld]
        return scaled(value, self.factor) if fld in SCALED_FIELDS else value

    def enabled(self, fld: str) -> bool:
        """nous's gate: `budget.<field> > 0` (unscaled) and the type not skipped by the plan."""
        return self.base[fld] > 0 and TYPE_OF_FIELD.get(fld, "") not in self.skip_types


def plan_overrides(intent: str, frame: str, followup: bool, followup_episode_budget: bool) -> dict[str, int]:
    """`IntentClassifier.plan_retrieval`'s budget_overrides (intent.py@001bc6d8), per notes/nous.md §2.1."""
    if intent == INTENT_OFF:
        return {}
    if intent == INTENT_GREETING:
        return {f: 0 for f in MEMORY_FIELDS}
    overrides: dict[str, int] = {}
    if frame == "conversation":
        overrides = {"decisions": 500, "facts": 500, "procedures": 0, "episodes": 600 if followup_episode_budget else 0}
    elif frame == "decision":
        overrides = {"decisions": 3500, "procedures": 2000}
    if followup and "episodes" in overrides and overrides["episodes"] < 1000:
        overrides["episodes"] = 1000
    return overrides


def resolve(settings: NousSettings) -> TurnBudgets:
    """The turn's budgets, in nous's order: frame, operator, plan, operator again; then the scale."""
    row = settings.frame if settings.frame in FRAME_TABLE else OTHER_FRAME
    base = dict(DEFAULTS)
    base.update(FRAME_TABLE.get(settings.frame, {}))
    operator = {k: v for k, v in settings.overrides if k in base}
    base.update(operator)
    base.update(plan_overrides(settings.intent, settings.frame, settings.followup, settings.followup_episode_budget))
    base.update(operator)
    skip = frozenset(TYPE_OF_FIELD.values()) if settings.intent == INTENT_GREETING else frozenset()
    return TurnBudgets(base, skip, settings.factor, row)


# -- the operator's settings from NOUS_* variables, as nous reads them ---------

ENV_KEYS = {
    "NOUS_CONTEXT_BUDGET_OVERRIDES": "overrides",
    "NOUS_CONTEXT_WINDOW": "context_window",
    "NOUS_BUDGET_SCALE_ENABLED": "budget_scale",
    "NOUS_FOLLOWUP_EPISODE_BUDGET_ENABLED": "followup_episode_budget",
    "NOUS_PROC_SELECTION_GRAPH_PRIMARY": "procedure_path",
    "NOUS_FACT_FORMAT_MAX_CHARS": "fact_max_chars",
    "NOUS_FACT_FORMAT_FULL_TOP_N": "fact_full_top_n",
    "NOUS_PROC_RECOMMENDED_BODY_MAX_CHARS": "proc_body_max_chars",
    "NOUS_MODEL": "model",
    "NOUS_FOLLOWUP_FIRST_TURN_EPISODE": "first_turn_episode",
    "NOUS_FOLLOWUP_DEICTIC_DETECTION_ENABLED": "deictic_detection",
    "NOUS_RECALL_PARENT_EPISODE_TRUNCATE": "parent_episode_truncate",
    "NOUS_PROC_CATALOG_ENABLED": "catalog",
}


def _bool(text: str) -> bool | None:
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on", "t", "y"):
        return True
    if low in ("0", "false", "no", "off", "f", "n"):
        return False
    return None


def settings_from_env(env: Mapping[str, str], base: NousSettings) -> tuple[NousSettings, list[str]]:
    """`base` with the NOUS_* variables in `env` applied; and a complaint per unreadable value."""
    complaints: list[str] = []
    changes: dict[str, Any] = {}
    raw = env.get("NOUS_CONTEXT_BUDGET_OVERRIDES", "")
    if raw.strip():
        try:
            parsed = json.loads(raw)
            if not isinstance(parsed, dict):
                raise ValueError("not a JSON object")
            changes["overrides"] = tuple(
                sorted((str(k), int(v)) for k, v in parsed.items() if str(k) in DEFAULTS and not isinstance(v, bool))
            )
        except (ValueError, TypeError) as exc:
            complaints.append(f"NOUS_CONTEXT_BUDGET_OVERRIDES is not a JSON object of token budgets ({exc}): ignored")
    for name in (
        "NOUS_CONTEXT_WINDOW",
        "NOUS_FACT_FORMAT_MAX_CHARS",
        "NOUS_FACT_FORMAT_FULL_TOP_N",
        "NOUS_PROC_RECOMMENDED_BODY_MAX_CHARS",
        "NOUS_RECALL_PARENT_EPISODE_TRUNCATE",
    ):
        text = env.get(name, "").strip()
        if text:
            try:
                changes[ENV_KEYS[name]] = int(text)
            except ValueError:
                complaints.append(f"{name}={text!r} is not a number: ignored")
    for name in (
        "NOUS_BUDGET_SCALE_ENABLED",
        "NOUS_FOLLOWUP_EPISODE_BUDGET_ENABLED",
        "NOUS_PROC_SELECTION_GRAPH_PRIMARY",
        "NOUS_FOLLOWUP_FIRST_TURN_EPISODE",
        "NOUS_FOLLOWUP_DEICTIC_DETECTION_ENABLED",
        "NOUS_PROC_CATALOG_ENABLED",
    ):
        text = env.get(name, "")
        if text.strip():
            value = _bool(text)
            if value is None:
                complaints.append(f"{name}={text!r} is not true or false: ignored")
            elif name == "NOUS_PROC_SELECTION_GRAPH_PRIMARY":
                changes["procedure_path"] = PROC_GRAPH if value else PROC_LIST
            else:
                changes[ENV_KEYS[name]] = value
    model = env.get("NOUS_MODEL", "").strip()
    if model:
        changes["model"] = model
    if not changes:
        return base, complaints
    settings = base.with_changes("environment", **changes)
    if "overrides" in changes:
        sources = dict(settings.sources)
        sources.update({k: "environment" for k, _ in changes["overrides"]})
        settings = replace(settings, sources=tuple(sources.items()))
    return settings, complaints
