"""The engine's vocabulary: entries, outcomes, tier allocations and the packet.

One name per idea, used by the engine, the CLI and the TUI alike: a *tier* is a
step of ctx's assembly, a *section* is where an entry would be printed, an
*entry* is a candidate for the packet, its *fate* is what happened to it, and
its *reason* says why, in numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple


class Fate(str, Enum):
    """What happened to a candidate entry at one budget."""

    INCLUDED = "included"
    SUMMARIZED = "summarized"  # only its title, under "Also Noted"
    DROPPED = "dropped"


# Sections in packet order. "memories" exists only when a memory database joins.
SECTIONS = (
    "constitution",
    "tasks",
    "conventions",
    "decisions",
    "learnings",
    "memories",
    "steering",
)

# The tier ctx fills each section in.
TIER_OF_SECTION = {
    "constitution": 1,
    "tasks": 2,
    "conventions": 3,
    "decisions": 4,
    "learnings": 5,
    "memories": 5,
    "steering": 6,
}

TIER_NAMES = {
    1: "Tier 1 · always",
    2: "Tier 2 · tasks",
    3: "Tier 3 · conventions",
    4: "Tier 4 · decisions",
    5: "Tier 5 · learnings",
    6: "Tier 6 · steering",
}


class Reason(str, Enum):
    """Why an entry met its fate. The numbers live in `Outcome.numbers`."""

    ALWAYS = "always"  # tier 1 content
    CONSTITUTION_PATTERN = "constitution-pattern"  # quirk 1: never parsed
    FITS = "fits"  # fit under its tier's cap
    FORCED_FIRST = "forced-first"  # first item forced in over the cap (quirk 4)
    OVER_CAP = "over-cap"  # the first misfit: stopped the fill
    AFTER_MISFIT = "after-misfit"  # a stop-at-first-misfit tier had already stopped
    BEYOND_SCAN_LIMIT = "beyond-scan-limit"  # conventions past the first 1000 bullets
    NOT_REACHED = "not-reached"  # an earlier tier used the whole budget
    NO_SHARE = "no-share"  # its section got a share of 0 tokens
    FULL = "full"  # whole entry within 80% of its section's share
    OVER_FULL_LIMIT = "over-full-limit"  # would pass 80% of the share: title only
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"  # database memory with status archived
    STEERING_DISABLED = "steering-disabled"  # a steering file failed to parse (quirk 9)
    NOT_ALWAYS = "not-always"  # steering inclusion is not "always"
    EMPTY_BODY = "empty-body"
    TEMPLATE_BODY = "template-body"  # untouched `ctx init` steering template


REASON_TEXT = {
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
    Reason.OVER_FULL_LIMIT: "would pass 80% of the section share: title only",
    Reason.SUPERSEDED: "superseded: skipped",
    Reason.ARCHIVED: "archived memory: skipped",
    Reason.STEERING_DISABLED: "a steering file failed to parse: all steering is off",
    Reason.NOT_ALWAYS: "steering inclusion is not 'always'",
    Reason.EMPTY_BODY: "empty steering body",
    Reason.TEMPLATE_BODY: "untouched steering template",
}


@dataclass(frozen=True, slots=True)
class Entry:
    """A candidate for the packet, as parsed; independent of budget and "now".

    `text` is exactly what the packet prints when the entry is included in full
    (a task line, a convention without its "- ", a whole decision block...).
    `tokens` is ctx's estimate of `text`.
    """

    key: str  # stable across reloads and budgets, e.g. "decisions:.context/DECISIONS.md:12"
    section: str
    title: str
    text: str
    tokens: int
    source: str  # provenance: ".context/DECISIONS.md:12", "memory.db:42", "shabka:<id>"
    date: str | None = None  # "YYYY-MM-DD" for scored entries
    superseded: bool = False
    # What a memory database knows; None for markdown entries.
    importance: float | None = None
    usage: float | None = None
    status: str | None = None  # memory status: active, archived, superseded...
    kind: str | None = None  # memory kind: decision, lesson, fact...
    extra: tuple = ()  # (name, value) pairs worth showing, e.g. steering front matter


class ScoreBreakdown(NamedTuple):
    """How a scored entry (decision, learning, memory) was ranked.

    A NamedTuple, not a dataclass: the slider builds thousands per step, and a
    frozen dataclass costs several times more to construct.
    """

    age_days: int | None  # None when the date does not parse
    recency: float
    relevance: float
    superseded: bool
    total: float
    rank: int  # 1-based position in its section's score order (0: not ranked)
    importance: float | None = None
    usage: float | None = None
    # Finding which keywords matched costs more than scoring; done only when shown.
    keyword_finder: Callable[[], tuple[str, ...]] | None = None

    @property
    def matched_keywords(self) -> tuple[str, ...]:
        return self.keyword_finder() if self.keyword_finder else ()


class Outcome(NamedTuple):
    """What happened to one entry at one budget, and why, in numbers."""

    entry: Entry
    tier: int
    fate: Fate
    reason: Reason
    numbers: dict = {}
    score: ScoreBreakdown | None = None
    blocked_by: str | None = None  # key of the entry that stopped a stop-at-first-misfit fill

    @property
    def explanation(self) -> str:
        """One sentence with the numbers behind the fate."""
        from ctxtui.engine.explain import describe_outcome

        return describe_outcome(self)


@dataclass(frozen=True, slots=True)
class TierAllocation:
    """One tier's (or section's) slice of the budget at one budget."""

    tier: int
    name: str
    cap: int | None  # None: uncapped (tier 1); the section share for tiers 4-5
    used: int  # tokens of content included in full
    summarized: int = 0  # tokens charged for "Also Noted" titles
    overrun: int = 0  # tokens forced in past the cap (quirk 4)
    reached: bool = True  # False when an earlier tier exhausted the budget
    full_limit: int | None = None  # tiers 4-5: 80% of the share


class Packet:
    """The assembled packet: what ctx prints, plus an outcome for every candidate.

    Outcomes are built on first use: the fates and their numbers are already
    decided by assembly, but materialising thousands of objects on every slider
    step would cost more than the assembly itself.
    """

    __slots__ = (
        "budget", "tokens_used", "generated", "read_order", "constitution", "tasks",
        "conventions", "decisions", "learnings", "memories", "summaries", "steering",
        "instruction", "tiers", "_outcomes", "_build_outcomes", "_by_key",
    )

    def __init__(self, *, budget, tokens_used, generated, read_order, constitution, tasks,
                 conventions, decisions, learnings, memories, summaries, steering,
                 instruction, tiers, outcomes=None, build_outcomes=None):
        self.budget: int = budget
        self.tokens_used: int = tokens_used
        self.generated: str = generated  # RFC 3339 UTC, as printed
        self.read_order: list[str] = read_order
        self.constitution: list[str] | None = constitution
        self.tasks: list[str] = tasks
        self.conventions: list[str] = conventions
        self.decisions: list[str] = decisions
        self.learnings: list[str] = learnings
        self.memories: list[str] = memories
        self.summaries: list[str] = summaries
        self.steering: list[str] = steering
        self.instruction: str = instruction
        self.tiers: list[TierAllocation] = tiers
        self._outcomes: list[Outcome] | None = outcomes
        self._build_outcomes = build_outcomes
        self._by_key: dict[str, Outcome] | None = None

    @property
    def outcomes(self) -> list[Outcome]:
        if self._outcomes is None:
            self._outcomes = self._build_outcomes() if self._build_outcomes else []
            self._build_outcomes = None
        return self._outcomes

    def outcome(self, key: str) -> Outcome | None:
        if self._by_key is None:
            self._by_key = {outcome.entry.key: outcome for outcome in self.outcomes}
        return self._by_key.get(key)

    def counts(self) -> dict[str, int]:
        """Entries per fate."""
        counts = {fate.value: 0 for fate in Fate}
        for outcome in self.outcomes:
            counts[outcome.fate.value] += 1
        return counts


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in the inputs that could not be read as intended; never fatal."""

    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"
