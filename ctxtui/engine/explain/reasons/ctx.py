"""ctx agent's reasons in words: tiers, caps, shares and the 80% full-entry limit, with the numbers ctx compared."""

from __future__ import annotations

from enum import Enum

from ctxtui.engine.explain.reasons.shared import num
from ctxtui.engine.model import Outcome
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.reason_numbers import PatternMiss, PrefixFit, ShareFit

CTX_TEXT: dict[Enum, str] = {
    Reason.ALWAYS: "tier 1 is always included",
    Reason.CONSTITUTION_PATTERN: "ctx's constitution pattern only matches a one-line file",
    Reason.FITS: "fits under the tier cap",
    Reason.FORCED_FIRST: "first item forced in although over the cap",
    Reason.OVER_CAP: "does not fit: the fill stopped here",
    Reason.AFTER_MISFIT: "after the first misfit: the fill had stopped",
    Reason.BEYOND_SCAN_LIMIT: "past the first 1000 bullets ctx scans",
    Reason.NOT_REACHED: "an earlier tier used the whole budget",
    Reason.NO_SHARE: "its section got no share of the budget",
    Reason.FULL: "fits within 80% of the section share",
    Reason.OVER_FULL_LIMIT: "would pass 80% of the section share: summarized (its title under Also Noted)",
    Reason.SUPERSEDED: "superseded: skipped",
    Reason.ARCHIVED: "archived memory: skipped",
    Reason.STEERING_DISABLED: "a steering file failed to parse: all steering is off",
    Reason.NOT_ALWAYS: "steering inclusion is not 'always'",
    Reason.EMPTY_BODY: "empty steering body",
    Reason.TEMPLATE_BODY: "untouched steering template",
    Reason.NO_STEERING_TIER: "ctx 0.8.0 has no steering tier: steering files never reach its packet",
    Reason.SKILL_TOO_BIG: "the skill goes in whole or not at all, and it does not fit what is left",
}

CTX_SHORT: dict[Enum, str] = {
    Reason.ALWAYS: "always",
    Reason.CONSTITUTION_PATTERN: "pattern miss",
    Reason.FITS: "fits",
    Reason.FORCED_FIRST: "forced first",
    Reason.OVER_CAP: "over cap",
    Reason.AFTER_MISFIT: "after misfit",
    Reason.BEYOND_SCAN_LIMIT: "past scan limit",
    Reason.NOT_REACHED: "not reached",
    Reason.NO_SHARE: "no share",
    Reason.FULL: "full",
    Reason.OVER_FULL_LIMIT: "summarized",
    Reason.SUPERSEDED: "superseded",
    Reason.ARCHIVED: "archived",
    Reason.STEERING_DISABLED: "steering off",
    Reason.NOT_ALWAYS: "not always",
    Reason.EMPTY_BODY: "empty body",
    Reason.TEMPLATE_BODY: "template",
    Reason.NO_STEERING_TIER: "no tier 6",
    Reason.SKILL_TOO_BIG: "too big",
}


def ctx_cell(outcome: Outcome, label: str) -> str | None:
    """The reason column for a ctx outcome whose numbers say more than the label; None: the label alone."""
    reason, numbers = outcome.reason, outcome.numbers
    if isinstance(numbers, PrefixFit) and numbers.cap is not None and numbers.needs is not None:
        if reason in (Reason.FITS, Reason.OVER_CAP):
            sign = "≤" if reason is Reason.FITS else ">"
            return f"{label} {num(numbers.used_before or 0)}+{num(numbers.needs)}{sign}{num(numbers.cap)}"
        if reason is Reason.FORCED_FIRST:
            return f"{label} {num(numbers.needs)}>{num(numbers.cap)}"
    if isinstance(numbers, ShareFit):
        if reason in (Reason.FULL, Reason.OVER_FULL_LIMIT) and numbers.full_limit is not None:
            sign = "≤" if reason is Reason.FULL else ">"
            return f"{label} {num(numbers.used_before or 0)}+{num(numbers.needs)}{sign}{num(numbers.full_limit)}"
        if reason is Reason.NO_SHARE:
            return f"{label} ({num(numbers.share)})"
    return None


