"""Cortex's intent weights: how much each of the 23 memory types counts for each of the 15 intents.

`cortex/src/retrieval/weighting.ts:15-415` (mattepiu/drift 265f6f49), the
whole table; `getWeight` (weighting.ts:424-425) is
`WEIGHTS[intent]?.[memoryType] ?? 1.0`: an unknown intent or type weighs 1.0.
The weight multiplies the score *after* its clamp to 1 (engine.ts:132-135),
so weighted scores up to 2.0 are normal.

The lookup is a JavaScript property read, so the type is first turned into
a string key (`undefined` → "undefined", 123 → "123"), and a type named like
an Object.prototype member ("toString", "constructor", …) reads a function:
the score becomes NaN. Intents named like those members read properties of
Object or Function; that garbage is approximated (1.0, or NaN for such types).
"""

from __future__ import annotations

import math
from typing import Any

from ctxtui.engine.text.js import OBJECT_PROTOTYPE_NAMES, to_property_key

DEFAULT_INTENT = "understand_code"

INTENTS = (
    "create",
    "investigate",
    "decide",
    "recall",
    "learn",  # domain-agnostic
    "add_feature",
    "fix_bug",
    "refactor",
    "security_audit",
    "understand_code",
    "add_test",  # code
    "spawn_agent",
    "execute_workflow",
    "track_progress",
    "diagnose_issue",  # universal (v2)
)

# One row per memory type, one column per intent in INTENTS order.
_TABLE = """
core                 1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0
tribal               1.2 1.2 1.5 1.2 1.0 1.0 1.5 1.2 2.0 1.2 1.2 0.8 1.2 0.8 1.5
procedural           1.5 0.8 0.8 1.0 1.2 1.5 0.8 1.0 1.0 0.8 1.5 1.0 1.5 0.5 1.0
semantic             1.2 1.5 1.2 1.5 1.0 1.2 1.2 1.3 1.5 1.5 1.0 0.8 1.0 1.0 1.2
episodic             0.5 0.8 0.5 1.0 0.5 0.5 1.0 0.5 0.3 0.5 0.5 0.5 0.5 0.8 1.0
decision             1.0 1.2 2.0 1.2 0.8 0.8 0.5 1.2 1.0 1.0 0.5 0.5 0.8 1.0 0.8
insight              1.3 1.5 1.5 1.3 1.5 1.0 1.2 1.2 1.5 1.2 1.0 0.8 1.0 1.0 1.3
reference            1.0 1.5 1.2 1.2 1.5 0.8 0.8 1.0 1.5 1.2 1.0 0.5 1.0 0.5 1.0
preference           1.2 0.5 1.3 1.0 0.8 1.0 0.5 1.2 0.5 0.5 1.2 1.2 1.0 0.5 0.3
pattern_rationale    1.0 1.3 1.0 1.0 1.0 1.3 1.0 1.5 1.2 1.5 1.0 0.5 0.8 0.5 1.0
constraint_override  0.8 0.8 1.0 0.8 0.5 1.0 0.8 1.2 1.5 0.8 0.8 0.5 0.8 0.5 0.8
decision_context     0.8 1.3 1.5 1.0 0.8 0.8 1.0 1.5 1.0 1.5 0.8 0.5 0.8 1.0 1.0
code_smell           1.0 0.8 0.5 0.8 1.0 1.2 1.5 1.3 1.8 1.0 1.3 0.3 0.5 0.3 1.5
agent_spawn          1.5 0.5 0.5 1.0 0.5 0.8 0.5 0.5 0.5 0.5 0.5 2.0 0.8 0.5 0.5
entity               1.3 1.5 1.3 1.2 0.8 1.0 1.0 0.8 1.2 1.2 0.8 0.8 1.0 1.2 1.2
goal                 1.2 1.0 1.5 1.0 0.5 0.8 0.5 0.8 0.5 0.5 0.5 0.5 1.0 2.0 0.5
feedback             1.3 1.0 1.2 1.0 1.5 1.2 1.5 1.2 1.5 1.0 1.2 1.0 1.2 0.8 1.0
workflow             1.8 0.8 0.8 1.0 1.2 1.2 0.8 1.0 1.0 0.8 1.2 1.0 2.0 0.8 0.8
conversation         0.5 1.2 1.0 1.5 0.5 0.3 0.5 0.3 0.3 0.5 0.3 0.3 0.5 1.2 0.8
incident             1.0 1.5 1.5 1.2 1.3 0.8 1.8 1.0 2.0 1.0 1.0 0.5 1.0 1.0 2.0
meeting              0.3 0.8 0.8 1.2 0.3 0.2 0.2 0.2 0.2 0.3 0.2 0.2 0.3 1.0 0.3
skill                1.0 1.2 0.5 0.8 1.8 0.8 0.8 1.0 1.0 1.2 1.0 0.8 1.0 0.5 1.0
environment          1.2 1.0 0.8 0.8 0.5 1.0 1.2 0.8 1.5 1.0 1.0 0.5 1.5 0.5 1.5
"""


def _parse(table: str) -> tuple[tuple[str, ...], dict[str, dict[str, float]]]:
    rows = [line.split() for line in table.strip().splitlines()]
    types = tuple(row[0] for row in rows)
    weights: dict[str, dict[str, float]] = {intent: {} for intent in INTENTS}
    for row in rows:
        for intent, value in zip(INTENTS, row[1:], strict=True):
            weights[intent][row[0]] = float(value)  # the decimal literal's nearest double, as in JS
    return types, weights


TYPES, WEIGHTS = _parse(_TABLE)


def weight(memory_type: Any, intent: str) -> float:
    """`WEIGHTS[intent]?.[memoryType] ?? 1.0`; raises JSError when the type cannot become a key."""
    table = WEIGHTS.get(intent)
    if table is None and intent not in OBJECT_PROTOTYPE_NAMES:
        return 1.0  # `undefined?.[…]` short-circuits: the type is never even converted
    key = to_property_key(memory_type)
    if key in OBJECT_PROTOTYPE_NAMES:
        return math.nan  # a function (or Object.prototype) times a number
    if table is None:
        return 1.0
    return table.get(key, 1.0)
