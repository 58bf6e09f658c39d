"""`ctxtui explain`: why one entry got its fate, with the numbers, its score and its thresholds."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ctxtui.cli.common import load_packer
from ctxtui.cli.failures import UsageError, warn
from ctxtui.cli.json_stream import write_list
from ctxtui.deadline import stop_after
from ctxtui.engine.explain.advice import advise_bounded, describe_advice
from ctxtui.engine.explain.reasons import describe, describe_threshold
from ctxtui.engine.explain.thresholds import Threshold, thresholds
from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Outcome, Plan
from ctxtui.engine.reason_numbers import numbers_dict
from ctxtui.safe_text import clean_line


def find_entries(plan: Plan, query: str) -> list[Outcome]:
    """Outcomes whose key or source is QUERY (a source without its folder also matches:
    `TASKS.md:2373`), else whose title contains it (case-insensitive)."""
    exact = [
        o
        for o in plan.outcomes
        if query in (o.entry.key, o.entry.source)
        or (("/" + query if not query.startswith("/") else query) and o.entry.source.endswith("/" + query))
    ]
    if exact:
        return exact
    needle = query.casefold()
    return [o for o in plan.outcomes if needle in o.entry.title.casefold()]


def run(args: argparse.Namespace) -> int:
    if len(args.args) > 2 or (args.all and len(args.args) > 1):
        raise UsageError("explain takes [PROJECT] QUERY, or [PROJECT] --all (quote a query with spaces)")
    if args.all:
        return explain_all(args.args[0] if args.args else ".", args)
    if not args.args:
        raise UsageError("explain needs a QUERY: a title substring, a key or file:line (or --all)")
    if len(args.args) == 1 and (Path(args.args[0]) / ".context").is_dir():
        raise UsageError(
            f"the QUERY is missing: ctxtui explain {args.args[0]} QUERY "
            "(a title substring, a key or file:line), or --all"
        )
    project, query = args.args if len(args.args) == 2 else [".", args.args[0]]
    stop = stop_after(args.max_seconds)  # the whole command's bound: load, threshold scan, advice searches
    _, packer, budget = load_packer(project, args)
    plan = packer.plan(budget)
    matches = find_entries(plan, query)
    if not matches:
        print(f"ctxtui: no entry matches {clean_line(repr(query))} (try a shorter title substring)", file=sys.stderr)
        return 1
    if len(matches) > 1:
        print(
            f"ctxtui: {len(matches)} entries match {clean_line(repr(query))}; be more specific or pass one key:",
            file=sys.stderr,
        )
        for outcome in matches[:20]:
            print(
                f"  {clean_line(outcome.entry.source)}  [{outcome.entry.section}] "
                f"{clean_line(outcome.entry.title)[:70]}",
                file=sys.stderr,
            )
        if len(matches) > 20:
            print(f"  … and {len(matches) - 20} more", file=sys.stderr)
        return 1
    outcome = matches[0]
    if getattr(args, "history", False):
        from ctxtui.cli.explain_history import explain_history

        return explain_history(project, args, outcome)
    threshold = thresholds(packer, should_stop=stop).get(outcome.entry.key)
    if args.format == "json":
        data = outcome_json(outcome, threshold, budget)
        searched = {
            goal: advise_bounded(packer, budget, outcome.entry.key, threshold, goal, should_stop=stop)
            for goal in ("full", "any")
        }
        data["advice"] = {
            goal: [{"kind": a.kind, "text": a.text} for a in found] for goal, (found, _) in searched.items()
        }
        data["advice_complete"] = {goal: complete for goal, (_, complete) in searched.items()}
        # ASCII escapes: valid JSON even when the inputs held invalid UTF-8 (lone surrogates).
        print(json.dumps(data, indent=2, ensure_ascii=True))
        return 0
    entry = outcome.entry
    lines = [
        f"{clean_line(entry.title)}",
        f"  where:   {clean_line(entry.source)}",
        f"  section: {entry.section} (tier {outcome.tier}), {entry.tokens:,} tokens",
        f"  fate:    {outcome.fate.value} at budget {budget:,} ({outcome.reason.value})",
        f"  why:     {clean_line(describe(outcome))}",
    ]
    if outcome.blocked_by:
        blocker = plan.outcome(outcome.blocked_by)
        if blocker is not None:
            lines.append(f"  blocked by: {clean_line(blocker.entry.title)} ({clean_line(blocker.entry.source)})")
    if outcome.score is not None:
        s = outcome.score
        age = "unparsable date" if s.age_days is None else f"{s.age_days} days"
        lines.append(
            f"  score:   {s.total:.3f} = recency {s.recency} ({age}) + relevance {s.relevance:.3f}"
            + (f" × weight (importance {s.importance}, usage {s.usage})" if s.importance is not None else "")
            + f"; rank {s.rank}"
            + (" — superseded" if s.superseded else "")
        )
        lines.append(f"  matched: {clean_line(', '.join(s.matched_keywords)) or '(no task keyword)'}")
    if threshold is not None:
        lines.append(f"  budgets: {describe_threshold(threshold)}")
    for goal in ("full", "any"):
        if goal == "any" and outcome.fate is not Fate.DROPPED:
            continue
        moves, complete = advise_bounded(packer, budget, outcome.entry.key, threshold, goal, should_stop=stop)
        if moves or not complete:
            lines.append(f"  advice:  {clean_line(describe_advice(moves, goal, complete))}")
    print("\n".join(lines))
    return 0


def outcome_json(outcome: Outcome, threshold: Threshold | None, budget: int) -> dict[str, Any]:
    entry = outcome.entry
    data: dict[str, Any] = {
        "key": entry.key,
        "location": entry.location,
        "title": entry.title,
        "section": entry.section,
        "source": entry.source,
        "tier": outcome.tier,
        "tokens": entry.tokens,
        "budget": budget,
        "fate": outcome.fate.value,
        "reason": outcome.reason.value,
        "explanation": describe(outcome),
        "numbers": numbers_dict(outcome.numbers),
        "blocked_by": outcome.blocked_by,
    }
    if outcome.score is not None:
        s = outcome.score
        data["score"] = {
            "total": s.total,
            "recency": s.recency,
            "age_days": s.age_days,
            "relevance": s.relevance,
            "matched_keywords": list(s.matched_keywords),
            "superseded": s.superseded,
            "rank": s.rank,
            "importance": s.importance,
            "usage": s.usage,
        }
    if threshold is not None:
        data["thresholds"] = {
            "full_at": threshold.full_at,
            "any_at": threshold.any_at,
            "monotone": threshold.monotone,
            "full_ranges": threshold.full_ranges,
            "any_ranges": threshold.any_ranges,
            "scanned_to": threshold.scanned_to,
        }
    return data


def explain_all(project: str, args: argparse.Namespace, clock: Callable[[], float] = time.monotonic) -> int:
    """Every candidate's fate, reason, numbers and thresholds (JSON for scripts; a table otherwise).

    `--max-seconds` bounds the whole command, from its start: the thresholds
    scan may take half of what the load left, the listing the rest. Past
    the bound the listing stops (in packet order) and the output says how
    many entries it explained of how many (`entries_explained`, `entries_total`,
    `complete`), as the thresholds say how far they looked (`scanned_to`).
    Entries are made one at a time and written as they come (`json_stream`):
    at 50,000 memories the whole document as one string cost ~600 MB.
    """
    deadline = clock() + args.max_seconds
    _, packer, budget = load_packer(project, args)
    plan = packer.plan(budget)
    order = plan.order
    total = len(order)
    listed = 0

    def within_bound() -> Iterator[Outcome]:
        nonlocal listed
        for index in order:
            if listed % 64 == 0 and listed and clock() > deadline:
                return
            yield plan.outcome_at(index)
            listed += 1

    if args.format == "json":
        scan_until = clock() + max(0.0, deadline - clock()) / 2
        found = thresholds(packer, should_stop=lambda: clock() > scan_until)
        scanned_to = next((t.scanned_to for t in found.values()), None)
        out = sys.stdout
        head = {"packer": packer.name, "budget": budget, "scanned_to": scanned_to, "entries_total": total}
        out.write("{\n" + "".join(f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items()))
        out.write('  "entries": ')
        write_list(out, (outcome_json(o, found.get(o.entry.key), budget) for o in within_bound()), level=1)
        out.write(f',\n  "entries_explained": {listed},\n  "complete": {json.dumps(listed == total)}\n}}\n')
        if scanned_to is not None:
            warn(
                f"thresholds: budgets above {scanned_to:,} not examined "
                f"(the scan stopped within --max-seconds {args.max_seconds:g})"
            )
    else:
        for o in within_bound():
            print(
                f"{o.fate.value:<10} {o.entry.section:<12} {o.entry.tokens:>6,}  {clean_line(o.entry.title)[:60]:<60}  "
                f"{clean_line(o.entry.source)}"
            )
    if listed < total:
        warn(
            f"explained {listed:,} of {total:,} entries (in packet order): stopped after --max-seconds "
            f"{args.max_seconds:g}; give more seconds for the rest"
        )
    return 0
