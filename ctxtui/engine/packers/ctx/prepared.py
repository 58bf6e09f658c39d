"""What a ctx packer knows before any budget: parsed entries, their costs and prefix sums, the scorer, rankings.

Everything here is computed once per load (rankings and score breakdowns
once per packet task count, cached), so that `CtxPacker.plan(budget)` only
walks the tiers. The assembly (`assemble`), the outcomes (`outcomes`) and
the next budget worth looking at (`changes`) all read it.
"""

from collections.abc import Callable, Sequence
from itertools import accumulate
from threading import RLock
from typing import TYPE_CHECKING, Any, NamedTuple

from ctxtui.engine.datetimes import UTC, datetime, tzinfo
from ctxtui.engine.model import Entry, ScoreBreakdown
from ctxtui.engine.packers.base import SUMMARIZED, Knob
from ctxtui.engine.packers.ctx.budget import DEFAULT_CONVENTION_PCT, DEFAULT_TASK_PCT
from ctxtui.engine.packers.ctx.caches import BREAKDOWN_ELEMENTS, cache_entries, kept
from ctxtui.engine.packers.ctx.knobs import CtxKnobs
from ctxtui.engine.packers.ctx.score import Scorer, relevance_of
from ctxtui.engine.packers.ctx.sections import INSTRUCTION, SCORED_SECTIONS
from ctxtui.engine.packers.ctx.versions import DEFAULT_VERSION, CtxVersion
from ctxtui.engine.sources.context import ParsedContext
from ctxtui.engine.sources.steering import SkillFile
from ctxtui.engine.sources.task_list import TaskList, cumulative
from ctxtui.engine.text.go import go_join, rfc3339_utc
from ctxtui.engine.text.tokens import estimate

if TYPE_CHECKING:
    from array import array

DEFAULT_KNOBS = CtxKnobs()  # frozen: one shared default is safe

NEVER_FITS = 1 << 62  # a cost no limit reaches
# Memory statuses that keep a memory out of the ranking; each is also the value of its `Reason`.
INACTIVE_STATUSES = frozenset(("archived", "superseded"))


class CtxInputs(NamedTuple):
    """What a ctx packer was built from, as given (before any recosting): `rebuilt` changes some of them."""

    parsed: ParsedContext
    now: datetime
    root_path: str
    version: CtxVersion
    context_dir: str
    knobs: CtxKnobs
    memories: Sequence[Entry]
    counter: Callable[[str], int] | None  # `count`, the packer's argument (a tuple has a `count` of its own)
    skill: SkillFile | None
    zone: tzinfo | None


