"""What `shabka context-pack` prints for a pack: Markdown text or pretty JSON, plus `println!`'s newline.

Text is `format_context_pack` (`core/context_pack.rs:42-81`): a header that
says `{n} memories` whatever n is, each memory as `## [{kind}] {title}`, a
meta line with the UTC date, the importance in Rust's f32 Display and the
tags joined by ", ", then the content raw; `---` between memories; the whole
trimmed of trailing Unicode White_Space once, at the very end.

JSON is `serde_json::to_string_pretty(&ContextPack)`: two-space indent, the
fields of `ContextPack` and `Memory` in struct order, strings escaped as
serde_json escapes them (quote, backslash, \\b \\f \\n \\r \\t, other controls as
lowercase \\u00xx; nothing else), the importance as zmij writes an f32, dates
as chrono serialises `DateTime<Utc>`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ctxtui.engine.packers.shabka.dates import format_date, format_rfc3339
from ctxtui.engine.packers.shabka.floats import rust_display, serde_json_f32
from ctxtui.engine.packers.shabka.memory import Memory
from ctxtui.engine.packers.shabka.rank import WHITE_SPACE

EMPTY_PACK_NOTICE = "\x1b[2mNo memories fit within the token budget.\x1b[0m"  # owo-colors .dimmed(), always on


def estimate_tokens(text: str) -> int:
    """`estimate_tokens` (`core/tokens.rs:5-7`): UTF-8 bytes / 4, rounded up."""
    return -(-len(text.encode("utf-8", "surrogatepass")) // 4)


def memory_cost(title: str, content: str, tags: Sequence[str]) -> int:
    """`estimate_memory_tokens` (`core/tokens.rs:11-16`): three separate ceilings plus 20; the summary is free."""
    return estimate_tokens(title) + estimate_tokens(content) + estimate_tokens(", ".join(tags)) + 20


def memory_block(memory: Memory) -> str:
    """One memory as the text pack prints it, without the blank line that follows."""
    tags = f" | tags: {', '.join(memory.tags)}" if memory.tags else ""
    return (
        f"## [{memory.kind}] {memory.title}\n"
        f"*{format_date(memory.created_at)} | importance: {rust_display(memory.importance)}{tags}*\n\n"
        f"{memory.content}"
    )


def header(project: str | None, count: int, total: int) -> str:
    return f"# Project Context: {project if project is not None else 'all'} ({count} memories, ~{total} tokens)"


def render_text(memories: Sequence[Memory], total: int, project: str | None) -> str:
    """`format_context_pack` and `println!`; "" for an empty pack (Shabka prints nothing on stdout then)."""
    if not memories:
        return ""
    out = [header(project, len(memories), total), "\n\n"]
    for i, memory in enumerate(memories):
        if i:
            out.append("---\n\n")
        out.append(memory_block(memory))
        out.append("\n\n")
    return "".join(out).rstrip(WHITE_SPACE) + "\n"


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ESCAPE_TABLE = str.maketrans({**{chr(c): f"\\u{c:04x}" for c in range(0x20)}, **_ESCAPES})


def json_string(text: str) -> str:
    return '"' + text.translate(_ESCAPE_TABLE) + '"'


def _object(pairs: Sequence[tuple[str, str]], indent: str) -> str:
    inner = indent + "  "
    return "{\n" + ",\n".join(f"{inner}{json_string(k)}: {v}" for k, v in pairs) + f"\n{indent}}}"


def _strings(items: Sequence[str], indent: str) -> str:
    if not items:
        return "[]"
    inner = indent + "  "
    return "[\n" + ",\n".join(inner + json_string(item) for item in items) + f"\n{indent}]"


def _optional(text: str | None) -> str:
    return "null" if text is None else json_string(text)


def memory_json(memory: Memory, indent: str) -> str:
    """`Memory` pretty-printed at `indent`, fields in struct order (`model/memory.rs:66-86`)."""
    inner = indent + "  "
    fields = [
        ("id", json_string(memory.id)),
        ("kind", json_string(memory.kind)),
        ("title", json_string(memory.title)),
        ("content", json_string(memory.content)),
        ("summary", json_string(memory.summary)),
        ("tags", _strings(memory.tags, inner)),
        ("source", _object([(k, json_string(v)) for k, v in memory.source], inner)),
        ("scope", _object([(k, json_string(v)) for k, v in memory.scope], inner)),
        ("importance", serde_json_f32(memory.importance)),
        ("status", json_string(memory.status)),
        ("privacy", json_string(memory.privacy)),
        ("verification", json_string(memory.verification)),
        ("project_id", _optional(memory.project_id)),
        ("session_id", _optional(memory.session_id)),
        ("created_by", json_string(memory.created_by)),
        ("created_at", json_string(format_rfc3339(memory.created_at))),
        ("updated_at", json_string(format_rfc3339(memory.updated_at))),
        ("accessed_at", json_string(format_rfc3339(memory.accessed_at))),
    ]
    return _object(fields, indent)


def render_json(memories: Sequence[Memory], total: int, budget: int, project: str | None) -> str:
    """`serde_json::to_string_pretty(&pack)` and `println!`; "" for an empty pack."""
    if not memories:
        return ""
    listed = "[\n" + ",\n".join("    " + memory_json(m, "    ") for m in memories) + "\n  ]"
    return (
        _object(
            [
                ("memories", listed),
                ("total_tokens", str(total)),
                ("budget", str(budget)),
                ("project_id", _optional(project)),
            ],
            "",
        )
        + "\n"
    )
