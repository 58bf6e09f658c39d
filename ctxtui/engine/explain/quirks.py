"""Which of ctx's quirks affect this workspace, with counts.

The spec lists ten behaviours of ctx 0.8.1 that surprise users. ctxtui
reproduces them (the packet must be what the agent really gets) and says,
for this workspace and budget, which ones are at work and how much.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ctxtui.engine.model import Entry, Plan
from ctxtui.engine.packers.ctx.assemble import CtxPacker
from ctxtui.engine.text.tokens import estimate_list

_COMMENT = re.compile(r"<!--.*?-->", re.S)
_FENCE = re.compile(r"^[ \t]*(```|~~~)", re.M)


@dataclass(frozen=True, slots=True)
class Quirk:
    number: int  # as numbered in the spec's "Quirks the TUI should surface"
    title: str
    detail: str
    count: int


def _line_spans(text: str, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """1-based line ranges covered by each match of `pattern`."""
    spans = []
    for match in pattern.finditer(text):
        first = text.count("\n", 0, match.start()) + 1
        spans.append((first, first + match.group().count("\n")))
    return spans


def _fence_spans(text: str) -> list[tuple[int, int]]:
    lines = [text.count("\n", 0, m.start()) + 1 for m in _FENCE.finditer(text)]
    return [(lines[i], lines[i + 1]) for i in range(0, len(lines) - 1, 2)]


def _line(entry: Entry) -> int:
    return int(entry.source.rsplit(":", 1)[1])


def _inside(entries: Sequence[Entry], spans: list[tuple[int, int]]) -> int:
    return sum(1 for e in entries if any(lo <= _line(e) <= hi for lo, hi in spans))


def find_quirks(engine: CtxPacker, plan: Plan) -> list[Quirk]:
    """The quirks at work in this workspace at this plan's budget."""
    packet = engine.packet(plan)
    parsed = engine.parsed
    texts = parsed.files.texts
    found: list[Quirk] = []

    def add(number: int, title: str, detail: str, count: int) -> None:
        if count and number:
            found.append(Quirk(number, title, detail, count))

    rules = len(parsed.constitution_candidates)
    if parsed.constitution is not None and not parsed.constitution:
        add(
            1,
            "Constitution never reaches the packet",
            f"CONSTITUTION.md has {_count(rules, 'rule', 'rules')}; none reach the packet (ctx's pattern only matches a one-line file)",
            rules,
        )

    conventions_text = texts.get("CONVENTIONS.md", "")
    odd = [c for c in parsed.conventions if c.text.startswith(("-", ">"))]
    comment_spans = _line_spans(conventions_text, _COMMENT)
    commented = [c for c in parsed.conventions if c not in odd and _inside([c], comment_spans)]
    add(
        2,
        "Odd conventions",
        _join(
            [
                _count(len(commented), "bullet inside HTML comments", "bullets inside HTML comments"),
                _count(len(odd), "bullet like `--`/`->`", "bullets like `--`/`->`"),
            ]
        )
        + " count as conventions",
        len(commented) + len(odd),
    )

    tasks_text = texts.get("TASKS.md", "")
    hidden = _inside(parsed.tasks, _line_spans(tasks_text, _COMMENT) + _fence_spans(tasks_text))
    nested = len(re.findall(r"^[ \t]+-[ \t]*\[ ?\]", tasks_text, re.M))
    add(
        3,
        "Hidden and nested tasks",
        "; ".join(
            part
            for part in (
                _count(
                    hidden,
                    "task sits inside an HTML comment or code fence",
                    "tasks sit inside HTML comments or code fences",
                ),
                _count(nested, "nested task is flattened", "nested tasks are flattened"),
            )
            if part
        ),
        hidden + nested,
    )

    budget = packet.budget
    over = [bar for bar in plan.buckets if bar.overrun]
    if engine.tier1 > budget:
        add(4, "Over budget by force", f"tier 1 alone costs {engine.tier1:,} tokens, above the budget of {budget:,}", 1)
    elif over:
        add(
            4,
            "Over budget by force",
            "forced first item over its cap in: " + ", ".join(f"{bar.name} (+{bar.overrun:,})" for bar in over),
            len(over),
        )

    summary_tokens = sum(bar.summarized for bar in plan.buckets)
    if packet.summaries:
        add(
            5,
            "Also Noted is never budgeted",
            f"{len(packet.summaries)} titles cost {summary_tokens:,} tokens after the budget; used {packet.tokens_used:,} of {budget:,}",
            len(packet.summaries),
        )

    state = plan.state
    sizes = dict(zip(engine.section_names, engine.section_sizes, strict=True))
    if packet.summaries and state.sections and all(fill.share >= sizes[fill.name] for fill in state.sections):
        add(
            6,
            "Summarized although everything fits",
            f"{len(packet.summaries)} entries are summarized (titles only) while their sections got all the tokens they asked for",
            len(packet.summaries),
        )

    add(
        7 if engine.version.absolute_paths else 0,
        "Absolute read-order paths",
        f"the {len(packet.read_order)} read-order paths cost {estimate_list(packet.read_order):,} tokens "
        "and change with the project's location",
        len(packet.read_order),
    )

    status = sum(
        1
        for e in [*parsed.decisions, *parsed.learnings]
        if not e.superseded and re.search(r"\*\*Status\*\*:\s*Superseded", e.text, re.I)
    )
    add(
        8,
        "Undetected superseded entries",
        _count(status, "entry says", "entries say") + " **Status**: Superseded but still ranks normally",
        status,
    )

    if parsed.files.steering_error is not None and engine.version.steering:
        add(9, "All steering disabled", f"{parsed.files.steering_error}", len(parsed.steering) or 1)

    odd_headers = sum(1 for e in [*parsed.decisions, *parsed.learnings] if not e.text.startswith("## ["))
    add(
        10,
        "Odd entry headers",
        _count(odd_headers, "entry starts", "entries start") + " at a `### [...]` or mid-line header",
        odd_headers,
    )

    saturated, ranked = relevance_saturation(engine, plan)
    if ranked >= 2 and saturated >= SATURATION_SHARE * ranked:
        add(
            11,
            "Relevance saturates",
            f"{saturated:,} of {ranked:,} ranked entries match 3 or more task keywords, the most relevance counts: "
            "among them only recency differs, and equal scores keep file order",
            saturated,
        )
    return found


SATURATION_SHARE = 0.75  # "most" ranked entries at relevance 1.0


def relevance_saturation(engine: CtxPacker, plan: Plan) -> tuple[int, int]:
    """(entries at relevance 1.0, entries ranked) among the active decisions, learnings and memories."""
    state = plan.state
    if state.stopped_after is not None and state.stopped_after <= 3:
        return 0, 0
    breakdowns = engine.breakdowns(state.task_count)
    ranked = [b for b in breakdowns if b.rank]
    return sum(1 for b in ranked if b.relevance >= 1.0 and not b.superseded), len(ranked)


def _count(n: int, one: str, many: str) -> str:
    """ "1 entry says", "3 entries say", or "" for none."""
    return "" if n == 0 else f"{n:,} {one if n == 1 else many}"


def _join(parts: list[str]) -> str:
    return " and ".join(part for part in parts if part)