class CtxPrepared:
    """`ctx agent` of one version for one parsed workspace, one "now", one root path and one set of knobs.

    `root_path` is the working directory 0.8.1 prints under "Read These
    Files"; `context_dir` is the context directory as 0.8.0 prints it
    (".context", or its --context-dir / CTX_DIR / .ctxrc context_dir).
    `CtxPacker` adds the per-budget part.
    """

    RANKING_CACHE = 64

    def __init__(
        self,
        parsed: ParsedContext,
        *,
        now: datetime,
        root_path: str,
        version: CtxVersion = DEFAULT_VERSION,
        context_dir: str = ".context",
        knobs: CtxKnobs = DEFAULT_KNOBS,
        memories: Sequence[Entry] = (),
        count: Callable[[str], int] | None = None,
        skill: SkillFile | None = None,
        zone: tzinfo | None = None,
    ):
        self.inputs = CtxInputs(parsed, now, root_path, version, context_dir, knobs, memories, count, skill, zone)
        if count is not None:
            parsed, memories = _recost(parsed, list(memories), count)
        self.version = version
        self.name = version.packer_name
        self.title = f"ctx agent {version.number}"
        self.count = count or estimate
        self.parsed = parsed
        self.now = now if now.tzinfo else now.replace(tzinfo=UTC)
        if not version.ctxrc_percentages:
            knobs = knobs._replace(task_pct=DEFAULT_TASK_PCT, convention_pct=DEFAULT_CONVENTION_PCT, sources=())
        self.settings = knobs
        self.generated = rfc3339_utc(self.now)
        if version.absolute_paths:
            self.read_order = [go_join(root_path, ".context", name) for name in parsed.read_order_names]
        else:
            self.read_order = [go_join(context_dir, name) for name in parsed.read_order_names]
        self.constitution = parsed.constitution
        cost = self.count
        self.tier1 = sum(map(cost, self.read_order)) + sum(map(cost, self.constitution or [])) + cost(INSTRUCTION)

        self.tasks = tasks = parsed.tasks
        # Read off a TaskList without making its entries (a million tasks: issue 20, medium 17).
        self.task_cum = (
            cumulative(tasks.tokens) if isinstance(tasks, TaskList) else [0, *accumulate(e.tokens for e in tasks)]
        )
        self.conventions = parsed.conventions
        self.convention_cum = [0, *accumulate(e.tokens for e in self.conventions)]

        self.inactive: dict[str, str] = {  # key → status
            m.key: m.status for m in memories if m.status is not None and m.status in INACTIVE_STATUSES
        }
        self.scored: list[Entry] = [*parsed.decisions, *parsed.learnings, *memories]
        self.scored_sections = [entry.section for entry in self.scored]  # read per candidate (order.py)
        weights = [_memory_weight(e) for e in self.scored]
        self.zone = zone or self.now.tzinfo
        self.scorer = Scorer(
            self.scored,
            tasks.lines() if isinstance(tasks, TaskList) else [e.text for e in tasks],
            self.now,
            weights,
            fold=version.fold,
            zone=self.zone,
        )
        self.section_names = [s for s in SCORED_SECTIONS if s != "memories" or memories]
        self.section_members: dict[str, list[int]] = {name: [] for name in self.section_names}
        self.inactive_members: dict[str, list[int]] = {}
        for i, entry in enumerate(self.scored):
            if entry.key in self.inactive:
                self.inactive_members.setdefault(entry.section, []).append(i)
            else:
                self.section_members[entry.section].append(i)
        self.section_sizes = [sum(self.scored[i].tokens for i in self.section_members[n]) for n in self.section_names]
        self.section_present = [bool(self.section_members[n]) for n in self.section_names]
        self.title_tokens = [cost(e.title) for e in self.scored]
        self._tokens = [e.tokens for e in self.scored]
        self._superseded = [e.superseded for e in self.scored]
        self._rankings: dict[int, dict[str, list[int]]] = {}  # these caches: least recently used first
        self.ranking_cache = cache_entries(len(self.scored), most=self.RANKING_CACHE)
        self.breakdown_cache = cache_entries(len(self.scored), most=8, least=2, elements=BREAKDOWN_ELEMENTS)
        # Per section, over the entries that can fill (not superseded): the smallest cost, and the sum of
        # their title costs. A fill stops once what is left of its limit is below that smallest cost:
        # nothing after can fit, and every later entry is summarised (its title costs are a subtraction).
        self.section_min_cost: dict[str, int] = {}
        self.section_titles: dict[str, int] = {}
        for name, members in self.section_members.items():
            fillable = [i for i in members if not self._superseded[i]]
            self.section_min_cost[name] = min((self._tokens[i] for i in fillable), default=NEVER_FITS)
            self.section_titles[name] = sum(self.title_tokens[i] for i in fillable)
        self._summarized_templates: dict[tuple[str, ...], bytes] = {}
        self._breakdowns: dict[int, list[ScoreBreakdown]] = {}
        self._positions: dict[int, array[int]] = {}  # inverse rankings (see `positions`)
        # Packet orders and their inverses by task count (`lazy.py`).
        self.orders: dict[int, tuple[Any, Any]] = {}  # (Segments, Places), see order.py
        # The app assembles on the UI thread while a worker scans thresholds: the
        # caches above (and the scorer's) are shared, so each call holds this.
        self._lock = RLock()

        usable = version.steering
        self.steering = [e for e in parsed.steering if usable and parsed.steering_fates[e.key] == "always"]
        self.steering_cum = [0, *accumulate(e.tokens for e in self.steering)]
        self.skill = _skill_entry(skill, cost) if skill is not None and version.steering else None
        self._candidates: list[Entry] | None = None
        self._candidate_tasks: list[Entry] | None = None

    def knobs(self) -> tuple[Knob, ...]:
        """The settings this version honours, with their values and sources."""
        return self.settings.describe(self.name)

    def summarized_template(self, sections: tuple[str, ...]) -> bytes:
        """One byte per scored entry: SUMMARIZED for the active, not superseded entries of `sections`, else 0.

        The fate vector's starting point for the scored entries (see `fate_vector`): which entries a
        section ranks is fixed per load (the ranking only reorders `section_members`).
        """
        template = self._summarized_templates.get(sections)
        if template is None:
            marks = bytearray(len(self.scored))
            superseded = self._superseded
            for name in sections:
                for i in self.section_members[name]:
                    if not superseded[i]:
                        marks[i] = SUMMARIZED
            template = self._summarized_templates[sections] = bytes(marks)
        return template

    def ranking(self, task_count: int) -> dict[str, list[int]]:
        """Each section's active entries, best score first (stable: file order on ties)."""
        with self._lock:
            return self._ranking(task_count)

    def _ranking(self, task_count: int) -> dict[str, list[int]]:
        def rank() -> dict[str, list[int]]:
            negated = [-score for score in self.scorer.scores(task_count)]
            key = negated.__getitem__  # a C call per comparison key, no Python frame: sorting 50,000 is ~3x faster
            return {name: sorted(members, key=key) for name, members in self.section_members.items()}

        return kept(self._rankings, task_count, rank, self.ranking_cache)

    def breakdowns(self, task_count: int) -> list[ScoreBreakdown]:
        """Every scored entry's breakdown with `task_count` packet tasks (cached: they only change with it)."""
        with self._lock:
            return self._breakdowns_for(task_count)

    def _breakdowns_for(self, task_count: int) -> list[ScoreBreakdown]:
        def build() -> list[ScoreBreakdown]:
            positions, given = self._positions_for(task_count), self._score_inputs(task_count)
            return [self._breakdown(i, task_count, positions[i] + 1, *given) for i in range(len(self.scored))]

        return kept(self._breakdowns, task_count, build, self.breakdown_cache)

    def breakdown_at(self, i: int, task_count: int) -> ScoreBreakdown:
        """Scored entry `i`'s breakdown (`breakdowns(task_count)[i]`) without building the other 50,000."""
        with self._lock:
            cached = self._breakdowns.get(task_count)
            if cached is not None:
                return cached[i]
            rank = self._positions_for(task_count)[i] + 1
            return self._breakdown(i, task_count, rank, *self._score_inputs(task_count))

    def _score_inputs(self, task_count: int) -> tuple[list[float], bytes | bytearray, bool]:
        """(scores, match counts, whether the packet tasks have any keyword) with `task_count` tasks."""
        scorer = self.scorer
        return scorer.scores(task_count), scorer.match_counts(task_count), scorer.prefix_at(task_count) > 0

    def _breakdown(
        self, i: int, task_count: int, rank: int, scores: list[float], counts: bytes | bytearray, has_keywords: bool
    ) -> ScoreBreakdown:
        """Scored entry `i`'s breakdown; `rank` 0: not ranked (an inactive memory)."""
        scorer, entry = self.scorer, self.scored[i]
        return ScoreBreakdown(
            age_days=scorer.age_days[i],
            recency=scorer.recency[i],
            relevance=relevance_of(counts[i]) if has_keywords else 0.0,
            superseded=entry.superseded,
            total=scores[i] if rank else 0.0,
            rank=rank,
            importance=entry.importance,
            usage=entry.usage,
            keyword_finder=_KeywordFinder(scorer, i, task_count),
        )

    def positions(self, task_count: int) -> "array[int]":
        """Each scored entry's 0-based place in its section's ranking (-1: inactive, not ranked)."""
        with self._lock:
            return self._positions_for(task_count)

    def _positions_for(self, task_count: int) -> "array[int]":
        def place() -> "array[int]":
            from array import array  # the app's and explain's: not loaded by a cold `pack`

            found = array("i", [-1]) * len(self.scored)  # compact: a few are kept per task count
            for members in self._ranking(task_count).values():
                for at, i in enumerate(members):
                    found[i] = at
            return found

        return kept(self._positions, task_count, place, self.ranking_cache)

    # -- across budgets --------------------------------------------------------

    def candidate_tasks(self) -> Sequence[Entry]:
        """The tasks as `candidates()` holds them: a TaskList makes a new entry each time it is read, and an
        outcome carries its candidate's very entry. Made with the candidates (the app's and explain's), not
        by a packet."""
        if not isinstance(self.tasks, TaskList):
            return self.tasks
        if self._candidate_tasks is None:
            start = len(self.parsed.constitution_candidates)
            self._candidate_tasks = self.candidates()[start : start + len(self.tasks)]
        return self._candidate_tasks

    def candidates(self) -> list[Entry]:
        """Every candidate in a fixed order: rules, tasks, conventions, scored entries, steering."""
        if self._candidates is None:
            parsed = self.parsed
            self._candidates = [
                *parsed.constitution_candidates,
                *self.tasks,
                *self.conventions,
                *parsed.conventions_skipped,
                *self.scored,
                *self.steering,
                *(e for e in parsed.steering if e not in self.steering),
                *([self.skill] if self.skill is not None else []),
            ]
        return self._candidates


