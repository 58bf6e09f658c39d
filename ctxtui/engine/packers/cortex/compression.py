"""What Cortex counts for a memory: its summary-level and expanded-level texts, and their tokens.

`HierarchicalCompressor` (`cortex/src/retrieval/compression.ts`):
`compress(memory)` (37-50) builds the summary (`memory.summary ||
defaultSummary(memory)`, 55-57), the expanded text (62-210) and the full
JSON, and counts each as `Math.ceil(text.length / 4)` (264-267) — UTF-16
units. Every field is read from the memory's JSON blob, with JavaScript's
rules: a missing field prints "undefined", `slice` counts UTF-16 units, a
missing array throws a TypeError that aborts the whole retrieval. Those
TypeErrors are reproduced with V8's message texts, because the CLI prints
them.

The full JSON level is never used by the budget (budget.ts) and cannot
throw for a parsed blob, so it is not built.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from ctxtui.engine.text.js import (
    UNDEFINED,
    JSError,
    call_join,
    call_slice,
    get,
    get_optional,
    is_nullish,
    js_ceil,
    to_number,
    to_string,
    truthy,
)


class Compressed(NamedTuple):
    """One memory at the two levels the budget uses; `error` when building them throws."""

    summary: Any  # the summary level: memory.summary when truthy (any JSON value), else the default text
    summary_tokens: float  # NaN when the summary has no numeric length (a number, an object)
    expanded: str
    expanded_tokens: float
    error: JSError | None = None


def tokens(text: Any) -> float:
    """`Math.ceil(text.length / 4)`, for whatever value `text` is."""
    if isinstance(text, str):
        return js_ceil(_utf16_units(text) / 4)
    return js_ceil(to_number(get(text, "length")) / 4)


def _utf16_units(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def compress(memory: dict[str, Any]) -> Compressed:
    """compress() (compression.ts:37-50), or the error it throws."""
    try:
        summary = memory.get("summary", UNDEFINED)
        if not truthy(summary):
            summary = default_summary(memory)
        expanded = expanded_text(memory)
        return Compressed(summary, tokens(summary), expanded, tokens(expanded))
    except JSError as error:
        return Compressed(UNDEFINED, math.nan, "", math.nan, error)


def _s(value: Any) -> str:
    return to_string(value)


def _opt_slice(value: Any, end: int, callee: str) -> Any:
    """`value?.slice(0, end)`."""
    return UNDEFINED if is_nullish(value) else call_slice(value, 0, end, callee)


def _length_or_zero(value: Any) -> str:
    """`${value?.length || 0}`."""
    length = get_optional(value, "length")
    return _s(length if truthy(length) else 0.0)


def default_summary(m: dict[str, Any]) -> str:
    """defaultSummary (compression.ts:215-259): the summary of a memory that has none."""
    t = m.get("type", UNDEFINED)
    g = m.get
    if t == "tribal" or t == "semantic":
        knowledge = _opt_slice(g("knowledge", UNDEFINED), 50, "memory.knowledge?.slice")
        return f"{'⚠️' if t == 'tribal' else '💡'} {_s(g('topic', UNDEFINED))}: {_s(knowledge)}..."
    if t == "procedural":
        return f"📋 {_s(g('name', UNDEFINED))}: {_length_or_zero(g('steps', UNDEFINED))} steps"
    if t == "pattern_rationale":
        rationale = _opt_slice(g("rationale", UNDEFINED), 50, "memory.rationale?.slice")
        return f"🎯 {_s(g('patternName', UNDEFINED))}: {_s(rationale)}..."
    if t == "constraint_override":
        return f"✅ Override: {_s(g('constraintName', UNDEFINED))}"
    if t == "code_smell":
        return f"🚫 Avoid: {_s(g('name', UNDEFINED))}"
    if t == "decision_context":
        decision = _opt_slice(g("decisionSummary", UNDEFINED), 50, "memory.decisionSummary?.slice")
        return f"📝 Decision: {_s(decision)}..."
    if t == "episodic":
        focus = get_optional(g("context", UNDEFINED), "focus")
        return f"💭 {_s(focus) if truthy(focus) else 'Interaction'}"
    if t == "core":
        name = get_optional(g("project", UNDEFINED), "name")
        return f"🏠 {_s(name) if truthy(name) else 'Project'}"
    if t == "agent_spawn":
        return f"🤖 {_s(g('name', UNDEFINED))}: {_length_or_zero(g('tools', UNDEFINED))} tools"
    if t == "entity":
        return f"📦 {_s(g('entityType', UNDEFINED))}: {_s(g('name', UNDEFINED))}"
    if t == "goal":
        return f"🎯 {_s(g('title', UNDEFINED))}: {_s(g('progress', UNDEFINED))}% ({_s(g('status', UNDEFINED))})"
    if t == "workflow":
        return f"📋 {_s(g('name', UNDEFINED))}: {_length_or_zero(g('steps', UNDEFINED))} steps"
    if t == "conversation":
        return f"💬 {_s(g('title', UNDEFINED))}: {_length_or_zero(g('participants', UNDEFINED))} participants"
    if t == "feedback":
        rule = _opt_slice(g("extractedRule", UNDEFINED), 40, "memory.extractedRule?.slice")
        if not truthy(rule):
            rule = _opt_slice(g("correction", UNDEFINED), 40, "memory.correction?.slice")
        return f"📝 {_s(g('feedbackType', UNDEFINED))}: {_s(rule)}..."
    if t == "incident":
        return f"🚨 {_s(g('severity', UNDEFINED))}: {_s(g('title', UNDEFINED))}"
    if t == "meeting":
        return f"📅 {_s(g('meetingType', UNDEFINED))}: {_s(g('title', UNDEFINED))}"
    if t == "skill":
        return f"🧠 {_s(g('name', UNDEFINED))}: {_s(g('proficiencyLevel', UNDEFINED))}"
    if t == "environment":
        return f"🌍 {_s(g('environmentType', UNDEFINED))}: {_s(g('name', UNDEFINED))}"
    return "Memory"


def _join_field(m: dict[str, Any], key: str, separator: str) -> str:
    """`memory.<key>.join(separator)`."""
    return call_join(m.get(key, UNDEFINED), separator, f"memory.{key}.join")


def _has_length(value: Any) -> bool:
    """`value?.length` is truthy."""
    return truthy(get_optional(value, "length"))


def expanded_text(m: dict[str, Any]) -> str:
    """generateExpanded (compression.ts:62-210): the raw summary, then the type's lines, joined by newlines."""
    t = m.get("type", UNDEFINED)
    g = m.get
    parts: list[Any] = [g("summary", UNDEFINED)]
    add = parts.append
    if t == "tribal":
        add(f"Topic: {_s(g('topic', UNDEFINED))}")
        add(f"Knowledge: {_s(g('knowledge', UNDEFINED))}")
        if _has_length(g("warnings", UNDEFINED)):
            add(f"Warnings: {_join_field(m, 'warnings', ', ')}")
    elif t == "procedural":
        steps = g("steps", UNDEFINED)
        add(f"Procedure: {_s(g('name', UNDEFINED))}")
        add(f"Steps: {_length_or_zero(steps)}")
        if _has_length(steps):
            add(f"First step: {_s(get_optional(get(steps, '0'), 'action'))}")
    elif t == "semantic":
        add(f"Topic: {_s(g('topic', UNDEFINED))}")
        add(f"Knowledge: {_s(g('knowledge', UNDEFINED))}")
    elif t == "pattern_rationale":
        add(f"Pattern: {_s(g('patternName', UNDEFINED))}")
        add(f"Rationale: {_s(g('rationale', UNDEFINED))}")
    elif t == "constraint_override":
        add(f"Constraint: {_s(g('constraintName', UNDEFINED))}")
        add(f"Reason: {_s(g('reason', UNDEFINED))}")
    elif t == "code_smell":
        add(f"Smell: {_s(g('name', UNDEFINED))}")
        add(f"Reason: {_s(g('reason', UNDEFINED))}")
        add(f"Suggestion: {_s(g('suggestion', UNDEFINED))}")
    elif t == "decision_context":
        add(f"Decision: {_s(g('decisionSummary', UNDEFINED))}")
        if truthy(g("businessContext", UNDEFINED)):
            add(f"Context: {_s(g('businessContext', UNDEFINED))}")
    elif t == "episodic":
        interaction = g("interaction", UNDEFINED)
        if truthy(interaction):
            query = _opt_slice(get(interaction, "userQuery"), 100, "memory.interaction.userQuery?.slice")
            add(f"Query: {_s(query) if truthy(query) else 'N/A'}")
            outcome = get(interaction, "outcome")
            add(f"Outcome: {_s(outcome) if truthy(outcome) else 'unknown'}")
    elif t == "core":
        project = g("project", UNDEFINED)
        add(f"Project: {_s(get(project, 'name'))}")
        add(f"Stack: {call_join(get(project, 'techStack'), ', ', 'memory.project.techStack.join')}")
    elif t == "agent_spawn":
        add(f"Agent: {_s(g('name', UNDEFINED))}")
        add(f"Description: {_s(g('description', UNDEFINED))}")
        add(f"Tools: {_join_field(m, 'tools', ', ')}")
        add(f"Triggers: {_join_field(m, 'triggerPatterns', ', ')}")
    elif t == "entity":
        add(f"{_s(g('entityType', UNDEFINED))}: {_s(g('name', UNDEFINED))}")
        add(f"Status: {_s(g('status', UNDEFINED))}")
        add(f"Facts: {_join_field(m, 'keyFacts', '. ')}")
        if _has_length(g("warnings", UNDEFINED)):
            add(f"Warnings: {_join_field(m, 'warnings', ', ')}")
    elif t == "goal":
        add(f"Goal: {_s(g('title', UNDEFINED))}")
        add(f"Status: {_s(g('status', UNDEFINED))} ({_s(g('progress', UNDEFINED))}%)")
        add(f"Description: {_s(g('description', UNDEFINED))}")
        if _has_length(g("blockers", UNDEFINED)):
            add(f"Blockers: {_s(get(g('blockers', UNDEFINED), 'length'))}")
    elif t == "feedback":
        add(f"Type: {_s(g('feedbackType', UNDEFINED))}")
        add(f"Correction: {_s(g('correction', UNDEFINED))}")
        if truthy(g("extractedRule", UNDEFINED)):
            add(f"Rule: {_s(g('extractedRule', UNDEFINED))}")
    elif t == "workflow":
        add(f"Workflow: {_s(g('name', UNDEFINED))}")
        add(f"Steps: {_s(get(g('steps', UNDEFINED), 'length'))}")
        add(f"Triggers: {_join_field(m, 'triggerPhrases', ', ')}")
    elif t == "conversation":
        add(f"Conversation: {_s(g('title', UNDEFINED))}")
        add(f"Participants: {_join_field(m, 'participants', ', ')}")
        add(f"Summary: {_s(g('conversationSummary', UNDEFINED))}")
        if _has_length(g("keyDecisions", UNDEFINED)):
            add(f"Decisions: {_join_field(m, 'keyDecisions', '; ')}")
    elif t == "incident":
        add(f"Incident: {_s(g('title', UNDEFINED))}")
        add(f"Severity: {_s(g('severity', UNDEFINED))}")
        add(f"Impact: {_s(g('impact', UNDEFINED))}")
        if truthy(g("rootCause", UNDEFINED)):
            add(f"Root cause: {_s(g('rootCause', UNDEFINED))}")
        add(f"Lessons: {_join_field(m, 'lessonsLearned', '; ')}")
    elif t == "meeting":
        add(f"Meeting: {_s(g('title', UNDEFINED))}")
        add(f"Type: {_s(g('meetingType', UNDEFINED))}")
        add(f"Summary: {_s(g('meetingSummary', UNDEFINED))}")
        if _has_length(g("decisions", UNDEFINED)):
            add(f"Decisions: {_join_field(m, 'decisions', '; ')}")
    elif t == "skill":
        add(f"Skill: {_s(g('name', UNDEFINED))}")
        add(f"Domain: {_s(g('domain', UNDEFINED))}")
        add(f"Level: {_s(g('proficiencyLevel', UNDEFINED))}")
        if _has_length(g("keyPrinciples", UNDEFINED)):
            add(f"Principles: {_join_field(m, 'keyPrinciples', '; ')}")
    elif t == "environment":
        add(f"Environment: {_s(g('name', UNDEFINED))}")
        add(f"Type: {_s(g('environmentType', UNDEFINED))}")
        add(f"Warnings: {_join_field(m, 'warnings', '; ')}")
        if truthy(g("accessInstructions", UNDEFINED)):
            add(f"Access: {_s(g('accessInstructions', UNDEFINED))}")
    # Array.prototype.join: undefined and null print as ""
    return "\n".join("" if is_nullish(part) else _s(part) for part in parts)
