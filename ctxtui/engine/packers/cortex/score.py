"""Cortex's five-factor relevance score, every factor kept for the explanation.

`RelevanceScorer.score` (`cortex/src/retrieval/scoring.ts:18-37`):

    score = 0.30·confidence + 0.20·importance + 0.15·recency + 0.10·access + 0.25·topic,
    capped at 1 (Math.min, so NaN stays NaN)

added left to right from 0, as JavaScript doubles (Python floats add the
same). The factors (scoring.ts:42-121):

- confidence: the blob's `confidence`, coerced by `*` (a string "0.9"
  counts, null is 0, a missing one is NaN);
- importance (42-50): critical 1.0, high 0.8, normal 0.5, low 0.2, anything
  else 0.5 (strict equality: no coercion);
- recency (55-61): exp(−days/30) with days = (now − new Date(createdAt)) /
  86,400,000, through V8's Math.exp; never clamped, so a future date scores > 1;
- access (66-69): min(1, log10(accessCount + 1) / 2) through V8's
  Math.log10 — with JavaScript's `+`, so a string "3" becomes "31";
- topic (74-110): the best Jaccard similarity of the focus words against
  the summary's words, the topic's and the first 50 of the knowledge's, each
  split on JavaScript's `\\s+` (empty strings are kept in the memory's sets).
"""

from __future__ import annotations

from datetime import UTC, tzinfo
from typing import Any, NamedTuple

from ctxtui.engine.text.js import (
    UNDEFINED,
    add,
    date_value,
    js_max,
    js_min,
    js_trim,
    split_whitespace,
    to_lower,
    to_number,
    truthy,
    type_error,
    v8_exp,
    v8_log10,
)

IMPORTANCE = {"critical": 1.0, "high": 0.8, "normal": 0.5, "low": 0.2}
MS_PER_DAY = 1000 * 60 * 60 * 24


class Factors(NamedTuple):
    """The five factors of one memory's score, and the score (scoring.ts:18-37)."""

    confidence: float
    importance: float
    recency: float
    access: float
    topic: float
    days_old: float  # (now - createdAt) in days; NaN for an unreadable date
    raw: float  # the weighted sum before the cap
    score: float  # min(1, raw)
    topic_summary: float = 0.0  # the three Jaccard similarities behind `topic`
    topic_topic: float = 0.0
    topic_knowledge: float = 0.0


def focus_words(focus: str) -> frozenset[str] | None:
    """The focus's word set, or None when the focus is empty or blank (topic scores 0, nothing is read)."""
    if not focus or not js_trim(focus):
        return None
    words = frozenset(word for word in split_whitespace(to_lower(focus)) if word)
    return words or None


def _words(value: Any, field: str, limit: int | None = None) -> set[str]:
    if not isinstance(value, str):
        raise type_error(f"memory.{field}.toLowerCase is not a function")
    words = split_whitespace(to_lower(value))
    return set(words if limit is None else words[:limit])


def _jaccard(a: frozenset[str], b: set[str]) -> float:
    union = len(a | b)
    return 0.0 if union == 0 else len(a & b) / union


def score(memory: dict[str, Any], focus: frozenset[str] | None, now_ms: float, zone: tzinfo = UTC) -> Factors:
    """One memory's factors and score; raises JSError where Cortex throws."""
    confidence = to_number(memory.get("confidence", UNDEFINED))
    importance_value = memory.get("importance", UNDEFINED)
    importance = IMPORTANCE.get(importance_value, 0.5) if isinstance(importance_value, str) else 0.5
    age = now_ms - date_value(memory.get("createdAt", UNDEFINED), zone)
    days_old = age / MS_PER_DAY
    recency = v8_exp(-days_old / 30)
    access = js_min(1.0, v8_log10(to_number(add(memory.get("accessCount", UNDEFINED), 1.0))) / 2)
    in_summary = in_topic = in_knowledge = 0.0
    if focus is not None:
        summary = memory.get("summary", UNDEFINED)
        if truthy(summary):
            in_summary = _jaccard(focus, _words(summary, "summary"))
        topic_value = memory.get("topic", UNDEFINED)
        if "topic" in memory and truthy(topic_value):
            in_topic = _jaccard(focus, _words(topic_value, "topic"))
        knowledge = memory.get("knowledge", UNDEFINED)
        if "knowledge" in memory and truthy(knowledge):
            in_knowledge = _jaccard(focus, _words(knowledge, "knowledge", 50))
    topic = js_max(in_summary, in_topic, in_knowledge)
    total = 0.0
    total += confidence * 0.3
    total += importance * 0.2
    total += recency * 0.15
    total += access * 0.1
    total += topic * 0.25
    return Factors(
        confidence,
        importance,
        recency,
        access,
        topic,
        days_old,
        total,
        js_min(1.0, total),
        in_summary,
        in_topic,
        in_knowledge,
    )