def _skill_entry(skill: SkillFile, cost: Callable[[str], int]) -> Entry:
    label = f".context/skills/{skill.name}/SKILL.md"
    return Entry(
        key=f"skill:{label}",
        section="skill",
        title=skill.title or skill.name,
        text=skill.body,
        tokens=cost(skill.body),
        source=f"{label}:{skill.line}",
    )


def _recost(parsed: ParsedContext, memories: list[Entry], count: Callable[[str], int]) -> tuple[Any, list[Entry]]:
    """The same candidates, with token costs from another tokenizer."""

    def each(entries: Sequence[Entry]) -> list[Entry]:
        return [e._replace(tokens=count(e.text)) for e in entries]

    recosted = parsed._replace(
        tasks=each(parsed.tasks),
        conventions=each(parsed.conventions),
        decisions=each(parsed.decisions),
        learnings=each(parsed.learnings),
        steering=each(parsed.steering),
    )
    return recosted, each(memories)


def _memory_weight(entry: Entry) -> float:
    """Importance and usage scale a memory's score; 1.0 at importance 0.5 and no usage data."""
    if entry.importance is None and entry.usage is None:
        return 1.0
    importance = entry.importance if entry.importance is not None else 0.5
    usage = entry.usage if entry.usage is not None else 1.0
    return (0.5 + importance) * usage


class _KeywordFinder:
    """`scorer.matched_keywords(index, task_count)` when called: a breakdown's keywords, found only when shown
    (as `functools.partial` would, which a cold `pack` does not import)."""

    __slots__ = ("index", "scorer", "task_count")

    def __init__(self, scorer: Scorer, index: int, task_count: int) -> None:
        self.scorer, self.index, self.task_count = scorer, index, task_count

    def __call__(self) -> tuple[str, ...]:
        return self.scorer.matched_keywords(self.index, self.task_count)
