"""The SQL that reads nous's turn log, and the builders that make its rows `TurnSummary`, `ContextCall`, `Retrieval`.

Apart from `nous_store` (which owns the connection and runs these) because
the statements are long and the row layouts are tied to them column by
column: a change to one is a change to the other, in one file.
"""

from __future__ import annotations

from typing import Any

from ctxtui.engine.sources.memory.nous.model import (
    ContextCall,
    Retrieval,
    TurnSummary,
    iso,
    parse_candidates,
    parse_counts,
    parse_legs,
)
from ctxtui.engine.sources.memory.nous.pg_names import EQ, LT, NE

# Every function, type and operator qualified (pg_names): the database's own code may move the search path.
# The newest turns: the newest rows of each log (a turn's API calls are rarely more than a few dozen), grouped.
RECENT_KEYS = f"""
recent AS (
    (SELECT session_id, turn_number, "timestamp" FROM nous_system.context_log
     WHERE agent_id {EQ} %(agent)s ORDER BY "timestamp" DESC LIMIT %(scan)s)
    UNION ALL
    (SELECT session_id, turn_number, "timestamp" FROM nous_system.retrieval_log
     WHERE agent_id {EQ} %(agent)s AND path {EQ} 'context' AND session_id IS NOT NULL AND turn_number IS NOT NULL
     ORDER BY "timestamp" DESC LIMIT %(limit)s)
), keys AS (
    SELECT session_id, turn_number FROM recent GROUP BY session_id, turn_number
    ORDER BY pg_catalog.max("timestamp") DESC LIMIT %(limit)s
)"""
ONE_KEY = """
keys AS (SELECT %(session)s::pg_catalog.text AS session_id, %(turn)s::pg_catalog.int4 AS turn_number)"""
# A row of the log with this key's (session, turn): ON k.session_id = c.session_id …
SAME_TURN = f"{{a}}.session_id {EQ} {{b}}.session_id AND {{a}}.turn_number {EQ} {{b}}.turn_number"
# Turns as (session, turn) pairs; context_log and retrieval_log joined on them (nous leaves trace_id NULL).
TURNS_SQL = f"""
WITH {{keys}}, calls AS (
    SELECT c.session_id, c.turn_number, pg_catalog.count(*) AS n, pg_catalog.min(c."timestamp") AS first_at,
           (pg_catalog.array_agg(c.id ORDER BY c."timestamp", c.id))[1] AS first_id
    FROM nous_system.context_log c
    JOIN keys k ON {SAME_TURN.format(a="c", b="k")}
    WHERE c.agent_id {EQ} %(agent)s GROUP BY c.session_id, c.turn_number
), rets AS (
    SELECT DISTINCT ON (r.session_id, r.turn_number) r.id, r.session_id, r.turn_number, r."timestamp", r.query,
           r.n_candidates, r.n_rendered, r.candidates IS NOT NULL AS sampled
    FROM nous_system.retrieval_log r JOIN keys k ON {SAME_TURN.format(a="r", b="k")}
    WHERE r.agent_id {EQ} %(agent)s AND r.path {EQ} 'context'
    ORDER BY r.session_id, r.turn_number, r."timestamp" DESC, r.id DESC
), recalls AS (
    SELECT r.session_id, r.turn_number, pg_catalog.count(*) AS n
    FROM nous_system.retrieval_log r JOIN keys k ON {SAME_TURN.format(a="r", b="k")}
    WHERE r.agent_id {EQ} %(agent)s AND r.path {NE} 'context' GROUP BY r.session_id, r.turn_number
), turns AS (
    SELECT coalesce(rets.id, calls.first_id) AS key, coalesce(rets.session_id, calls.session_id) AS session_id,
           coalesce(rets.turn_number, calls.turn_number) AS turn_number,
           coalesce(calls.first_at, rets."timestamp") AS "when", calls.n AS n_calls, calls.first_id,
           rets.id AS retrieval_id, rets.query, rets.n_candidates, rets.n_rendered,
           coalesce(rets.sampled, false) AS sampled
    FROM calls FULL JOIN rets ON {SAME_TURN.format(a="rets", b="calls")}
)
SELECT t.key, t.session_id, t.turn_number, t."when", c.frame_id, c.model, coalesce(t.n_calls, 0), c.token_breakdown,
       c.total_tokens_est, t.retrieval_id, t.n_candidates, t.n_rendered, t.sampled, t.query, coalesce(r.n, 0)
FROM turns t
LEFT JOIN nous_system.context_log c ON c.id {EQ} t.first_id
LEFT JOIN recalls r ON {SAME_TURN.format(a="r", b="t")}
ORDER BY t."when" DESC, t.key DESC
"""
# Whether the session logged a lower turn number: nous's first turn (F083) is not logged, this is the evidence.
EARLIER_TURN_SQL = f"""
SELECT EXISTS (SELECT 1 FROM nous_system.context_log WHERE agent_id {EQ} %(agent)s AND session_id {EQ} %(session)s
               AND turn_number {LT} %(turn)s::pg_catalog.int4)
    OR EXISTS (SELECT 1 FROM nous_system.retrieval_log WHERE agent_id {EQ} %(agent)s AND session_id {EQ} %(session)s
               AND turn_number {LT} %(turn)s::pg_catalog.int4)
"""
SCAN_PER_TURN = 20  # context_log rows read per listed turn: enough for tool loops of 20 calls

