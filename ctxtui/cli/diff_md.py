"""`ctxtui diff --format md`: what a change does to the packet, ready to paste into a pull request."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine.fate import Fate
from ctxtui.safe_text import clean_line

if TYPE_CHECKING:
    from ctxtui.engine.explain.diff import FateChange, PlanDiff
    from ctxtui.engine.model import Plan

_RANK = {Fate.DROPPED: 0, Fate.SUMMARIZED: 1, Fate.INCLUDED: 2, None: -1}
_WORD = {Fate.INCLUDED: "in full", Fate.SUMMARIZED: "summarized", Fate.DROPPED: "dropped", None: "absent"}
SECTION_WORDS = {
    "tasks": ("task", "tasks"),
    "decisions": ("decision", "decisions"),
    "learnings": ("learning", "learnings"),
    "conventions": ("convention", "conventions"),
    "constitution": ("rule", "rules"),
    "steering": ("steering file", "steering files"),
}


def _count(n: int, section: str) -> str:
    one, many = SECTION_WORDS.get(section, ("entry", "entries"))
    return f"{n:,} {one if n == 1 else many}"


def _md(text: str) -> str:
    """An entry's title as one safe Markdown line: no control characters, no markup that could break the table."""
    return clean_line(text).replace("|", "\\|").replace("`", "'")[:100]


def _kind(change: FateChange) -> str:
    """What a change does to the packet, in the words of the headline."""
    was_in = change.before in (Fate.INCLUDED, Fate.SUMMARIZED)
    now_in = change.after in (Fate.INCLUDED, Fate.SUMMARIZED)
    if was_in and not now_in:
        return "drops"
    if change.before is Fate.INCLUDED and change.after is Fate.SUMMARIZED:
        return "cuts to a title"
    if change.after is Fate.INCLUDED:
        return "brings in full"
    if now_in:
        return "adds as a title"
    return "changes outside the packet"


KINDS = ("drops", "cuts to a title", "brings in full", "adds as a title", "changes outside the packet")


def _clause(kind: str, changes: list[FateChange]) -> str:
    by_section: dict[str, list[FateChange]] = {}
    for change in changes:
        by_section.setdefault(change.entry.section, []).append(change)
    what = ", ".join(_count(len(members), section) for section, members in by_section.items())
    names = "; ".join(_md(c.entry.title)[:50] for c in changes[:3]) + ("; …" if len(changes) > 3 else "")
    return f"{kind} {what} ({names})"


def pull_request_summary(diff: PlanDiff, before: Plan, after: Plan, from_rev: str | None, to_rev: str | None) -> str:
    """A headline sentence, the token change, and a table of every entry whose fate changes."""
    source = to_rev or "the working tree"
    target = from_rev or "the working tree"
    budget = after.budget
    lines = [f"### Context packet: {_md(source)} against {_md(target)}", ""]
    groups: dict[str, list[FateChange]] = {kind: [] for kind in KINDS}
    for change in diff.changed:
        groups[_kind(change)].append(change)
    if not diff.changed:
        lines.append(f"This change leaves every entry's fate in the packet at {budget:,} tokens as it was.")
    else:
        clauses = [_clause(kind, members) for kind, members in groups.items() if members]
        lines.append(f"At {budget:,} tokens this change {'; '.join(clauses)}.")
    used = diff.tokens_used
    lines += ["", f"Tokens used: {used.before:,} → {used.after:,} ({used.delta:+,}) at a budget of {budget:,}."]
    if diff.changed:
        lines += ["", "| entry | section | from | to |", "|---|---|---|---|"]
        ordered = [change for kind in KINDS for change in groups[kind]]
        for change in ordered[:200]:
            lines.append(
                f"| {_md(change.entry.title)} | {change.entry.section} | {_WORD[change.before]} | {_WORD[change.after]} |"
            )
        if len(diff.changed) > 200:
            lines.append(f"| … {len(diff.changed) - 200:,} more | | | |")
    moved = [(name, shift) for name, shift in diff.buckets.items() if shift.delta]
    if moved:
        lines += [
            "",
            "Tokens by section: " + "; ".join(f"{n} {s.before:,} → {s.after:,} ({s.delta:+,})" for n, s in moved),
        ]
    return "\n".join(lines) + "\n"
