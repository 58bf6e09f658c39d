"""The cortex packer: `drift memory why FOCUS -i INTENT --max-tokens N` of the TypeScript Cortex, exactly.

Built once per load from a `CortexStore` and the settings (focus, intent,
"now", the local time zone, the retrievalTime to print). Everything that
depends only on those — the candidates, every score factor, the intent
weights, the ranking, each memory's summary and expanded tokens — is
computed here, once; `plan(budget)` then runs the two-pass fit over at most
20 memories, so the slider costs microseconds whatever the store's size.

This is Cortex's **vector-less path**: an embedding model answers but
sqlite-vec is absent, so the candidates are the 20 most recently accessed
memories, not the nearest by meaning (cortex.md §2, §4). The label is in the
packer's title and in every explanation, never in the packet.

Candidates (in `candidates()` order): the ranked memories first, then
repeated ids, then every other row of the store (archived, or not among the
20) — so each memory in the database has an outcome that says why.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from ctxtui.engine.fate import Fate
from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import Bucket, Entry, Outcome, Plan
from ctxtui.engine.packers.base import INCLUDED, SUMMARIZED, Knob, Packer
from ctxtui.engine.packers.cortex.compression import Compressed, compress
from ctxtui.engine.packers.cortex.entries import _int, listing_entry, memory_entry
from ctxtui.engine.packers.cortex.fit import EXPAND_TOP, EXPANDED, Fit, fit, next_change
from ctxtui.engine.packers.cortex.gather import FALLBACK, Candidate, Gathering, gather
from ctxtui.engine.packers.cortex.outcomes import COMPONENT_FIELDS, CortexNumbers, CortexReason
from ctxtui.engine.packers.cortex.rank import Ranked, rank
from ctxtui.engine.packers.cortex.render import (
    error_output,
    group_by_type,
    not_initialized,
    render_json,
    render_text,
)
from ctxtui.engine.packers.cortex.score import Factors, focus_words, score
from ctxtui.engine.packers.cortex.weights import DEFAULT_INTENT, INTENTS, weight
from ctxtui.engine.sources.memory.cortex.v1_store import CortexListing, CortexStore
from ctxtui.engine.text.js import UNDEFINED, JSError

TITLE = "drift memory why: Cortex's retrieval budget (TypeScript v1, vector-less path)"
PATH_LABEL = "Cortex vector-less path"
EMBEDDING_CHOICES = ("works", "fails", "absent")
# No model, no Ollama, no OpenAI key: Cortex.create throws before retrieving (cortex.md §2).
NO_EMBEDDINGS = "Error: Failed to initialize Cortex: Error: Failed to initialize Transformers.js"


def epoch_ms(now: datetime | float | int) -> float:
    """`Date.now()` for a pinned clock: whole milliseconds since the epoch."""
    if isinstance(now, datetime):
        if now.tzinfo is None:
            now = now.replace(tzinfo=UTC)
        delta = now - datetime(1970, 1, 1, tzinfo=UTC)
        return float((delta.days * 86_400_000_000 + delta.seconds * 1_000_000 + delta.microseconds) // 1000)
    return float(math.floor(now))


@dataclass(slots=True)
class CortexState:
    """One plan: the fit, and the error line the CLI prints instead of the packet, if any."""

    fit: Fit | None
    error: str | None
    groups: list[tuple[str, list[tuple[dict[str, Any], float]]]] | None


@dataclass(frozen=True, slots=True)
class Scored:
    """A ranked candidate with everything decided before the budget."""

    candidate: Candidate
    factors: Factors
    intent_weight: float
    ranked: Ranked
    compressed: Compressed


class CortexPacker(Packer):
    """`drift memory why` over one Cortex v1 store (None: no database, the CLI's "not initialized")."""

    name = "cortex"
    title = TITLE
    formats = ("md", "json")

    def __init__(
        self,
        store: CortexStore | None,
        *,
        focus: str,
        intent: str = DEFAULT_INTENT,
        now: datetime | float,
        zone: tzinfo = UTC,
        retrieval_time: float = 0,
        embedding: str = "works",
        sources: dict[str, str] | None = None,
        rows: _StoreRows | None = None,
    ) -> None:
        self.store = store
        self.focus = focus
        self.intent = intent
        self.now = now
        self.now_ms = epoch_ms(now)
        self.zone = zone
        self.retrieval_time = float(retrieval_time)
        self.embedding = embedding
        self.sources = dict(sources or {})
        self.failure: str | None = None  # an error every plan prints, whatever the budget
        self.gathering: Gathering | None = None
        self.scored: list[Scored] = []
        self.total_candidates = 0
        # Entries of the store's rows that were not gathered depend on the store alone: shared by every
        # packer `with_settings` makes, so a knob change re-ranks 20 memories, not 50,000 rows.
        self._rows = rows if rows is not None else _StoreRows(store)
        self._entries: list[Entry] = []
        self._head: list[Outcome] = []  # outcomes of gathered-but-unranked entries (failures, duplicates)
        self._tail: list[tuple[int, Any]] = []  # (listing index, row key) of the other rows, in rowid order
        self._static: list[Outcome] | None = None
        self._static_reasons: list[Any] | None = None
        if store is None:
            self.path = "none"
        elif store.init_error is not None:
            self.path = "none"
            self.failure = store.init_error
        elif embedding == "absent":
            self.path = "none"
            self.failure = NO_EMBEDDINGS
        else:
            self._prepare(store)
        with gc_paused():
            self._build_entries()
        self._compressed = [item.compressed for item in self.scored]
        self._base_vector = bytearray(len(self._entries))

    # -- settings-only work

    def _prepare(self, store: CortexStore) -> None:
        gathering = gather(store, self.focus, embedding_works=self.embedding != "fails")
        self.gathering = gathering
        self.path = gathering.path
        if gathering.error is not None:
            self.failure = str(gathering.error)
            return
        candidates = gathering.candidates
        self.total_candidates = len(candidates)
        words = focus_words(self.focus)
        try:
            factors = [score(c.memory, words, self.now_ms, self.zone) for c in candidates]
            weights = [weight(c.memory.get("type", UNDEFINED), self.intent) for c in candidates]
        except JSError as error:
            self.failure = str(error)
            return
        weighted = [
            (i, f.score * w, c.memory.get("type", UNDEFINED))
            for i, (c, f, w) in enumerate(zip(candidates, factors, weights, strict=True))
        ]
        self.scored = [
            Scored(
                candidates[r.candidate],
                factors[r.candidate],
                weights[r.candidate],
                r,
                compress(candidates[r.candidate].memory),
            )
            for r in rank(weighted)
        ]

    @property
    def path_label(self) -> str:
        """Which way the candidates were gathered, in words, for the screen."""
        if self.path == FALLBACK and self.gathering is not None:
            return f"{PATH_LABEL}, substring fallback ({self.gathering.why_fallback})"
        return f"{PATH_LABEL}: the 20 most recently accessed memories"

    def _build_entries(self) -> None:
        entries = self._entries
        head = self._head
        taken: set[Any] = set()
        if self.scored:
            for item in self.scored:
                entries.append(memory_entry(item.candidate, item.compressed, self.zone))
                taken.add(_row_key(item.candidate.row.rowid, item.candidate.row.id))
        elif self.gathering is not None:  # the retrieval failed after gathering: show what was gathered
            for candidate in self.gathering.candidates:
                entry = memory_entry(candidate, None, self.zone)
                entries.append(entry)
                head.append(Outcome(entry, 0, Fate.DROPPED, CortexReason.FAILED, CortexNumbers(error=self.failure)))
                taken.add(_row_key(candidate.row.rowid, candidate.row.id))
        if self.gathering is not None:
            for candidate in self.gathering.duplicates:
                entry = memory_entry(candidate, None, self.zone)
                entries.append(entry)
                head.append(Outcome(entry, 0, Fate.DROPPED, CortexReason.DUPLICATE, CortexNumbers()))
                taken.add(_row_key(candidate.row.rowid, candidate.row.id))
        rows = self._rows
        if taken:
            self._tail = [(i, key) for i, key in enumerate(rows.keys) if key not in taken]
            entries.extend(rows.entries[i] for i, _ in self._tail)
        else:
            self._tail = list(enumerate(rows.keys))
            entries.extend(rows.entries)

    def _static_outcomes(self) -> list[Outcome]:
        """Outcomes of every entry after the ranked ones: the same at every budget, made on first use."""
        if self._static is None:
            rows = self._rows
            pool: dict[Any, int] = {}
            matched: set[int] = set()
            if self.path == FALLBACK and self.gathering is not None:
                pool = {_row_key(row.rowid, row.id): position for position, row in enumerate(self.gathering.pool)}
                matched = set(self.gathering.matched)
            cutoff = rows.recent_cutoff()
            with gc_paused():
                self._static = self._head + [
                    Outcome(
                        rows.entries[i],
                        0,
                        Fate.DROPPED,
                        *self._not_gathered(rows.listing[i], key, pool, matched, cutoff),
                    )
                    for i, key in self._tail
                ]
        return self._static

    def _not_gathered(
        self, listing: CortexListing, key: Any, pool: dict[Any, int], matched: set[int], cutoff: Any
    ) -> tuple[CortexReason, CortexNumbers]:
        accessed = None if listing.last_accessed is None else str(listing.last_accessed)
        if self.failure is not None and self.gathering is None:
            return CortexReason.FAILED, CortexNumbers(error=self.failure)
        if listing.archived != 0:
            return CortexReason.ARCHIVED, CortexNumbers(last_accessed=accessed)
        if self.failure is not None:
            return CortexReason.FAILED, CortexNumbers(error=self.failure)
        if self.path == FALLBACK:
            position = pool.get(key)
            if position is None:
                return CortexReason.FALLBACK_NOT_NEWEST, CortexNumbers(last_accessed=accessed)
            if position in matched:
                return CortexReason.FALLBACK_OVER_LIMIT, CortexNumbers(last_accessed=accessed)
            return CortexReason.FALLBACK_NO_MATCH, CortexNumbers(last_accessed=accessed)
        return CortexReason.NOT_GATHERED, CortexNumbers(
            last_accessed=accessed, cutoff=None if cutoff is None else str(cutoff)
        )

    # -- the Packer interface

    def knobs(self) -> tuple[Knob, ...]:
        src = self.sources
        return (
            Knob(
                "query",
                "focus",
                "str",
                self.focus,
                "",
                src.get("query", "default"),
                help="`drift memory why <focus>`: on the vector-less path it only moves the topic score",
            ),
            Knob(
                "intent",
                "intent",
                "choice",
                self.intent,
                DEFAULT_INTENT,
                src.get("intent", "default"),
                choices=INTENTS,
                help="-i: weights memory types (any other string weighs every type 1.0)",
            ),
            Knob(
                "retrieval_time",
                "retrievalTime printed (ms)",
                "int",
                int(self.retrieval_time),
                0,
                src.get("retrieval_time", "default"),
                minimum=0,
                help="the CLI prints its own wall time here; ctxtui prints this value",
            ),
            Knob(
                "embedding",
                "embedding of the focus",
                "choice",
                self.embedding,
                "works",
                src.get("embedding", "default"),
                choices=EMBEDDING_CHOICES,
                help="works: the recency path; fails: embed() throws and the substring fallback runs; "
                "absent: no provider loads and the CLI prints only an error",
            ),
        )

    def set_retrieval_time(self, milliseconds: float) -> None:
        """Set the retrievalTime the packet prints (the CLI's wall time; nothing else depends on it)."""
        self.retrieval_time = float(milliseconds)

    def with_knob(self, key: str, value: Any, source: str = "set here") -> CortexPacker:
        """The same store with the focus, intent, printed retrieval time or embedding behaviour changed."""
        field = {"query": "focus", "intent": "intent", "retrieval_time": "retrieval_time", "embedding": "embedding"}
        if key not in field:
            raise KeyError(f"cortex has no setting {key!r}")
        return self.with_settings(**{field[key]: value, "sources": {**self.sources, key: source}})

    def with_settings(self, **changes: Any) -> CortexPacker:
        """The same store under other settings (focus, intent, now, zone, retrieval_time, embedding)."""
        settings: dict[str, Any] = {
            "focus": self.focus,
            "intent": self.intent,
            "now": self.now,
            "zone": self.zone,
            "retrieval_time": self.retrieval_time,
            "embedding": self.embedding,
            "sources": self.sources,
        }
        settings.update(changes)
        return CortexPacker(self.store, rows=self._rows, **settings)

    def plan(self, budget: int) -> Plan:
        if self.store is None or self.failure is not None:
            return Plan(self, budget, 0, CortexState(None, self.failure, None))
        result = fit(self._compressed, float(budget))
        error = None if result.error is None else str(result.error)
        groups = None
        if error is None:
            kept = [(item.candidate.memory, item.ranked.score) for item in self.scored[: result.fitted]]
            try:
                groups = group_by_type(kept)
            except JSError as exc:
                error = str(exc)
        used = result.tokens_used if error is None else 0.0
        return Plan(self, budget, int(used) if math.isfinite(used) else 0, CortexState(result, error, groups))

    def render(self, plan: Plan, fmt: str) -> str:
        if fmt not in ("md", "text", "json"):
            raise ValueError(f"the cortex packet is printed as text (md) or json, not {fmt}")
        fmt = "json" if fmt == "json" else "text"
        if self.store is None:
            return not_initialized(fmt)
        state: CortexState = plan.state
        if state.error is not None:
            return error_output(state.error, fmt)
        assert state.fit is not None and state.groups is not None
        results = [(item.candidate.memory, item.ranked.score) for item in self.scored[: state.fit.fitted]]
        if fmt == "json":
            return render_json(
                self.focus, self.intent, state.fit.tokens_used, self.total_candidates, self.retrieval_time, results
            )
        return render_text(
            self.focus, self.intent, state.fit.tokens_used, float(plan.budget), self.retrieval_time, state.groups
        )

    def candidates(self) -> Sequence[Entry]:
        return self._entries

    def fate_vector(self, plan: Plan) -> bytearray:
        vector = self._base_vector[:]
        state: CortexState = plan.state
        if state.error is None and state.fit is not None:
            for index, level in enumerate(state.fit.levels):
                vector[index] = INCLUDED if level == EXPANDED else SUMMARIZED
        return vector

    def outcomes(self, plan: Plan) -> list[Outcome]:
        state: CortexState = plan.state
        ranked = [self._outcome(index, item, state) for index, item in enumerate(self.scored)]
        return ranked + self._static_outcomes()

    # Outcomes are in candidate order: the ranked few per plan, the rest the same at every budget (made once).
    def packet_order(self, plan: Plan) -> Sequence[int]:
        return range(len(self._entries))

    def packet_places(self, plan: Plan) -> Sequence[int]:
        return range(len(self._entries))

    def outcome_at(self, plan: Plan, index: int) -> Outcome:
        ranked = len(self.scored)
        return self._ranked_outcomes(plan)[index] if index < ranked else self._static_outcomes()[index - ranked]

    def reason_vector(self, plan: Plan) -> Sequence[Any] | None:
        """`outcomes(plan)`'s reasons (candidate order): the few ranked ones made, the rest fixed for the load."""
        if self._static_reasons is None:
            self._static_reasons = [outcome.reason for outcome in self._static_outcomes()]
        return [outcome.reason for outcome in self._ranked_outcomes(plan)] + self._static_reasons

    def component_vector(self, plan: Plan, component: str) -> Sequence[Any] | None:
        """A factor for every candidate: the ranked ones' from their outcomes, None for the rest (never ranked)."""
        field = COMPONENT_FIELDS.get(component)
        ranked = [] if field is None else [getattr(o.numbers, field) for o in self._ranked_outcomes(plan)]
        return None if field is None else ranked + [None] * (len(self._entries) - len(ranked))

    def _ranked_outcomes(self, plan: Plan) -> list[Outcome]:
        state: CortexState = plan.state
        return plan.derived(  # type: ignore[no-any-return]
            "cortex.ranked", lambda p: [self._outcome(i, item, state) for i, item in enumerate(self.scored)]
        )

    def _outcome(self, index: int, item: Scored, state: CortexState) -> Outcome:
        entry = self._entries[index]
        f, r, c = item.factors, item.ranked, item.compressed
        result = state.fit
        numbers = CortexNumbers(
            rank=index + 1,
            candidates=self.total_candidates,
            confidence=f.confidence,
            importance=f.importance,
            recency=f.recency,
            access=f.access,
            topic=f.topic,
            days_old=f.days_old,
            base=f.score,
            intent_weight=item.intent_weight,
            weighted=r.weighted,
            same_type_before=r.same_type_before,
            diversity=r.diversity,
            score=r.score,
            summary_tokens=c.summary_tokens,
            expanded_tokens=c.expanded_tokens,
            budget=None if result is None else result.budget,
        )
        tier = index + 1
        if state.error is not None or result is None:
            return Outcome(entry, tier, Fate.DROPPED, CortexReason.FAILED, numbers._replace(error=state.error))
        if index < result.fitted:
            before = result.used_before[index]
            numbers = numbers._replace(
                tokens=result.tokens[index], used_before=before, left=result.budget - before, leftover=result.leftover
            )
            if index < len(result.expand_costs):
                numbers = numbers._replace(expand_cost=result.expand_costs[index], used_after=result.running[index])
            if result.levels[index] == EXPANDED:
                overrun = result.running[index] > result.budget
                return Outcome(
                    entry,
                    tier,
                    Fate.INCLUDED,
                    CortexReason.EXPANDED_OVERRUN if overrun else CortexReason.EXPANDED,
                    numbers,
                )
            if not result.pass2:
                reason = CortexReason.NO_PASS_2
            elif index >= EXPAND_TOP:
                reason = CortexReason.NOT_TOP_3
            elif result.expand_costs[index] <= 0:
                reason = CortexReason.NOTHING_TO_EXPAND
            else:
                reason = CortexReason.EXPANSION_TOO_BIG
            return Outcome(entry, tier, Fate.SUMMARIZED, reason, numbers)
        if index == result.stopped_at:
            before = result.used_before[index]
            numbers = numbers._replace(used_before=before, left=result.budget - before)
            nan = c.summary_tokens != c.summary_tokens
            return Outcome(entry, tier, Fate.DROPPED, CortexReason.NAN_TOKENS if nan else CortexReason.MISFIT, numbers)
        blocked = self._entries[result.stopped_at].key if result.stopped_at is not None else None
        return Outcome(entry, tier, Fate.DROPPED, CortexReason.AFTER_MISFIT, numbers, blocked_by=blocked)

    def buckets(self, plan: Plan) -> list[Bucket]:
        state: CortexState = plan.state
        result = state.fit
        if result is None or state.error is not None:
            return [
                Bucket(1, "pass 1: summaries", _int(plan.budget), 0, reached=False),
                Bucket(2, "pass 2: expansions", 0, 0, reached=False),
            ]
        expansions = sum(
            t - self._compressed[i].summary_tokens for i, t in enumerate(result.tokens) if result.levels[i] == EXPANDED
        )
        return [
            Bucket(1, "pass 1: summaries", _int(result.budget), 0, summarized=_int(result.pass1_used)),
            Bucket(
                2,
                "pass 2: expansions",
                _int(result.leftover) if result.pass2 else 0,
                _int(expansions),
                overrun=max(0, _int(result.tokens_used - result.budget)),
                reached=result.pass2,
            ),
        ]

    def next_change(self, plan: Plan) -> int | None:
        state: CortexState = plan.state
        if state.fit is None:
            return None  # no database, or a failure every budget shares
        return next_change(self._compressed, state.fit, plan.budget)


def _row_key(rowid: int | None, row_id: Any) -> Any:
    return ("row", rowid) if rowid is not None else ("id", row_id)


class _StoreRows:
    """Every row of a store as an entry, keyed by rowid (or id): built once per store."""

    __slots__ = ("_index", "entries", "keys", "listing", "store")

    def __init__(self, store: CortexStore | None) -> None:
        self.store = store
        self.listing = store.listing if store is not None else ()
        with gc_paused():
            self.keys = [_row_key(row.rowid, row.id) for row in self.listing]
            self.entries = [listing_entry(row) for row in self.listing]
        self._index: dict[Any, int] | None = None

    def recent_cutoff(self) -> Any:
        """The last_accessed of the 20th candidate row (None when fewer than 20 were gathered)."""
        store = self.store
        if store is None or len(store.recent) < 20:
            return None
        if self._index is None:
            self._index = {key: i for i, key in enumerate(self.keys)}
        last = store.recent[-1]
        found = self._index.get(_row_key(last.rowid, last.id))
        return None if found is None else self.listing[found].last_accessed
