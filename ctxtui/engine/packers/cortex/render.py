"""`drift memory why` output, byte for byte: the text report, `--format json`, and its error lines.

All from `whyAction` (`cli/src/commands/memory.ts:1579-1677`, the CLI package
`driftdetect` 0.9.48):

- JSON (1623-1637): `JSON.stringify({focus, intent, tokensUsed,
  totalCandidates, retrievalTime, memories: [{id, type, summary,
  relevanceScore}]}, null, 2)`: `type` and `summary` are the blob's raw
  values, left out when missing; scores unrounded, NaN as null;
- text (1639-1668): a header with the *parsed* `--max-tokens` (not the budget
  used), then one group per type in `Object.entries(byType)` order (integer
  keys first), at most five memories each, `id.slice(0, 8)`, the raw
  summary through a template literal, `(score*100).toFixed(0)`;
- errors (1670-1676): `{"error":"<String(error)>"}` or `Error: <String(error)>`,
  exit status 0 either way; a text report that throws half-way keeps what it
  had printed;
- no database (1591-1597, 119-131): the "not initialized" message.

`byType` is built before the format is looked at (1614-1620), so a type
named like an Object.prototype member fails both formats. Colours (chalk)
are off, as they are whenever stdout is not a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ctxtui.engine.text.js import (
    OBJECT_PROTOTYPE_NAMES,
    UNDEFINED,
    JSError,
    call_slice,
    console_text,
    get,
    is_array_index,
    json_quote,
    json_stringify,
    number_to_string,
    to_fixed0,
    to_property_key,
    to_string,
    to_upper,
    type_error,
)

NOT_INITIALIZED_TEXT = (
    "\n⚠️  Memory system not initialized.\n\nInitialize the memory system:\n\n  drift memory init\n\n"
    'Or add your first memory:\n\n  drift memory add tribal "Always use bcrypt for password hashing"\n\n'
)
NOT_INITIALIZED_JSON = '{"error":"Memory system not initialized"}\n'

# MEMORY_TYPES[type].icon (memory.ts:49-76); anything else gets 📦.
ICONS = {
    "core": "🏠",
    "tribal": "⚠️",
    "procedural": "📋",
    "semantic": "💡",
    "episodic": "💭",
    "decision": "⚖️",
    "insight": "💎",
    "reference": "📚",
    "preference": "⭐",
    "pattern_rationale": "🎯",
    "constraint_override": "✅",
    "decision_context": "📝",
    "code_smell": "🚫",
    "agent_spawn": "🤖",
    "entity": "📦",
    "goal": "🎯",
    "feedback": "📝",
    "workflow": "📋",
    "conversation": "💬",
    "incident": "🚨",
    "meeting": "📅",
    "skill": "🧠",
    "environment": "🌍",
}
FALLBACK_ICON = "📦"
SHOWN_PER_TYPE = 5

Result = tuple[dict[str, Any], float]  # (memory, relevanceScore), in ranked order


def error_output(error: str, fmt: str) -> str:
    """The catch block (memory.ts:1670-1676); `error` is String(error)."""
    if fmt == "json":
        return '{"error":' + json_quote(error) + "}\n"
    return console_text(f"Error: {error}") + "\n"


def not_initialized(fmt: str) -> str:
    return NOT_INITIALIZED_JSON if fmt == "json" else NOT_INITIALIZED_TEXT


def group_by_type(results: Sequence[Result]) -> list[tuple[str, list[Result]]]:
    """`byType` (memory.ts:1614-1620) in Object.entries order; raises JSError as Cortex does."""
    groups: dict[str, list[Result]] = {}
    for result in results:
        key = to_property_key(result[0].get("type", UNDEFINED))
        if key in OBJECT_PROTOTYPE_NAMES:  # `byType[type]` is an inherited function or object: truthy, no push
            raise type_error("byType[type].push is not a function")
        groups.setdefault(key, []).append(result)
    indices = sorted((key for key in groups if is_array_index(key)), key=int)
    return [(key, groups[key]) for key in indices] + [(key, groups[key]) for key in groups if not is_array_index(key)]


def render_json(
    focus: str, intent: str, tokens_used: float, total_candidates: int, retrieval_time: float, results: Sequence[Result]
) -> str:
    memories = [
        {
            "id": memory.get("id", UNDEFINED),
            "type": memory.get("type", UNDEFINED),
            "summary": memory.get("summary", UNDEFINED),
            "relevanceScore": score,
        }
        for memory, score in results
    ]
    document = {
        "focus": focus,
        "intent": intent,
        "tokensUsed": tokens_used,
        "totalCandidates": float(total_candidates),
        "retrievalTime": retrieval_time,
        "memories": memories,
    }
    return json_stringify(document) + "\n"


def render_text(
    focus: str,
    intent: str,
    tokens_used: float,
    max_tokens: float,
    retrieval_time: float,
    groups: Sequence[tuple[str, Sequence[Result]]],
) -> str:
    lines = [
        "",
        f'🔍 Context for "{focus}"',
        "═" * 60,
        "",
        f"Intent: {intent} | Tokens: {number_to_string(tokens_used)}/{number_to_string(max_tokens)} | "
        f"Time: {number_to_string(retrieval_time)}ms",
        "",
    ]
    if not groups:
        lines += ["No relevant memories found.", ""]
        return _printed(lines)
    try:
        for key, members in groups:
            lines.append(f"{ICONS.get(key, FALLBACK_ICON)} {to_upper(key)}")
            lines.append("─" * 40)
            for memory, score in members[:SHOWN_PER_TYPE]:
                short_id = call_slice(get(memory, "id"), 0, 8, "m.memory.id.slice")
                lines.append(f"  {to_string(short_id)}... {to_string(memory.get('summary', UNDEFINED))}")
                lines.append(f"    Relevance: {to_fixed0(score * 100)}%")
            if len(members) > SHOWN_PER_TYPE:
                lines.append(f"  ... and {len(members) - SHOWN_PER_TYPE} more")
            lines.append("")
    except JSError as error:  # the lines already logged stay on stdout
        lines.append(f"Error: {error}")
    return _printed(lines)


def _printed(lines: list[str]) -> str:
    """Each console.log: the line, lone surrogates as U+FFFD, and a newline."""
    return "".join(console_text(line) + "\n" for line in lines)
