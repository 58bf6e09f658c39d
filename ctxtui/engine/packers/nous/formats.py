"""nous's section formats and cut rules, as ContextEngine applies them (context.py @47939528).

Each formatter turns one memory row into the text nous prints for it; the
section text is the items joined by a newline (blocks by a blank line for
Recommended Procedures). Line numbers cite the rebuilt
/work/oracles/nous/src/nous/cognitive/context.py.

Cut rules, per section (notes/nous.md §2.2-2.3):
- mid-text (`_truncate_to_budget`, :1916-1921): Related Decisions, Relevant
  Facts, Known Procedures, Past Episodes: when the text is longer than
  budget × 4 characters it becomes `text[:budget*4-3] + "..."`, exactly
  budget × 4 characters — a raw slice that can split a line or a word;
- whole blocks (:1212-1222): Recommended Procedures (the default graph
  path) shows the first block always, then adds blocks while
  used + max(1, len//4) ≤ budget, and stops at the first that does not fit;
- none: Recent Conversations is not budgeted at all (:1466-1525).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ctxtui.engine.sources.memory.nous.model import NousRow

CHARS_PER_TOKEN = 4  # ContextEngine.CHARS_PER_TOKEN (:177)
ELLIPSIS = "..."
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def estimate_tokens(text: str) -> int:
    """`_estimate_tokens` (:1912-1914): max(1, len // 4), in code points."""
    return max(1, len(text) // CHARS_PER_TOKEN)


def logged_tokens(text: str) -> int:
    """What `context_log.token_breakdown` stores for a section: len(stripped) // 4, 0 for empty."""
    return len(text.strip()) // CHARS_PER_TOKEN


def truncate_to_budget(text: str, budget: int) -> str:
    """`_truncate_to_budget` (:1916-1921)."""
    max_chars = budget * CHARS_PER_TOKEN
    if len(text) <= max_chars:
        return text
    return text[: max_chars - 3] + ELLIPSIS


def cut_point(text_len: int, budget: int) -> int | None:
    """Where `truncate_to_budget` slices a text of `text_len` characters: None when it fits whole."""
    max_chars = budget * CHARS_PER_TOKEN
    if text_len <= max_chars:
        return None
    keep = max_chars - 3
    return keep if keep >= 0 else max(0, text_len + keep)  # Python's slice of a negative end


def _conf(value: Any, default: float) -> float:
    try:
        return float(value) if value is not None else default
    except (TypeError, ValueError):
        return default


def decision_line(row: NousRow) -> str:
    """`_format_decisions` (:1953-1965): `- [{outcome}] {description} (confidence: {c:.2f})`."""
    outcome = row.get("outcome") or "pending"
    return f"- [{outcome}] {row.get('description', '')} (confidence: {_conf(row.get('confidence'), 0.0):.2f})"


def fact_line(row: NousRow, index: int, max_chars: int = 200, full_top_n: int = 0) -> str:
    """`_format_facts` (:2023-2074) with the recency resolver, lineage and override marks off (nous's defaults).

    A fact at position ≥ full_top_n longer than max_chars is cut at a word
    boundary: `content[:max_chars].rsplit(" ", 1)[0] + "..."` (:2045-2047).
    The subject goes in brackets with no colon (`- [subject] content`,
    :2065), whatever the docstring says.
    """
    content = str(row.get("content", ""))
    if index >= full_top_n and len(content) > max_chars:
        content = content[:max_chars].rsplit(" ", 1)[0] + ELLIPSIS
    conf = _conf(row.get("confidence"), 1.0)
    subject = row.get("subject")
    if subject:
        return f"- [{subject}] {content} [confidence: {conf:.2f}]"
    return f"- {content} [confidence: {conf:.2f}]"


def effectiveness(row: NousRow) -> float | None:
    """`ProcedureManager._compute_effectiveness` (heart/procedures.py): (s+1)/(s+f+2), None when s+f = 0."""
    success = _count(row.get("success_count"))
    failure = _count(row.get("failure_count"))
    if success + failure == 0:
        return None
    return (success + 1) / (success + failure + 2)


def _count(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def procedure_line(row: NousRow) -> str:
    """`_format_procedures` (context.py:2076-2088), the passive path's Known Procedures list.

    `, effectiveness: N%` (`{eff:.0%}`) follows from the stored success and
    failure counts; nothing is printed for a procedure with neither.
    """
    domain = row.get("domain") or "general"
    desc = row.get("description") or ""
    desc_str = f": {desc} | " if desc else ": "
    eff = effectiveness(row)
    eff_str = f", effectiveness: {eff:.0%}" if eff is not None else ""
    return f"- **{row.get('name', '')}** ({domain}){desc_str}activated {row.get('activation_count', 0)}x{eff_str}"


def critic_pointer(names: list[str]) -> str | None:
    """The passive path's one line for the critic's picks when the Procedure Catalog rendered (context.py:1418-1442).

    Labelled Recommended Procedures, names only (whitespace collapsed,
    `_one_line`), never cut by the budget; None when no pick has a name.
    """
    shown = [" ".join(str(n).split()) for n in names if n]
    if not shown:
        return None
    return (
        "★ Recommended for this task (see your Procedure Catalog): "
        + ", ".join(f"`{n}`" for n in shown)
        + " — load with get_procedure before acting."
    )


def procedure_block(row: NousRow, per_item_cap: int = 2500) -> str:
    """`_format_procedure_bodies` (:2262-2349): one Recommended Procedures block, stubbed when over the cap."""
    name = row.get("name", "")
    domain = row.get("domain") or "general"
    parts = [f"### {name} ({domain})"]
    desc = row.get("description")
    if desc:
        parts.append(desc)
    notes = row.get("implementation_notes") or ()
    body = "\n".join(str(n) for n in notes if not str(n).startswith(("source:", "version:")))
    if body:
        parts.append(body)
    if "skill" not in (row.get("tags") or ()):
        patterns = row.get("core_patterns") or ()
        goals = row.get("goals") or ()
        if patterns:
            parts.append("Patterns: " + "; ".join(str(x) for x in patterns))
        if goals:
            parts.append("Goals: " + "; ".join(str(x) for x in goals))
    block = "\n\n".join(parts)
    if len(block) <= per_item_cap:
        return block
    sep = len("\n\n")
    heading = f"### {name} ({domain})"
    pointer = (
        f"[Full skill body exceeds preview budget — call get_procedure('{name}') to load the steps before acting.]"
    )
    if len(pointer) >= per_item_cap:
        return pointer
    stub: list[str] = []
    remaining = per_item_cap - len(pointer)
    if len(heading) + sep <= remaining:
        stub.append(heading)
        remaining -= len(heading) + sep
    if desc and remaining > sep + 1:
        desc_budget = remaining - sep
        if len(desc) > desc_budget:
            desc = desc[: desc_budget - 1].rstrip() + "…"
        if desc:
            stub.append(desc)
    stub.append(pointer)
    return "\n\n".join(stub)


def _date(value: Any) -> str | None:
    return value.strftime("%Y-%m-%d") if isinstance(value, datetime) else None


def episode_line(row: NousRow) -> str | None:
    """`_format_episodes` (:2351-2365); None for an abandoned episode, which nous skips (:2361-2362)."""
    outcome = row.get("outcome") or "ongoing"
    if outcome == "abandoned":
        return None
    return f"- [{outcome}] {row.get('summary', '')} ({_date(row.get('started_at')) or 'unknown'})"


def recent_lines(row: NousRow, temporal_boost: bool = False, first: bool = False, parent_truncate: int = 500) -> str:
    """One Recent Conversations item (:1488-1512): `- [Mon DD HH:MM] title`, plus a second line or two.

    `first`: the first episode of a first turn with NOUS_FOLLOWUP_FIRST_TURN_EPISODE
    (F083 A2, :1491-1509) adds its structured summary (else its summary) cut
    to `parent_truncate` characters, when it is not the title, and
    `  Open threads: a; b` from up to five string or number threads; this
    wins over `temporal_boost`, which adds `  {summary[:200]}` when the
    summary is not the title. `%b` is spelled out in English here, whatever
    the locale: nous runs under C/POSIX, where strftime's `%b` is English.
    """
    summary = row.get("summary") or ""
    title = row.get("title") or (summary[:60] if summary else "Untitled")
    started = row.get("started_at")
    stamp = (
        f"{MONTHS[started.month - 1]} {started.day:02d} {started.hour:02d}:{started.minute:02d}"
        if isinstance(started, datetime)
        else "??? ?? ??:??"
    )
    lines = [f"- [{stamp}] {title}"]
    if first:
        struct = row.get("structured_summary")
        struct = struct if isinstance(struct, dict) else {}
        full = struct.get("summary") or row.get("summary")
        if full and full != row.get("title"):
            lines.append(f"  {full[:parent_truncate]}")
        threads = struct.get("open_threads")
        if isinstance(threads, list):
            items = [str(t) for t in threads if isinstance(t, (str, int, float))][:5]
            if items:
                lines.append("  Open threads: " + "; ".join(items))
    elif temporal_boost and summary and summary != row.get("title"):
        lines.append(f"  {summary[:200]}")
    return "\n".join(lines)


def probe_of(row: NousRow) -> str:
    """`_tr_budget`'s probe (context.py:315-331): the first 40 characters of the stripped `_tr_content`."""
    return (content_of(row) or "").strip()[:40]


def content_of(row: NousRow) -> str | None:
    """`_tr_content` (:52-58): the first non-empty of content, summary, description, name — what the log snippets."""
    for name in ("content", "summary", "description", "name"):
        value = row.get(name)
        if value:
            return str(value)
    return None
