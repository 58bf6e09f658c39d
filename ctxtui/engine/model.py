"""The engine's vocabulary, shared by every packer: entries, fates, outcomes, buckets, plans.

One name per idea, used by the engine, the CLI and the TUI alike: an *entry*
is a candidate for the packet, a *section* is where it would be printed, a
*bucket* is a slice of the budget (a tier, a section, a file), its *fate* is
what happened to it at one budget, and its *reason* says why — with the
numbers behind it as typed fields (those are in `reason_numbers.py`: a packet
needs none of them).

A `Plan` is one packer's decisions at one budget. It is small and cheap to
make (the slider makes one per step); what derives from it — the outcome of
every candidate, the bars, the rendered text — is computed on first use and
kept on the plan, so whoever holds the plan owns those caches.
"""

from collections.abc import Callable, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, NamedTuple

from ctxtui.engine.fate import Fate

if TYPE_CHECKING:
    from typing import Protocol

    from ctxtui.engine.reason_numbers import Numbers
else:
    # The reasons' numbers are NamedTuples off a cold `pack`'s path (`reason_numbers.py`); a checker sees
    # their union. Not a string annotation: a NamedTuple compiles those (`typing.ForwardRef`), and the
    # process's first `compile()` costs ~2.5 ms (it builds the `ast` module's classes).
    Numbers = object

# The fates' names, in `Fate`'s order (the enum lives in `fate.py`, off a cold `pack`'s path): what
# `Plan.counts` counts entries by.
FATE_VALUES = ("included", "summarized", "dropped")


class Entry(NamedTuple):
    """A candidate for the packet, as parsed; independent of budget and "now".

    `text` is exactly what the packet prints when the entry is included in full
    (a task line, a convention without its "- ", a whole decision block...).
    `tokens` is the packer's cost of `text`.

    A NamedTuple, as the engine's other values on a cold `pack`'s path: a
    dataclass costs that command ~2 ms to make and `import dataclasses`
    ~6-30 ms (docs/performance.md, "The engine's records"). So it is also a
    tuple: never compare one with another record or a tuple.
    """

    # What the entry is, stable across budgets, reloads and edits elsewhere in its file (sources/identity.py):
    # "tasks:.context/TASKS.md:Fix the build#1", "decisions:.context/DECISIONS.md:[2026-01-02-030405] Use X#1",
    # "memory:memory.db:42". Never a line number: that is the location.
    key: str
    section: str
    title: str
    text: str
    tokens: int
    source: str  # where it is now, its *location*: ".context/DECISIONS.md:12", "memory.db:42", "shabka:<id>"
    date: str | None = None  # "YYYY-MM-DD" for scored entries
    superseded: bool = False
    # What a memory database knows; None for markdown entries.
    importance: float | None = None
    usage: float | None = None
    status: str | None = None  # memory status: active, archived, superseded...
    kind: str | None = None  # memory kind: decision, lesson, fact...
    extra: tuple[tuple[str, Any], ...] = ()  # (name, value) pairs worth showing, e.g. steering front matter

    @property
    def location(self) -> str:
        """Where the entry sits now (a file and line, a store and id): shown and exported beside its key."""
        return self.source


class ScoreBreakdown(NamedTuple):
    """How a scored entry (decision, learning, memory) was ranked."""

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
    """What happened to one entry at one budget, and why, in numbers.

    `reason` is a member of the packer's reason enum; its words live in
    `engine.explain.reasons`, which takes the whole outcome.
    """

    entry: Entry
    tier: int  # the step of the packer's assembly that decided it
    fate: Fate
    reason: Enum
    numbers: Numbers = None
    score: ScoreBreakdown | None = None
    blocked_by: str | None = None  # key of the entry that stopped a stop-at-first-misfit fill


class Bucket(NamedTuple):
    """One slice of the budget at one budget: a bar on screen."""

    tier: int
    name: str
    cap: int | None  # None: uncapped (tier 1); a section's share for scored sections
    used: int  # tokens of content included in full
    summarized: int = 0  # tokens of entries shown shortened (ctx: "Also Noted" titles; Cortex: summaries)
    overrun: int = 0  # tokens forced in past the cap
    reached: bool = True  # False when an earlier step exhausted the budget
    full_limit: int | None = None  # scored sections: 80% of the share
    unbudgeted: int = 0  # tokens the budget does not govern (ctx's Also Noted, nous's Recent Conversations)


