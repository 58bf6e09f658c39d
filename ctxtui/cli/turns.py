"""`ctxtui turns`: a nous agent's logged turns, and one turn in full (sections, budgets, every candidate's fate).

The list joins `nous_system.context_log` (one row per LLM API call) with the
'context' rows of `nous_system.retrieval_log` on (agent, session, turn
number): nous leaves `trace_id` NULL in both tables, so a turn's key is its
retrieval_log id (or, for a turn with no retrieval row, its first
context_log id). `--turn KEY` shows one turn: each rebuilt section's budget
and use next to the tokens nous logged for it, and each logged candidate with
its disposition, the gate that decided it, and its fate in the rebuild.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING, Any

from ctxtui.cli.common import UsageError, warn
from ctxtui.opening.nous import SAMPLING, require_url
from ctxtui.safe_text import clean_line
from ctxtui.turns_session import SECTION_ORDER, sections_line

if TYPE_CHECKING:
    from ctxtui.engine.sources.memory.nous.model import Turn, TurnSummary

TRACE_NOTE = (
    "nous leaves trace_id NULL (retrieval_log keeps it reserved), so a turn is its context_log and "
    "retrieval_log rows joined on (agent, session, turn number)"
)


def run(args: argparse.Namespace) -> int:
    url = require_url(getattr(args, "db", None))
    if args.turn:
        return show_turn(args, url)
    from ctxtui.engine.sources.memory.nous.source import list_turns
    from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
    from ctxtui.engine.sources.memory.shared.urls import redact

    if args.limit < 0:
        raise UsageError("--limit must not be negative")
    try:
        agent, turns = list_turns(url, args.agent, args.limit)
    except MemorySourceError as exc:
        raise UsageError(exc.line) from None
    if args.format == "json":
        print(
            json.dumps(
                {
                    "database": redact(url),
                    "agent": agent,
                    "note": TRACE_NOTE,
                    "turns": [summary_json(t) for t in turns],
                },
                indent=2,
                ensure_ascii=True,
            )
        )
        return 0
    print(
        clean_line(
            f"agent {agent} — {len(turns)} turn{'s' if len(turns) != 1 else ''}, newest first; "
            "* = candidates logged (rebuildable with --turn KEY)"
        )
    )
    if not turns:
        print("(no logged turns: is nous's context logging on, and is this the right --agent?)")
        return 0
    print(
        f"{'TIME (UTC)':<19}  {'SESSION#TURN':<18} {'FRAME':<12} {'CALLS':>5} {'TOKENS':>8} {'CAND':>5} "
        f"{'REND':>5}  {'KEY':<17} SECTIONS (tokens)"
    )
    for t in turns:
        when = (t.timestamp or "")[:19].replace("T", " ")
        where = f"{t.session_id or '?'}#{t.turn_number if t.turn_number is not None else '?'}"
        cand = "" if t.n_candidates is None else f"{t.n_candidates}"
        rend = "" if t.n_rendered is None else f"{t.n_rendered}"
        key = t.key + (" *" if t.sampled else "")
        total = "" if t.total_tokens_est is None else f"{t.total_tokens_est:,}"
        print(
            clean_line(
                f"{when:<19}  {_clip(where, 18):<18} {_clip(t.frame_id or '-', 12):<12} {t.calls:>5} "
                f"{total:>8} {cand:>5} {rend:>5}  {key:<17} {sections_line(t.section_tokens)}"
            )
        )
    return 0


def summary_json(t: TurnSummary) -> dict[str, Any]:
    return {
        "key": t.key,
        "agent": t.agent_id,
        "session": t.session_id,
        "turn_number": t.turn_number,
        "time": t.timestamp,
        "frame": t.frame_id,
        "model": t.model,
        "calls": t.calls,
        "tokens": dict(t.tokens),
        "total_tokens_est": t.total_tokens_est,
        "retrieval_id": t.retrieval_id,
        "candidates": t.n_candidates,
        "rendered": t.n_rendered,
        "sampled": t.sampled,
        "query": t.query,
        "recall_calls": t.recall_calls,
    }


def show_turn(args: argparse.Namespace, url: str) -> int:
    from ctxtui.engine.explain.reasons import describe
    from ctxtui.engine.packers.nous.build import packer_for_turn
    from ctxtui.engine.sources.memory.nous.source import read_turn
    from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
    from ctxtui.engine.sources.memory.shared.urls import redact

    try:
        turn, rows = read_turn(url, args.turn, args.agent)
    except MemorySourceError as exc:
        raise UsageError(exc.line) from None
    packer = plan = None
    if turn.retrieval is not None and turn.retrieval.sampled:
        packer, complaints = packer_for_turn(turn, rows, os.environ, frame=args.frame, source=redact(url))
        for line in complaints:
            warn(line)
        plan = packer.plan(args.budget if args.budget is not None else packer.default_budget)
    if args.format == "json":
        print(json.dumps(turn_json(turn, packer, plan, describe), indent=2, ensure_ascii=True))
        return 0
    print("\n".join(clean_line(line) for line in turn_text(turn, packer, plan, describe)))
    return 0


def turn_json(turn: Turn, packer, plan, describe) -> dict[str, Any]:
    data: dict[str, Any] = {
        "turn": summary_json(turn.summary),
        "note": TRACE_NOTE,
        "calls": [
            {
                "id": c.id,
                "time": c.timestamp,
                "call_type": c.call_type,
                "model": c.model,
                "frame": c.frame_id,
                "tokens": dict(c.token_breakdown),
                "total_tokens_est": c.total_tokens_est,
                "context_window_size": c.context_window_size,
                "input_tokens_actual": c.input_tokens_actual,
                "output_tokens": c.output_tokens,
                "trace_id": c.trace_id,
            }
            for c in turn.calls
        ],
    }
    r = turn.retrieval
    if r is not None:
        data["retrieval"] = {
            "id": r.id,
            "time": r.timestamp,
            "query": r.query,
            "duration_ms": r.duration_ms,
            "n_candidates": r.n_candidates,
            "n_rendered": r.n_rendered,
            "disposition_counts": dict(r.disposition_counts),
            "sampled": r.sampled,
            "truncated": r.truncated,
            "trace_id": r.trace_id,
            "legs": [
                {
                    "name": g.name,
                    "attempted": g.attempted,
                    "n_returned": g.n_returned,
                    "score_min": g.score_min,
                    "score_max": g.score_max,
                    "error": g.error,
                    "skip_reason": g.skip_reason,
                }
                for g in r.legs
            ],
        }
    if packer is None:
        data["rebuild"] = None
        data["why_not"] = SAMPLING
        return data
    rebuilt = packer.to_json(plan)
    for item, outcome in zip(rebuilt["candidates"], plan.outcomes, strict=True):
        item["explanation"] = describe(outcome)
    rebuilt["checks"] = [
        {"section": c.label, "log_key": c.log_key, "rebuilt": c.rebuilt, "logged": c.logged, "agrees": c.agrees}
        for c in packer.checks()
    ]
    data["rebuild"] = rebuilt
    return data


def turn_text(turn: Turn, packer, plan, describe) -> list[str]:
    s = turn.summary
    lines = [f"turn {s.key} — agent {s.agent_id}, session {s.session_id}, turn {s.turn_number}, {s.timestamp}"]
    first = turn.first_call
    model = first.model if first else s.model
    head = f"frame {s.frame_id or '(none)'} · model {model or '(unknown)'} · {len(turn.calls)} API call"
    head += "s" if len(turn.calls) != 1 else ""
    if turn.retrieval is not None and turn.retrieval.query:
        head += f" · query {_clip(turn.retrieval.query, 70)!r}"
    lines += [head, f"note: {TRACE_NOTE}", ""]
    logged = dict(first.token_breakdown) if first else {}
    if packer is not None:
        settings = packer.settings
        lines.append(
            f"sections rebuilt at budget {plan.budget:,} (the turn's own: {packer.default_budget:,}; "
            f"nous's model {settings.model} ({settings.source('model')}), window {settings.window:,} → budgets "
            f"×{settings.factor:g}; intent {settings.intent}{', follow-up' if settings.followup else ''}):"
        )
        checks = {c.label: c for c in packer.checks()}
        rows = plan.state.sections
        for index, (section, state) in enumerate(zip(packer.sections, rows, strict=True)):
            spec = section.spec
            check = checks.get(spec.label)
            logged_part = ""
            if check is not None and check.logged is not None:
                mark = "✓" if check.agrees else "≠"
                logged_part = f"  rebuilt {check.rebuilt:,} vs logged {check.logged:,} {mark}"
            if spec.budget_field is None:
                budget = "not budgeted"
            elif not state.on:
                budget = "off (budget 0)"
            else:
                base = packer.budgets.base[spec.budget_field]
                own = f"{base:,} ×{settings.factor:g}"
                full = packer.section_budgets(packer.default_budget)[index]
                budget = (
                    f"budget {state.budget:,} ({own})"
                    if state.budget == full
                    else f"budget {state.budget:,} (share of {plan.budget:,}; the turn's own {full:,} = {own})"
                )
                if spec.rule == "mid-text":
                    budget += (
                        f", cut after {state.keep:,} of {len(section.joined):,} chars"
                        if state.keep is not None
                        else f", {len(section.joined):,} of {state.budget * 4:,} chars: no cut"
                    )
                elif spec.rule == "line":
                    budget += (
                        f", one line naming {len(section.items)} critic pick{'s' if len(section.items) != 1 else ''}"
                    )
                else:
                    budget += f", {state.shown} of {len(section.items)} blocks"
            used = state.tokens if state.on else 0
            lines.append(f"  {spec.label:<24} {used:>6,} tokens  {budget}{logged_part}")
        others = [k for k in SECTION_ORDER if k in logged and k not in {x.spec.log_key for x in packer.sections}]
        if others:
            lines.append(
                "  not rebuilt (no candidates; logged tokens): " + " · ".join(f"{k} {logged[k]:,}" for k in others)
            )
        for problem in packer.problems:
            lines.append(f"  note: {problem.message}")
    elif logged:
        lines.append("sections (logged tokens; no candidates to rebuild from):")
        sections = {k: v for k, v in logged.items() if k not in ("tools_definition", "messages")}
        lines.append("  " + sections_line(sections))
    r = turn.retrieval
    lines.append("")
    if r is None:
        lines.append("no retrieval row for this turn (nous's retrieval telemetry off, or the turn was censor-blocked)")
        return lines
    counts = ", ".join(f"{k} {v}" for k, v in sorted(r.disposition_counts.items(), key=lambda kv: -kv[1]))
    lines.append(
        f"candidates: {r.n_candidates} ({counts or 'none'}), {r.n_rendered} rendered"
        + (" — the log's cap of candidates was reached" if r.truncated else "")
    )
    if packer is None:
        lines.append(f"  not sampled: {SAMPLING}")
    else:
        lines.append(f"  {'FATE':<10} {'SECTION':<22} {'LOGGED @ GATE':<44} TITLE — WHY")
        for outcome in plan.outcomes:
            extra = dict(outcome.entry.extra)
            gate = f"{extra.get('disposition')} @ {extra.get('stage') or '-'}"
            lines.append(
                f"  {outcome.fate.value:<10} {_clip(outcome.entry.section, 22):<22} {_clip(gate, 44):<44} "
                f"{_clip(outcome.entry.title, 48)} — {describe(outcome)}"
            )
    legs = []
    for leg in r.legs:
        if leg.error:
            legs.append(f"{leg.name} failed: {_clip(leg.error, 60)}")
        elif not leg.attempted:
            legs.append(f"{leg.name} skipped: {leg.skip_reason or '?'}")
        else:
            scores = (
                f" ({leg.score_min:.2f}–{leg.score_max:.2f})"
                if leg.score_min is not None and leg.score_max is not None
                else ""
            )
            legs.append(f"{leg.name} {leg.n_returned} returned{scores}")
    if legs:
        lines.append("legs: " + "; ".join(legs))
    return lines


def _clip(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
