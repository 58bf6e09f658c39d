"""nous's turn log and memory rows as plain data: what the store reads, what the packer rebuilds from.

No driver here: `nous_store` fills these from PostgreSQL, tests build them by
hand. Two tables log a turn (see notes/nous.md §3):

- `nous_system.context_log`: one row per LLM API call (`ContextCall`), so a
  tool loop gives several rows with one turn number. Each holds the frame,
  the model and `token_breakdown`, the tokens of each system-prompt section
  (`len(text)//4` over the re-parsed prompt).
- `nous_system.retrieval_log`: one row per retrieval (`Retrieval`); path
  'context' is the per-turn ContextEngine.build. Its `candidates` (each with a
  disposition and the gate that decided it) is NULL unless that retrieval was
  sampled (10 % by default), and holds 200-character snippets, not the text.

The two are joined on (agent_id, session_id, turn_number): the `trace_id`
columns exist in both tables but nous never fills them (070 keeps it
"reserved"). A `TurnSummary.key` is therefore the context retrieval's id when
the turn has one, else its first API call's id.

Values are untrusted database text: kept as `str`, escaped by whoever shows them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ctxtui.engine.sources.memory.shared.values import MAX_JSON_DEPTH
from ctxtui.engine.text.json_depth import deeper_than

# Dispositions nous's RetrievalTrace gives a candidate (retrieval_trace.py@15547956).
RENDERED = "rendered"
BUDGET_TRUNCATED = "budget_truncated"
MEMORY_TYPES = ("decision", "fact", "procedure", "episode")
# Which table holds each candidate type, as provenance spells it: nous:<table>:<id>.
TABLE_OF_TYPE = {"decision": "decisions", "fact": "facts", "procedure": "procedures", "episode": "episodes"}
SCHEMA_OF_TABLE = {"decisions": "brain", "facts": "heart", "procedures": "heart", "episodes": "heart"}


def provenance(mem_type: str, mem_id: str) -> str:
    """`nous:<table>:<id>`, e.g. `nous:facts:6c0…`."""
    return f"nous:{TABLE_OF_TYPE.get(mem_type, mem_type)}:{mem_id}"


@dataclass(frozen=True, slots=True)
class Mutation:
    """A score change a stage made to a candidate (e.g. the recency resolver's ×0.3)."""

    stage: str
    score_before: float | None
    score_after: float | None
    reason: str | None


@dataclass(frozen=True, slots=True)
class Candidate:
    """One logged candidate of a retrieval: where it entered, and what became of it."""

    id: str
    type: str
    entry_leg: str | None
    entry_score: float | None
    entry_rank: int | None
    snippet: str | None
    final_rank: int | None
    disposition: str
    disposition_stage: str | None
    restored_from: str | None = None
    mutations: tuple[Mutation, ...] = ()

    @property
    def provenance(self) -> str:
        return provenance(self.type, self.id)

    @property
    def rendered(self) -> bool:
        return self.disposition == RENDERED


@dataclass(frozen=True, slots=True)
class Leg:
    """A retrieval leg: whether it ran, how many it returned, why it was skipped."""

    name: str
    attempted: bool
    n_returned: int = 0
    n_deduped: int = 0
    score_min: float | None = None
    score_max: float | None = None
    error: str | None = None
    skip_reason: str | None = None


@dataclass(frozen=True, slots=True)
class ContextCall:
    """One `context_log` row: one LLM API call of a turn."""

    id: str
    timestamp: str  # ISO 8601, UTC
    call_type: str
    model: str
    frame_id: str | None
    token_breakdown: Mapping[str, int]
    total_tokens_est: int
    context_window_size: int
    utilization_pct: float
    sections_present: tuple[str, ...]
    loaded: Mapping[str, int]  # loaded_facts, … as "facts", "decisions", … (bullet counts of the prompt)
    input_tokens_actual: int | None = None
    output_tokens: int | None = None
    cache_read: int | None = None
    cache_creation: int | None = None
    duration_ms: float | None = None
    stop_reason: str | None = None
    trace_id: str | None = None


@dataclass(frozen=True, slots=True)
class Retrieval:
    """One `retrieval_log` row of path 'context'."""

    id: str
    timestamp: str
    query: str | None
    duration_ms: float | None
    legs: tuple[Leg, ...]
    n_candidates: int
    n_rendered: int
    disposition_counts: Mapping[str, int]
    candidates: tuple[Candidate, ...] | None  # None: not sampled
    truncated: bool = False
    excluded_types: tuple[Mapping[str, Any], ...] = ()
    trace_id: str | None = None

    @property
    def sampled(self) -> bool:
        return self.candidates is not None

    def leg(self, name: str) -> Leg | None:
        for leg in self.legs:
            if leg.name == name:
                return leg
        return None


@dataclass(frozen=True, slots=True)
class TurnSummary:
    """A row of `ctxtui turns`: one (session, turn) with its first call and its context retrieval."""

    key: str  # what `--turn` takes: the context retrieval's id, else the first call's id
    agent_id: str
    session_id: str | None
    turn_number: int | None
    timestamp: str
    frame_id: str | None
    model: str | None
    calls: int  # context_log rows (API calls) of the turn
    tokens: Mapping[str, int]  # the first call's token_breakdown
    total_tokens_est: int | None
    retrieval_id: str | None
    n_candidates: int | None
    n_rendered: int | None
    sampled: bool
    query: str | None = None
    recall_calls: int = 0  # pipeline-path retrievals (recall_deep) in the same turn
    earlier_turn: bool | None = None  # a lower turn number of the session is logged (None: not looked up)

    @property
    def section_tokens(self) -> dict[str, int]:
        """The prompt sections' tokens: the breakdown without tools and messages."""
        return {k: v for k, v in self.tokens.items() if k not in ("tools_definition", "messages")}


@dataclass(frozen=True, slots=True)
class Turn:
    """One logged turn in full: its API calls and its context retrieval."""

    summary: TurnSummary
    calls: tuple[ContextCall, ...]
    retrieval: Retrieval | None

    @property
    def first_call(self) -> ContextCall | None:
        return self.calls[0] if self.calls else None


@dataclass(frozen=True, slots=True)
class NousRow:
    """A memory row as the rebuild needs it: its type, id, and the columns the formatters read.

    Times are naive datetimes in UTC (as nous's asyncpg hands them to its
    formatters); arrays are tuples; `structured_summary` is a dict or None.
    """

    type: str
    id: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        value = self.values.get(name, default)
        return default if value is None else value

    @property
    def provenance(self) -> str:
        return provenance(self.type, self.id)


# -- JSON cells → dataclasses (tolerant: a log row is evidence, not a contract) --


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _float(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _str(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)


def _json(value: Any) -> Any:
    if isinstance(value, (str, bytes)):
        try:
            return bounded_json_loads(value)
        except ValueError:
            return None
    return value


class NestedTooDeeply:
    """What a jsonb cell nested deeper than MAX_JSON_DEPTH reads as: neither a list nor a dict, so the
    parsers above treat it as a malformed cell (no legs, no counts) and the rest of the row still reads."""

    def __repr__(self) -> str:
        return f"<JSON nested more than {MAX_JSON_DEPTH} levels deep>"


NESTED_TOO_DEEPLY = NestedTooDeeply()


def bounded_json_loads(data: str | bytes | bytearray | memoryview) -> Any:
    """json.loads for psycopg's jsonb cells and ours: JSON deeper than MAX_JSON_DEPTH is NESTED_TOO_DEEPLY.

    psycopg parses jsonb with json.loads while fetching, so one cell holding
    `[[[[…]]]]` (PostgreSQL stores thousands of levels) used to abort the
    whole query with RecursionError. Registered on every connection.
    """
    text = bytes(data).decode("utf-8", "replace") if not isinstance(data, str) else data
    if deeper_than(text, MAX_JSON_DEPTH):
        return NESTED_TOO_DEEPLY
    return json.loads(text)


def parse_legs(value: Any) -> tuple[Leg, ...]:
    items = _json(value)
    if not isinstance(items, list):
        return ()
    legs = []
    for item in items:
        if isinstance(item, dict) and item.get("name"):
            legs.append(
                Leg(
                    str(item["name"]),
                    bool(item.get("attempted")),
                    _int(item.get("n_returned")) or 0,
                    _int(item.get("n_deduped")) or 0,
                    _float(item.get("score_min")),
                    _float(item.get("score_max")),
                    _str(item.get("error")),
                    _str(item.get("skip_reason")),
                )
            )
    return tuple(legs)


def parse_candidates(value: Any) -> tuple[Candidate, ...] | None:
    """The `candidates` cell: None when NULL (not sampled); malformed items are skipped."""
    items = _json(value)
    if items is None:
        return None
    if not isinstance(items, list):
        return ()
    out = []
    for item in items:
        if not isinstance(item, dict) or item.get("id") in (None, "") or not item.get("type"):
            continue
        mutations = tuple(
            Mutation(
                str(m.get("stage") or ""),
                _float(m.get("score_before")),
                _float(m.get("score_after")),
                _str(m.get("reason")),
            )
            for m in (item.get("mutations") or [])
            if isinstance(m, dict)
        )
        out.append(
            Candidate(
                id=str(item["id"]),
                type=str(item["type"]),
                entry_leg=_str(item.get("entry_leg")),
                entry_score=_float(item.get("entry_score")),
                entry_rank=_int(item.get("entry_rank")),
                snippet=_str(item.get("snippet")),
                final_rank=_int(item.get("final_rank")),
                disposition=str(item.get("disposition") or "unaccounted"),
                disposition_stage=_str(item.get("disposition_stage")),
                restored_from=_str(item.get("restored_from")),
                mutations=mutations,
            )
        )
    return tuple(out)


def parse_counts(value: Any) -> dict[str, int]:
    data = _json(value)
    if not isinstance(data, dict):
        return {}
    return {str(k): n for k, v in data.items() if (n := _int(v)) is not None}


def iso(value: Any) -> str:
    """A timestamp cell as ISO 8601 text, in UTC when aware (psycopg hands timestamptz over in the server's zone)."""
    if isinstance(value, datetime):
        when: datetime = value.astimezone(UTC) if value.tzinfo is not None else value
        return when.isoformat()
    return "" if value is None else str(value)