class Plan:
    """One packer's decisions at one budget, and everything derived from them, on first use.

    `state` is the packer's own compact record of what it decided; only the
    packer reads it. Outcomes, buckets and renderings are cached here, so they
    live exactly as long as the plan they describe.
    """

    __slots__ = (
        "_buckets",
        "_derived",
        "_fates",
        "_order",
        "_outcomes",
        "_rendered",
        "budget",
        "packer",
        "state",
        "tokens_used",
    )

    def __init__(self, packer: "PlanMaker", budget: int, tokens_used: int, state: Any) -> None:
        self.packer = packer
        self.budget = budget
        self.tokens_used = tokens_used
        self.state = state
        self._outcomes: list[Outcome] | None = None
        self._buckets: list[Bucket] | None = None
        self._fates: bytearray | None = None
        self._order: Sequence[int] | None = None
        self._rendered: dict[str, str] = {}
        self._derived: dict[str, Any] = {}

    @property
    def outcomes(self) -> list[Outcome]:
        """An outcome for every candidate, in packet order (`order` names their candidates)."""
        if self._outcomes is None:
            self._outcomes = self.packer.outcomes(self)
        return self._outcomes

    @property
    def buckets(self) -> list[Bucket]:
        if self._buckets is None:
            self._buckets = self.packer.buckets(self)
        return self._buckets

    @property
    def fates(self) -> bytearray:
        """One byte per candidate, in `candidates()` order (the packer's `fate_vector`, computed once)."""
        if self._fates is None:
            self._fates = self.packer.fate_vector(self)
        return self._fates

    @property
    def order(self) -> Sequence[int]:
        """Candidate indices in packet order: `outcomes[k]` is the outcome of candidate `order[k]`."""
        if self._order is None:
            self._order = self.packer.packet_order(self)
        return self._order

    @property
    def places(self) -> Sequence[int]:
        """Each candidate's position in `order` (`order[places[i]] == i`)."""
        return self.packer.packet_places(self)

    def outcome_at(self, index: int) -> Outcome:
        """The outcome of candidate `index`; a packer may make it alone, without every other outcome."""
        return self.packer.outcome_at(self, index)

    def outcome(self, key: str) -> Outcome | None:
        """The outcome of the candidate with this key (None: no such candidate)."""
        index = self.packer.index_of(key)
        return None if index is None else self.outcome_at(index)

    def derived(self, name: str, build: Callable[["Plan"], Any]) -> Any:
        """`build(self)`, computed once and kept with this plan (a packer's per-plan working data)."""
        try:
            return self._derived[name]
        except KeyError:
            value = self._derived[name] = build(self)
            return value

    @property
    def unbudgeted(self) -> int:
        """Tokens the packer adds after the budget was applied (ctx's "Also Noted" titles)."""
        return sum(bucket.unbudgeted for bucket in self.buckets)

    @property
    def budgeted(self) -> int:
        """The tokens the budget governs: what "over budget" should be measured on."""
        return self.tokens_used - self.unbudgeted

    def counts(self) -> dict[str, int]:
        """Entries per fate; from the outcomes when they are built, else the packer's own count (cheaper)."""
        if self._outcomes is None:
            return self.packer.counts(self)
        counts = dict.fromkeys(FATE_VALUES, 0)
        for outcome in self._outcomes:
            counts[outcome.fate.value] += 1
        return counts

    def render(self, fmt: str) -> str:
        """The packet as the packer's tool prints it, in `fmt` (cached)."""
        text = self._rendered.get(fmt)
        if text is None:
            text = self._rendered[fmt] = self.packer.render(self, fmt)
        return text


if TYPE_CHECKING:  # only named in annotations: no Protocol class is made at run time

    class PlanMaker(Protocol):
        """What a `Plan` and its readers ask of the packer that made it.

        `engine.packers.base.Packer` is the interface every packer implements;
        this is the part of it a plan needs, named here so that the vocabulary
        imports nothing from the packers (which all import it).
        """

        def render(self, plan: Plan, fmt: str) -> str: ...
        def outcomes(self, plan: Plan) -> list[Outcome]: ...
        def buckets(self, plan: Plan) -> list[Bucket]: ...
        def candidates(self) -> Sequence[Entry]: ...
        def fate_vector(self, plan: Plan) -> bytearray: ...
        def counts(self, plan: Plan) -> dict[str, int]: ...
        def packet_order(self, plan: Plan) -> Sequence[int]: ...
        def packet_places(self, plan: Plan) -> Sequence[int]: ...
        def outcome_at(self, plan: Plan, index: int) -> Outcome: ...
        def component_vector(self, plan: Plan, component: str) -> Sequence[Any] | None: ...
        def reason_vector(self, plan: Plan) -> Sequence[Any] | None: ...
        def index_of(self, key: str) -> int | None: ...


class Problem(NamedTuple):
    """Something in the inputs that could not be read as intended; never fatal."""

    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"