def describe_ctx(outcome: Outcome) -> str:
    """A ctx outcome's reason, with the numbers that decided it."""
    n = outcome.numbers
    section = outcome.entry.section
    reason = outcome.reason
    if reason in (Reason.FITS, Reason.FORCED_FIRST, Reason.OVER_CAP, Reason.AFTER_MISFIT) and isinstance(n, PrefixFit):
        cap = n.cap or 0
        if n.pct is not None:
            head = (
                f"{section} cap {num(cap)} tokens (min of {round(n.pct * 100)}% of {num(n.budget or 0)} = "
                f"{num(n.pct_cap or 0)} and {num(n.remaining or 0)} remaining)"
            )
        else:
            head = f"{section} cap {num(cap)} tokens (what was left after tiers 1-5)"
        used, needs = n.used_before or 0, n.needs or 0
        if reason is Reason.FITS:
            return (
                f"{head}; {num(used)} tokens used before it; needs {num(needs)} → {num(used + needs)} ≤ {num(cap)}: "
                "included"
            )
        if reason is Reason.FORCED_FIRST:
            return (
                f"{head}; needs {num(needs)}: nothing fits, so ctx forces the first one in "
                f"({num(needs - cap)} over the cap)"
            )
        if reason is Reason.OVER_CAP:
            return (
                f"{head}; {num(used)} tokens used before it; needs {num(needs)} → {num(used + needs)} > {num(cap)}: "
                "the fill stops here"
            )
        where = outcome.blocked_by.split(":", 1)[1] if outcome.blocked_by else "an earlier entry"
        return f"{head}; the fill stopped at {where} ({num(used)} tokens used), so later entries are not tried"
    if reason in (Reason.FULL, Reason.OVER_FULL_LIMIT) and isinstance(n, ShareFit):
        share, limit, used, needs = n.share, n.full_limit or 0, n.used_before or 0, n.needs
        head = (
            f"{section} share {num(share)} tokens; full-entry limit 80% = {num(limit)}; {num(used)} tokens used "
            f"before it; needs {num(needs)}"
        )
        if reason is Reason.FULL:
            return f"{head} → {num(used + needs)} ≤ {num(limit)}: included in full (rank {n.rank})"
        return (
            f"{head} → {num(used + needs)} > {num(limit)}: summarized, its title under Also Noted "
            f"(+{num(n.title_tokens or 0)} tokens, charged after the budget)"
        )
    if reason is Reason.SKILL_TOO_BIG and isinstance(n, PrefixFit):
        return (
            f"the skill goes in whole or not at all: needs {num(n.needs or 0)} tokens, "
            f"{num(max(0, n.remaining or 0))} left after tiers 1-6"
        )
    if reason is Reason.FITS and outcome.tier == 7 and isinstance(n, PrefixFit):
        return f"the skill needs {num(n.needs or 0)} tokens ≤ {num(n.remaining or 0)} left after tiers 1-6: included"
    if reason is Reason.NOT_REACHED:
        return "an earlier tier used the whole budget: this tier was never filled"
    if reason is Reason.NO_SHARE:
        return f"the {section} share is {num(n.share if isinstance(n, ShareFit) else 0)} tokens: nothing can go in"
    if reason is Reason.SUPERSEDED:
        return "marked ~~Superseded: score 0, skipped (its tokens still count in the split)"
    if reason is Reason.CONSTITUTION_PATTERN:
        rules = n.rules_in_file if isinstance(n, PatternMiss) else 0
        return (
            f"CONSTITUTION.md has {rules} rule{'' if rules == 1 else 's'}; ctx's single-line pattern "
            "only finds a rule when the whole file is one checkbox line, so none reach the packet"
        )
    if reason is Reason.BEYOND_SCAN_LIMIT:
        return "ctx looks at the first 1,000 bullets of CONVENTIONS.md only"
    if reason is Reason.ALWAYS:
        return "tier 1 content is always included"
    return CTX_TEXT.get(reason, str(reason.value))
