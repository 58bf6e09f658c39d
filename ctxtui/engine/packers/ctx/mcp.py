"""ctx's second packet: the MCP resource `ctx://context/agent`, whole files in read order.

Agents that reach ctx over MCP (`ctx mcp serve`) get `readAgentPacket`
(`internal/mcp/server/resource/resource.go:72` at ce5a832, the same in
0.8.0): a `# Context Packet` header, then each non-empty read-order file in
full as a section, if the running total plus the section's estimate stays
within the budget — a file that does not fit is skipped and the loop goes on
(unlike `ctx agent`'s stop at the first misfit) — and the skipped files listed
under "Also Noted". A budget of zero or less means no limit. The strings are
ctx's (`internal/assets/commands/text/mcp.yaml`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Bucket, Entry, Outcome, Plan
from ctxtui.engine.packers.base import INCLUDED, Packer
from ctxtui.engine.reason_numbers import PrefixFit
from ctxtui.engine.sources.context import ParsedContext
from ctxtui.engine.text.tokens import estimate

HEADER = "# Context Packet\n\n"
ALSO_NOTED = "---\n## Also Noted\n\n"


def section_text(name: str, content: str) -> str:
    """`mcp.format-section`: a file as one section of the packet."""
    return f"---\n## {name}\n\n{content}\n\n"


class McpReason(str, Enum):
    """Why a file is in the MCP packet or not."""

    FITS = "fits"  # running total + this section ≤ budget
    NO_LIMIT = "no-limit"  # a budget of 0 or less means no limit
    SKIPPED = "skipped"  # would pass the budget: skipped, and the loop goes on


@dataclass(slots=True)
class McpState:
    """Which files went in, and the running total each one was tried at."""

    included: list[bool]
    used_before: list[int]


class McpPacker(Packer):
    """`readAgentPacket` over one parsed workspace."""

    name = "ctx-mcp"
    title = "ctx MCP agent packet"
    formats = ("md",)

    def __init__(self, parsed: ParsedContext, *, label: str = ".context") -> None:
        self.header_tokens = estimate(HEADER)
        files: list[Entry] = []
        for name in parsed.read_order_names:
            content = parsed.files.texts[name]
            text = section_text(name, content)
            files.append(
                Entry(
                    key=f"file:{label}/{name}",
                    section="files",
                    title=name,
                    text=text,
                    tokens=estimate(text),
                    source=f"{label}/{name}",
                )
            )
        self.files = files

    def plan(self, budget: int) -> Plan:
        used = self.header_tokens
        included: list[bool] = []
        before: list[int] = []
        for entry in self.files:
            before.append(used)
            fits = budget <= 0 or used + entry.tokens <= budget
            included.append(fits)
            if fits:
                used += entry.tokens
        return Plan(self, budget, used, McpState(included, before))

    def render(self, plan: Plan, fmt: str) -> str:
        if fmt != "md":
            raise ValueError("the MCP packet is Markdown text only")
        state: McpState = plan.state
        out = [HEADER]
        out += [entry.text for entry, kept in zip(self.files, state.included, strict=True) if kept]
        skipped = [entry.title for entry, kept in zip(self.files, state.included, strict=True) if not kept]
        if skipped:
            out.append(ALSO_NOTED)
            out += [f"- {name} (omitted for budget)\n" for name in skipped]
            out.append("\n")
        return "".join(out)

    def candidates(self) -> Sequence[Entry]:
        return self.files

    def fate_vector(self, plan: Plan) -> bytearray:
        return bytearray(INCLUDED if kept else 0 for kept in plan.state.included)

    def outcomes(self, plan: Plan) -> list[Outcome]:
        state: McpState = plan.state
        out = []
        for tier, (entry, kept, used) in enumerate(
            zip(self.files, state.included, state.used_before, strict=True), start=1
        ):
            numbers = PrefixFit(cap=plan.budget, used_before=used, needs=entry.tokens, budget=plan.budget)
            if plan.budget <= 0:
                out.append(Outcome(entry, tier, Fate.INCLUDED, McpReason.NO_LIMIT, numbers))
            elif kept:
                out.append(Outcome(entry, tier, Fate.INCLUDED, McpReason.FITS, numbers))
            else:
                out.append(Outcome(entry, tier, Fate.DROPPED, McpReason.SKIPPED, numbers))
        return out

    def buckets(self, plan: Plan) -> list[Bucket]:
        state: McpState = plan.state
        bars = [Bucket(0, "header", None, self.header_tokens)]
        for tier, (entry, kept, used) in enumerate(
            zip(self.files, state.included, state.used_before, strict=True), start=1
        ):
            cap = None if plan.budget <= 0 else max(0, plan.budget - used)
            bars.append(Bucket(tier, entry.title, cap, entry.tokens if kept else 0))
        return bars

    def next_change(self, plan: Plan) -> int | None:
        """Decisions hold until a skipped file would fit the total it was tried at."""
        if plan.budget <= 0:
            return 1
        state: McpState = plan.state
        waiting = [
            used + entry.tokens
            for entry, kept, used in zip(self.files, state.included, state.used_before, strict=True)
            if not kept
        ]
        return min(waiting) if waiting else None