CALL_SQL = """
SELECT id, "timestamp", call_type, model, frame_id, token_breakdown, total_tokens_est, context_window_size,
       utilization_pct, sections_present, loaded_facts, loaded_decisions, loaded_procedures, loaded_episodes,
       recent_conversations, input_tokens_actual, output_tokens, cache_read, cache_creation, duration_ms,
       stop_reason, trace_id
FROM nous_system.context_log
"""

RETRIEVAL_SQL = """
SELECT id, "timestamp", query, duration_ms, legs, n_candidates, n_rendered, disposition_counts, candidates, truncated,
       excluded_types, trace_id
FROM nous_system.retrieval_log
"""
# CALL_SQL's condition for one turn's calls: `IS NOT DISTINCT FROM` would look `=` up on the search path.
CALLS_OF_TURN = (
    f" WHERE agent_id {EQ} %(agent)s"
    f" AND (session_id {EQ} %(session)s OR (session_id IS NULL AND %(session)s::pg_catalog.text IS NULL))"
    f" AND (turn_number {EQ} %(turn)s::pg_catalog.int4 OR (turn_number IS NULL AND %(turn)s::pg_catalog.int4 IS NULL))"
    ' ORDER BY "timestamp", id'
)
RETRIEVAL_BY_ID = f" WHERE id {EQ} %s"


def turn_summary(agent: str, row: tuple[Any, ...]) -> TurnSummary:
    """One row of TURNS_SQL."""
    (key, session, number, when, frame, model, n_calls, tokens, total, rid, n_cand, n_rend, sampled, query, recalls) = (
        row
    )
    return TurnSummary(
        key=key,
        agent_id=agent,
        session_id=session,
        turn_number=number,
        timestamp=iso(when),
        frame_id=frame,
        model=model,
        calls=int(n_calls or 0),
        tokens=parse_counts(tokens),
        total_tokens_est=total,
        retrieval_id=rid,
        n_candidates=n_cand,
        n_rendered=n_rend,
        sampled=bool(sampled),
        query=query,
        recall_calls=int(recalls or 0),
    )


def summary_from(
    agent: str, session: str | None, number: int | None, calls: tuple[ContextCall, ...], retrieval: Retrieval | None
) -> TurnSummary:
    """A turn's summary from its calls and retrieval, for a turn TURNS_SQL does not list as asked."""
    first = calls[0] if calls else None
    key = retrieval.id if retrieval is not None else (first.id if first else f"{session}#{number}")
    return TurnSummary(
        key=key,
        agent_id=agent,
        session_id=session,
        turn_number=number,
        timestamp=first.timestamp if first else (retrieval.timestamp if retrieval else ""),
        frame_id=first.frame_id if first else None,
        model=first.model if first else None,
        calls=len(calls),
        tokens=dict(first.token_breakdown) if first else {},
        total_tokens_est=first.total_tokens_est if first else None,
        retrieval_id=retrieval.id if retrieval else None,
        n_candidates=retrieval.n_candidates if retrieval else None,
        n_rendered=retrieval.n_rendered if retrieval else None,
        sampled=bool(retrieval and retrieval.sampled),
        query=retrieval.query if retrieval else None,
    )


def context_call(row: tuple[Any, ...]) -> ContextCall:
    """One row of CALL_SQL."""
    (
        cid,
        when,
        call_type,
        model,
        frame,
        tokens,
        total,
        window,
        util,
        present,
        lf,
        ld,
        lp,
        le,
        rc,
        inp,
        out,
        cache_read,
        cache_creation,
        duration,
        stop,
        trace,
    ) = row
    return ContextCall(
        id=cid,
        timestamp=iso(when),
        call_type=call_type,
        model=model,
        frame_id=frame,
        token_breakdown=parse_counts(tokens),
        total_tokens_est=int(total or 0),
        context_window_size=int(window or 0),
        utilization_pct=float(util or 0.0),
        sections_present=tuple(present or ()),
        loaded={"facts": lf, "decisions": ld, "procedures": lp, "episodes": le, "recent_conversations": rc},
        input_tokens_actual=inp,
        output_tokens=out,
        cache_read=cache_read,
        cache_creation=cache_creation,
        duration_ms=duration,
        stop_reason=stop,
        trace_id=trace,
    )


def retrieval_of(row: tuple[Any, ...]) -> Retrieval:
    """One row of RETRIEVAL_SQL."""
    (rid, when, query, duration, legs, n_cand, n_rend, counts, candidates, truncated, excluded, trace) = row
    excluded_items = (
        tuple(item for item in (excluded or []) if isinstance(item, dict)) if isinstance(excluded, list) else ()
    )
    return Retrieval(
        id=rid,
        timestamp=iso(when),
        query=query,
        duration_ms=duration,
        legs=parse_legs(legs),
        n_candidates=int(n_cand or 0),
        n_rendered=int(n_rend or 0),
        disposition_counts=parse_counts(counts),
        candidates=parse_candidates(candidates),
        truncated=bool(truncated),
        excluded_types=excluded_items,
        trace_id=trace,
    )
