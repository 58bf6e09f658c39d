"""`shabka context-pack` as a packer: the KNN and ranking once per settings, a prefix walk per budget.

`cmd_context_pack` (`crates/shabka-cli/src/main.rs:838-955`) in order, with
what each step does to a candidate:

1. opening the store rebuilds vec0 from `embeddings` (`core/storage/sqlite.rs:237-296`):
   a blob of the wrong length, or a dimension vec0 cannot take, fails the
   command (exit 1); vectors of a minority dimension are skipped;
2. `-k` must name a kind, case-insensitively (`model/memory.rs:203-220`), else exit 1;
3. the query (`*` when empty) is hash-embedded and the 50 nearest vectors
   taken — over every stored vector, before any filter (`knn`); a store whose
   vectors are not 128-d gives nothing;
4. the nearest join `memories`: orphan vectors and `pending` rows drop out;
   a row Shabka cannot read fails the command (`memory`);
5. private memories of other users are hidden (`core/sharing.rs:5-29`);
6. kind, tag (any of) and project (exact) filters (`main.rs:891-906`);
7. the seven signals and their fusion, a stable sort (`rank`);
8. packing in rank order, stopping at the first memory that does not fit
   (`core/context_pack.rs:16-39`).

Steps 1-7 depend on the store and the settings only, so they run once; a
plan is the number of ranked memories whose running cost fits the budget.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, NamedTuple

import numpy as np

from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Bucket, Entry, Outcome, Plan, ScoreBreakdown
from ctxtui.engine.packers.base import INCLUDED, Knob, Packer
from ctxtui.engine.packers.shabka import knn, rank
from ctxtui.engine.packers.shabka.dates import DAY, seconds_between
from ctxtui.engine.packers.shabka.embed import DIMS, hash_embed
from ctxtui.engine.packers.shabka.entries import (
    ENTRY_SECTION,
    Hit,
    Ranked,
    entry_key,
    id_of_key,
    lenient_tags,
    orphan_key,
    ranked_entry,
    row_entry,
)
from ctxtui.engine.packers.shabka.fates import (
    STEP_FILTER,
    STEP_KNN,
    STEP_OPEN,
    STEP_PACK,
    STEP_PRIVACY,
    STEP_READ,
    ShabkaReason,
)
from ctxtui.engine.packers.shabka.knobs import ShabkaSettings, knobs, split_tags
from ctxtui.engine.packers.shabka.memory import (
    ID,
    KINDS,
    STATUS,
    SUMMARY,
    TAGS,
    TITLE,
    Memory,
    RowError,
    parse_memory,
)
from ctxtui.engine.packers.shabka.render import (
    EMPTY_PACK_NOTICE,
    memory_cost,
    render_json,
    render_text,
)
from ctxtui.engine.packers.shabka.vec0 import vec0_rows
from ctxtui.engine.reason_numbers import PrefixFit
from ctxtui.engine.sources.memory.shabka.store import ShabkaStore

K = knn.K
LEGACY_CREATORS = ("default", "shabka-hooks")
HASH_SAMPLE = 16  # stored vectors compared with the hash embedder's, to tell a hash store from another
HASH_SAMPLE_MIN = 3  # fewer cannot tell another embedder from a few stale vectors (tags edited, not re-embedded)


class ShabkaFailure(NamedTuple):
    """Shabka exits 1: the lines it prints after `Error: `, and the entry to blame, if one."""

    message: str  # anyhow's report: "context\n\nCaused by:\n    cause"
    step: int
    culprit: str | None = None

    @property
    def report(self) -> str:
        return f"Error: {self.message}"


class ShabkaPacker(Packer):
    """`shabka context-pack` (v0.5.2 at 1a194cdf, hash embedder) over one read store and one set of settings."""

    name = "shabka"
    title = "shabka context-pack (v0.5.2, hash embedder)"
    formats: ClassVar[tuple[str, ...]] = ("md", "json")

    def __init__(
        self,
        store: ShabkaStore,
        settings: ShabkaSettings,
        *,
        provider: str = "hash",
        provider_source: str = "default",
        knob_sources: Mapping[str, str] | None = None,
        user_default: str = "anonymous",
    ) -> None:
        self.store = store
        self.settings = settings
        self.provider = provider
        self._knob_sources = dict(knob_sources or {})
        self._user_default = user_default
        self._provider_source = provider_source
        self.failure: ShabkaFailure | None = None
        self.notices: list[str] = []  # why the pack may not be what the user's Shabka prints (said on stderr)
        self.notes = store.notes  # what reading the store noticed (shown with the outcomes, not on stderr)
        self.hits: list[Hit] = []
        self.ranked: list[Ranked] = []
        self.hash_check: tuple[int, int] | None = None  # (vectors compared, matching)
        self._rows_by_id = {row[ID]: row for row in store.rows if isinstance(row[ID], str)}
        if provider != "hash":
            self.notices.append(
                f"Shabka is configured with the {provider!r} embedder ({provider_source}): its query vector "
                "comes from that provider and cannot be reproduced here, so this is what the hash embedder "
                "would pack instead"
            )
        self._run()
        costs = [r.cost for r in self.ranked]
        self.cumulative: list[int] = []
        total = 0
        for cost in costs:
            total += cost
            self.cumulative.append(total)
        # Every row is one candidate, and so is each orphan vector among the nearest (no entry need be built).
        self._candidate_count = len(store.rows) + sum(h.reason is ShabkaReason.ORPHAN for h in self.hits)
        self._entries: list[Entry] | None = None
        self._fixed: list[Outcome] | None = None
        self._fixed_reasons: list[Any] | None = None

    # ------------------------------------------------------------ the one-off part

    def _run(self) -> None:
        emb = self.store.embeddings
        self._vectors, failure = vec0_rows(emb.dims, emb.memory_ids, emb.vectors)
        if failure is not None:
            self.failure = ShabkaFailure(failure, STEP_OPEN)
            return
        if not self._settle_kind():
            return
        if emb.dims != DIMS:
            if emb.memory_ids:
                self.notices.append(
                    f"this store's vectors are {emb.dims}-dimensional, not the hash embedder's 128: it was "
                    "embedded by another provider (Ollama, OpenAI...), whose query vector cannot be reproduced "
                    "here; Shabka's hash path finds nothing in it, so the pack is empty"
                )
            return
        if not emb.memory_ids:
            return
        self._check_hash_store()
        query = hash_embed(self.settings.search_query)
        distances = knn.l2_distances(self._vectors, query)
        nearest = knn.nearest(distances, K)
        self._join(nearest, distances)

    def _check_hash_store(self) -> None:
        """Recompute a few memories' hash vectors from their stored text; none matching means another embedder."""
        emb = self.store.embeddings
        slots = np.linspace(0, len(emb.memory_ids) - 1, num=min(HASH_SAMPLE, len(emb.memory_ids))).astype(int)
        compared = matching = 0
        for slot in dict.fromkeys(int(s) for s in slots):
            row = self._rows_by_id.get(emb.memory_ids[slot])
            if row is None or not all(isinstance(row[i], str) for i in (TITLE, SUMMARY, TAGS)):
                continue
            tags = lenient_tags(row[TAGS])
            text = f"{row[TITLE]}\n{row[SUMMARY]}\n{', '.join(tags)}"
            compared += 1
            matching += bool(np.array_equal(hash_embed(text), self._vectors[slot]))
        self.hash_check = (compared, matching)
        if compared >= HASH_SAMPLE_MIN and not matching:
            self.notices.append(
                f"none of the {compared} stored vectors checked is what the hash embedder makes of its memory's "
                "title, summary and tags: this store was probably embedded by another provider with 128 "
                "dimensions, whose query vector cannot be reproduced here; shown is what the hash embedder packs"
            )

    def _join(self, nearest: list[int], distances: np.ndarray) -> None:
        s = self.settings
        emb = self.store.embeddings
        survivors: list[tuple[int, Memory, float, float, str]] = []
        for index, slot in enumerate(nearest):
            memory_id = emb.memory_ids[slot]
            distance = float(distances[slot])
            sim = rank.similarity(distance)
            row = self._rows_by_id.get(memory_id)
            if row is None:
                self.hits.append(Hit(orphan_key(memory_id), index, distance, sim, ShabkaReason.ORPHAN, STEP_KNN))
                continue
            key = entry_key(row)
            status = row[STATUS]
            if status is None or status == "pending":
                self.hits.append(
                    Hit(
                        key,
                        index,
                        distance,
                        sim,
                        ShabkaReason.PENDING,
                        STEP_READ,
                        "its status is NULL" if status is None else "its status is pending",
                    )
                )
                continue
            failed = None
            if distance != distance:  # NaN: SQLite hands Rust a NULL distance
                failed = (
                    "Invalid column type Null at index: 18, name: distance",
                    "its vector holds NaN, so its distance is NULL",
                )
            else:
                try:
                    memory = parse_memory(row)
                except RowError as exc:
                    failed = (
                        f"could not read column {exc.column}: {exc.reason}",
                        f"Shabka cannot read its {exc.column}: {exc.reason}",
                    )
            if failed is not None:
                self._fail_row(key, index, distance, sim, *failed)
                done = {h.key for h in self.hits}
                for other, place, dist in self._nearest_rows(nearest, distances):
                    if other not in done and place != index:
                        self.hits.append(
                            Hit(
                                other,
                                place,
                                dist,
                                rank.similarity(dist),
                                ShabkaReason.FAILED,
                                STEP_READ,
                                "read before the failing row"
                                if place < index
                                else "never read: the command had failed",
                            )
                        )
                self.hits.sort(key=lambda h: h.knn_index)
                return
            if memory.privacy == "private" and memory.created_by != s.user and memory.created_by not in LEGACY_CREATORS:
                self.hits.append(
                    Hit(
                        key,
                        index,
                        distance,
                        sim,
                        ShabkaReason.PRIVATE,
                        STEP_PRIVACY,
                        f"private, created by {memory.created_by!r}; the user is {s.user!r}",
                    )
                )
                continue
            survivors.append((index, memory, distance, sim, key))
        relations = self.store.relations or {}
        contradictions = self.store.contradictions or {}
        ranked: list[Ranked] = []
        for index, memory, distance, sim, key in survivors:
            refused = self._filtered_out(memory)
            if refused is not None:
                self.hits.append(Hit(key, index, distance, sim, refused[0], STEP_FILTER, refused[1]))
                continue
            matched = rank.keyword(s.search_query, memory.title, memory.content, memory.tags)
            n_rel = relations.get(memory.id, 0)
            n_con = contradictions.get(memory.id, 0)
            signals = rank.fuse(
                sim,
                matched.score,
                rank.recency(memory.created_at, s.now),
                memory.importance,
                rank.access(memory.accessed_at, memory.created_at, s.now),
                rank.graph(n_rel),
                rank.trust(
                    memory.verification,
                    memory.source_type,
                    n_con,
                    bool(memory.tags),
                    len(memory.content.encode("utf-8")),
                ),
            )
            self.hits.append(Hit(key, index, distance, sim, None, STEP_PACK))
            ranked.append(
                Ranked(
                    memory,
                    key,
                    index,
                    distance,
                    signals,
                    matched,
                    n_rel,
                    n_con,
                    memory_cost(memory.title, memory.content, memory.tags),
                )
            )
        ranked.sort(key=lambda r: -r.signals.score)  # stable, as Rust's sort_by
        self.ranked = ranked

    def _settle_kind(self) -> bool:
        """`-k` parsed as `MemoryKind` (`model/memory.rs:203-220`): any case, else exit 1 (False)."""
        kind = self.settings.kind
        if kind is not None and rank.lowercase(kind) not in KINDS:
            self.failure = ShabkaFailure(f"unknown memory kind: {kind}", STEP_OPEN)
            return False
        self._kind = None if kind is None else rank.lowercase(kind)
        return True

    def _filtered_out(self, memory: Memory) -> tuple[ShabkaReason, str] | None:
        """The first of `-k`, `-t`, `-p` (`main.rs:891-906`, in that order) that refuses `memory`, and why."""
        s = self.settings
        if self._kind is not None and memory.kind != self._kind:
            return ShabkaReason.KIND, f"its kind is {memory.kind}; -k asks for {self._kind}"
        if s.tags and not any(t in memory.tags for t in s.tags):
            return (
                ShabkaReason.TAG,
                f"its tags are {', '.join(memory.tags) or '(none)'}; -t asks for any of {', '.join(s.tags)}",
            )
        if s.project is not None and memory.project_id != s.project:
            shown = "none" if memory.project_id is None else repr(memory.project_id)
            return ShabkaReason.PROJECT, f"its project is {shown}; -p asks for {s.project!r}"
        return None

    def _nearest_rows(self, nearest: list[int], distances: np.ndarray) -> list[tuple[str, int, float]]:
        """(key, place, distance) of the nearest that have a memory row."""
        emb = self.store.embeddings
        rows = ((index, slot, self._rows_by_id.get(emb.memory_ids[slot])) for index, slot in enumerate(nearest))
        return [(entry_key(row), index, float(distances[slot])) for index, slot, row in rows if row is not None]

    def _fail_row(self, key: str, index: int, distance: float, sim: float, cause: str, detail: str) -> None:
        self.hits.append(Hit(key, index, distance, sim, ShabkaReason.UNREADABLE, STEP_READ, detail))
        self.failure = ShabkaFailure(
            f"vector search failed\n\nCaused by:\n    Storage error: failed to read vec search row: {cause}",
            STEP_READ,
            key,
        )

    # ------------------------------------------------------------ per budget

    def plan(self, budget: int) -> Plan:
        if self.failure is not None:
            return Plan(self, budget, 0, 0)
        n = bisect_right(self.cumulative, budget)
        return Plan(self, budget, self.cumulative[n - 1] if n else 0, n)

    def packed(self, plan: Plan) -> list[Memory]:
        return [r.memory for r in self.ranked[: plan.state]]

    def render(self, plan: Plan, fmt: str) -> str:
        """What Shabka prints on stdout: "" for an empty pack or a failure (those go to stderr)."""
        memories = self.packed(plan)
        if fmt == "md":
            return render_text(memories, plan.tokens_used, self.settings.project)
        if fmt == "json":
            return render_json(memories, plan.tokens_used, plan.budget, self.settings.project)
        raise ValueError(f"shabka prints md or json, not {fmt!r}")

    def stderr(self, plan: Plan) -> tuple[str, int]:
        """What Shabka prints on stderr after its log lines, and its exit status."""
        if self.failure is not None:
            return self.failure.report + "\n", 1
        if plan.state == 0:
            return EMPTY_PACK_NOTICE + "\n", 0
        return "", 0

    def candidates(self) -> Sequence[Entry]:
        if self._entries is None:
            self._build_entries()
        assert self._entries is not None
        return self._entries

    def fate_vector(self, plan: Plan) -> bytearray:
        n = plan.state
        return bytearray(bytes([INCLUDED]) * n + bytes(self._candidate_count - n))

    def outcomes(self, plan: Plan) -> list[Outcome]:
        self.candidates()
        assert self._fixed is not None and self._entries is not None
        n = plan.state
        budget = plan.budget
        out: list[Outcome] = []
        used = 0
        misfit_key = None
        for place, ranked in enumerate(self.ranked, start=1):
            entry = self._entries[place - 1]
            score = self._score(ranked, place)
            numbers = PrefixFit(cap=budget, used_before=used, needs=ranked.cost, budget=budget, remaining=budget - used)
            if place <= n:
                out.append(Outcome(entry, STEP_PACK, Fate.INCLUDED, ShabkaReason.PACKED, numbers, score))
                used += ranked.cost
            elif place == n + 1:
                misfit_key = entry.key
                out.append(Outcome(entry, STEP_PACK, Fate.DROPPED, ShabkaReason.MISFIT, numbers, score))
            else:
                out.append(
                    Outcome(
                        entry, STEP_PACK, Fate.DROPPED, ShabkaReason.AFTER_MISFIT, numbers, score, blocked_by=misfit_key
                    )
                )
        return out + self._fixed

    # Outcomes are in candidate order: the ranked (at most 50) by place, then those fixed for the load.
    def packet_order(self, plan: Plan) -> Sequence[int]:
        return range(len(self.candidates()))

    def packet_places(self, plan: Plan) -> Sequence[int]:
        return range(len(self.candidates()))

    def outcome_at(self, plan: Plan, index: int) -> Outcome:
        """`outcomes(plan)[index]`, made alone."""
        self.candidates()
        assert self._fixed is not None and self._entries is not None
        if index >= len(self.ranked):
            return self._fixed[index - len(self.ranked)]
        n, budget, ranked = plan.state, plan.budget, self.ranked[index]
        packed_before = min(index, n)
        used = self.cumulative[packed_before - 1] if packed_before else 0
        entry, score = self._entries[index], self._score(ranked, index + 1)
        numbers = PrefixFit(cap=budget, used_before=used, needs=ranked.cost, budget=budget, remaining=budget - used)
        if index < n:
            return Outcome(entry, STEP_PACK, Fate.INCLUDED, ShabkaReason.PACKED, numbers, score)
        if index == n:
            return Outcome(entry, STEP_PACK, Fate.DROPPED, ShabkaReason.MISFIT, numbers, score)
        blocked = self._entries[n].key
        return Outcome(entry, STEP_PACK, Fate.DROPPED, ShabkaReason.AFTER_MISFIT, numbers, score, blocked_by=blocked)

    def reason_vector(self, plan: Plan) -> Sequence[Any] | None:
        """`outcomes(plan)`'s reasons (in candidate order already) without building them: the ranked prefix
        by place, the rest fixed for the load."""
        self.candidates()
        assert self._fixed is not None
        if self._fixed_reasons is None:
            self._fixed_reasons = [outcome.reason for outcome in self._fixed]
        n, ranked = plan.state, len(self.ranked)
        misfit = [ShabkaReason.MISFIT] if n < ranked else []
        after = [ShabkaReason.AFTER_MISFIT] * max(0, ranked - n - 1)
        return [ShabkaReason.PACKED] * min(n, ranked) + misfit + after + self._fixed_reasons

    def buckets(self, plan: Plan) -> list[Bucket]:
        return [Bucket(STEP_PACK, ENTRY_SECTION, plan.budget, plan.tokens_used)]

    def next_change(self, plan: Plan) -> int | None:
        """The pack grows only when the budget reaches the running cost of one more ranked memory."""
        n: int = plan.state
        if self.failure is not None or n >= len(self.cumulative):
            return None
        return max(self.cumulative[n], plan.budget + 1)

    def knobs(self) -> tuple[Knob, ...]:
        return knobs(self.settings, self._knob_sources, self._user_default)

    def with_knob(self, key: str, value: Any, source: str = "set here") -> ShabkaPacker:
        """The same store packed for another query, project, kind, tags or user (Shabka runs again)."""
        field = {"query": "query", "project": "project", "kind": "kind", "tag": "tags", "user": "user"}
        if key not in field:
            raise KeyError(f"shabka has no setting {key!r}")
        if key == "query" and value is None:
            value = ""
        if key == "tag" and (value is None or isinstance(value, str)):  # the MCP tool's one string, carried over
            value = split_tags(value)
        settings = replace(self.settings, **{field[key]: value})
        return ShabkaPacker(
            self.store,
            settings,
            provider=self.provider,
            provider_source=self._provider_source,
            knob_sources={**self._knob_sources, key: source},
            user_default=self._user_default,
        )

    # ------------------------------------------------------------ entries and outcomes that never change

    def _score(self, ranked: Ranked, place: int) -> ScoreBreakdown:
        sig = ranked.signals
        memory = ranked.memory
        age = seconds_between(self.settings.now, memory.created_at)
        credits = ranked.keyword.credits
        return ScoreBreakdown(
            age_days=age // DAY if age >= 0 else -((-age) // DAY),
            recency=sig.recency,
            relevance=sig.keyword,
            superseded=False,
            total=sig.score,
            rank=place,
            importance=sig.importance,  # superseded ones score as any
            keyword_finder=lambda: tuple(term for term, credit, _ in credits if credit > 0),
        )

    def _build_entries(self) -> None:
        """Every candidate: the ranked in rank order, the other nearest in KNN order, then every other row."""
        entries: list[Entry] = []
        fixed: list[Outcome] = []
        seen: set[str] = set()
        failed: tuple[tuple[str, Any], ...] = ()
        if self.failure is not None:
            failed = (("failure", self.failure.report.split("\n")[0]),)
        for place, ranked in enumerate(self.ranked, start=1):
            entries.append(ranked_entry(ranked, place))
            seen.add(ranked.key)
        for hit in self.hits:
            if hit.reason is None:
                continue
            entry = self._hit_entry(hit, failed)
            seen.add(hit.key)
            entries.append(entry)
            reason = hit.reason
            if self.failure is not None and reason is not ShabkaReason.UNREADABLE:
                reason = ShabkaReason.FAILED
            blamed = self.failure.culprit if self.failure is not None else None
            fixed.append(Outcome(entry, hit.step, Fate.DROPPED, reason, blocked_by=blamed))
        emb = self.store.embeddings
        with_vector = set(emb.memory_ids)
        opened = self.failure is None or self.failure.step != STEP_OPEN
        step = STEP_KNN if opened else STEP_OPEN
        dims = (("store_dimensions", emb.dims),)
        for row in self.store.rows:
            key = entry_key(row)
            if key in seen:
                continue
            memory_id = row[ID]
            extra: tuple[tuple[str, Any], ...] = ()
            if not opened:
                reason, extra = ShabkaReason.FAILED, failed
            elif memory_id in with_vector:
                reason = ShabkaReason.OUTSIDE_KNN if emb.dims == DIMS else ShabkaReason.NOT_SEARCHED
                extra = dims
            elif memory_id in emb.other_dims:
                reason, extra = ShabkaReason.OTHER_DIMS, (("dimensions", emb.other_dims[memory_id]), *dims)
            else:
                reason = ShabkaReason.NO_EMBEDDING
            entry = row_entry(row, extra)
            entries.append(entry)
            fixed.append(Outcome(entry, step, Fate.DROPPED, reason))
        self._entries = entries
        self._fixed = fixed

    def _hit_entry(self, hit: Hit, failed: tuple[tuple[str, Any], ...]) -> Entry:
        extra: tuple[tuple[str, Any], ...] = (
            ("knn_place", hit.knn_index + 1),
            ("distance", hit.distance),
            ("similarity", hit.similarity),
            *failed,
        )
        if hit.detail:
            extra += (("why", hit.detail),)
        if hit.reason is ShabkaReason.ORPHAN:
            memory_id = hit.key.split(":", 2)[-1]
            return Entry(
                key=hit.key,
                section=ENTRY_SECTION,
                title=f"(vector without a memory: {memory_id})",
                text="",
                tokens=0,
                source=hit.key,
                extra=extra,
            )
        row = self._rows_by_id[id_of_key(hit.key)]
        return row_entry(row, extra)

    def hit(self, key: str) -> Hit | None:
        """How the memory with this key fared among the 50 nearest (None: it was not among them)."""
        for hit in self.hits:
            if hit.key == key:
                return hit
        return None
