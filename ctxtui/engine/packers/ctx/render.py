"""Render a packet as ctx prints it: Markdown or Go-encoded JSON, byte for byte."""

from __future__ import annotations

from ctxtui.engine.packers.ctx.state import CtxPacket
from ctxtui.engine.text.go import go_json_string

FORMATS = ("md", "json")


def render_packet(packet: CtxPacket, fmt: str) -> str:
    """`fmt` is "md" or "json"."""
    if fmt == "json":
        return to_json(packet)
    if fmt == "md":
        return to_markdown(packet)
    raise ValueError(f"unknown format {fmt!r}: ctx prints {' or '.join(FORMATS)}")


def to_markdown(packet: CtxPacket) -> str:
    """The `ctx agent` Markdown format (spec: "Markdown output")."""
    out = [
        "# Context Packet\n",
        f"Generated: {packet.generated} | Budget: {packet.budget} tokens | Used: ~{packet.tokens_used} tokens\n\n",
        "## Read These Files\n",
    ]
    out += [f"{n}. {path}\n" for n, path in enumerate(packet.read_order, start=1)]
    out.append("\n")

    def listed(heading: str, items: list[str] | None, prefix: str = "") -> None:
        if items:
            out.append(f"## {heading}\n")
            out.extend(f"{prefix}{item}\n" for item in items)
            out.append("\n")

    def blocks(heading: str, items: list[str]) -> None:
        if items:
            out.append(f"## {heading}\n")
            out.extend(f"{item}\n\n" for item in items)

    listed("Constitution (NEVER VIOLATE)", packet.constitution, "- ")
    listed("Current Tasks", packet.tasks)
    listed("Key Conventions", packet.conventions, "- ")
    blocks("Recent Decisions", packet.decisions)
    blocks("Key Learnings", packet.learnings)
    blocks("Memories", packet.memories)
    listed("Also Noted", packet.summaries, "- ")
    blocks("Steering", packet.steering)
    if packet.skill:
        out.append(f"## Skill\n{packet.skill}\n\n")
    out.append(packet.instruction + "\n")
    return "".join(out)


def to_json(packet: CtxPacket) -> str:
    """The `ctx agent --format json` output: Go's encoder, two-space indent."""
    fields: list[tuple[str, object]] = [
        ("generated", packet.generated),
        ("budget", packet.budget),
        ("tokens_used", packet.tokens_used),
        ("read_order", packet.read_order or None),
        ("constitution", packet.constitution),
        ("tasks", packet.tasks or None),
        ("conventions", packet.conventions or None),
        ("decisions", packet.decisions or None),
    ]
    for key in ("learnings", "memories", "summaries", "steering", "skill"):
        value = getattr(packet, key)
        if value:
            fields.append((key, value))
    fields.append(("instruction", packet.instruction))
    lines = ["{"]
    for n, (key, value) in enumerate(fields):
        comma = "," if n < len(fields) - 1 else ""
        lines.append(f'  "{key}": {_value(value)}{comma}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _value(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return go_json_string(value)
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = ",\n".join(f"    {_value(item)}" for item in value)
        return "[\n" + inner + "\n  ]"
    raise TypeError(f"cannot encode {type(value).__name__}")
