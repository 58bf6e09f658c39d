"""Rows for a test nous database: memories, logged turns and candidates, by hand or in bulk.

Every function takes a psycopg connection in autocommit (the tests' own
superuser, `NousDb.connect()`), never ctxtui's reader. Ids are deterministic
UUIDs (`uid("f", 1)`) so tests can name them.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

AGENT = "nous-default"
T0 = datetime(2026, 8, 21, 10, 0, tzinfo=UTC)


def uid(kind: str, n: int) -> str:
    """A readable deterministic UUID: uid("f", 7) → 0000000f-0000-4000-8000-000000000007."""
    tag = {"d": 13, "f": 15, "p": 10, "e": 14}.get(kind, 0)
    return f"{tag:08x}-0000-4000-8000-{n:012d}"


def add_decision(
    conn,
    n: int,
    description: str,
    *,
    outcome: str | None = "success",
    confidence: float = 0.8,
    agent: str = AGENT,
    context: str | None = None,
    superseded_by: str | None = None,
    created_at: datetime = T0,
    category: str = "architecture",
) -> str:
    mid = uid("d", n)
    conn.execute(
        "INSERT INTO brain.decisions (id, agent_id, description, context, confidence, category, stakes, "
        "outcome, superseded_by, created_at, updated_at) VALUES (%s, %s, %s, %s, %s, %s, 'low', %s, %s, %s, %s)",
        (mid, agent, description, context, confidence, category, outcome, superseded_by, created_at, created_at),
    )
    return mid


def add_fact(
    conn,
    n: int,
    content: str,
    *,
    subject: str | None = None,
    confidence: float | None = 0.9,
    agent: str = AGENT,
    category: str = "technical",
    active: bool = True,
    superseded_by: str | None = None,
    created_at: datetime = T0,
) -> str:
    mid = uid("f", n)
    conn.execute(
        "INSERT INTO heart.facts (id, agent_id, content, subject, confidence, category, active, "
        "superseded_by, learned_at, created_at, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (mid, agent, content, subject, confidence, category, active, superseded_by, created_at, created_at, created_at),
    )
    return mid


def add_procedure(
    conn,
    n: int,
    name: str,
    *,
    domain: str | None = "ops",
    description: str | None = None,
    notes: list[str] | None = None,
    patterns: list[str] | None = None,
    goals: list[str] | None = None,
    tags: list[str] | None = None,
    agent: str = AGENT,
    active: bool = True,
    archived: bool = False,
    created_at: datetime = T0,
) -> str:
    mid = uid("p", n)
    conn.execute(
        "INSERT INTO heart.procedures (id, agent_id, name, domain, description, implementation_notes, "
        "core_patterns, goals, tags, active, archived_at, created_at, updated_at) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (
            mid,
            agent,
            name,
            domain,
            description,
            notes,
            patterns,
            goals,
            tags,
            active,
            created_at if archived else None,
            created_at,
            created_at,
        ),
    )
    return mid


def add_episode(
    conn,
    n: int,
    summary: str,
    *,
    title: str | None = None,
    outcome: str | None = "success",
    started_at: datetime = T0,
    agent: str = AGENT,
    active: bool = True,
    tags: list[str] | None = None,
) -> str:
    mid = uid("e", n)
    conn.execute(
        "INSERT INTO heart.episodes (id, agent_id, title, summary, outcome, started_at, active, tags, "
        "created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (mid, agent, title, summary, outcome, started_at, active, tags, started_at),
    )
    return mid


def candidate(
    mem_id: str,
    mem_type: str,
    disposition: str = "rendered",
    *,
    stage: str | None = None,
    final_rank: int | None = None,
    entry_rank: int = 1,
    leg: str | None = None,
    snippet: str | None = None,
    score: float = 0.8,
    restored_from: str | None = None,
) -> dict[str, Any]:
    """One element of retrieval_log.candidates, shaped as RetrievalTrace.to_dict writes it."""
    return {
        "id": mem_id,
        "type": mem_type,
        "entry_leg": leg or f"context_{mem_type}s",
        "entry_score": score,
        "entry_rank": entry_rank,
        "snippet": snippet,
        "mutations": [],
        "final_rank": final_rank,
        "disposition": disposition,
        "disposition_stage": stage or ("final" if disposition == "rendered" else "relevance_filter"),
        "restored_from": restored_from,
    }


def add_call(
    conn,
    call_id: str,
    *,
    session: str = "s1",
    turn: int = 1,
    frame: str | None = "task",
    model: str = "claude-sonnet-4-6",
    tokens: dict[str, int] | None = None,
    at: datetime = T0,
    agent: str = AGENT,
    call_type: str = "chat",
) -> None:
    tokens = tokens or {}
    conn.execute(
        'INSERT INTO nous_system.context_log (id, agent_id, session_id, turn_number, "timestamp", '
        "call_type, model, frame_id, token_breakdown, total_tokens_est, context_window_size, "
        "sections_present) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (
            call_id,
            agent,
            session,
            turn,
            at,
            call_type,
            model,
            frame,
            json.dumps(tokens),
            sum(tokens.values()),
            1_000_000,
            [k for k in tokens if k not in ("tools_definition", "messages")],
        ),
    )


def add_retrieval(
    conn,
    retrieval_id: str,
    *,
    session: str | None = "s1",
    turn: int | None = 1,
    candidates: list[dict] | None = None,
    legs: list[dict] | None = None,
    query: str | None = "a question",
    at: datetime = T0,
    agent: str = AGENT,
    path: str = "context",
) -> None:
    cands = candidates
    counts: dict[str, int] = {}
    for c in cands or []:
        counts[c["disposition"]] = counts.get(c["disposition"], 0) + 1
    conn.execute(
        'INSERT INTO nous_system.retrieval_log (id, agent_id, session_id, turn_number, "timestamp", path, '
        "query, duration_ms, legs, n_candidates, n_rendered, disposition_counts, candidates) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (
            retrieval_id,
            agent,
            session,
            turn,
            at,
            path,
            query,
            12.5,
            json.dumps(legs or []),
            len(cands or []),
            counts.get("rendered", 0),
            json.dumps(counts),
            None if cands is None else json.dumps(cands),
        ),
    )


def bulk_memories(conn, total: int, *, agent: str = AGENT) -> dict[str, int]:
    """`total` memories split over the four tables (40% facts, 20% each other), made by the server.

    Deterministic text from md5 of the row number; some rows superseded or
    inactive. Returns the count per table.
    """
    facts = total * 2 // 5
    rest = (total - facts) // 3
    counts = {"decisions": rest, "facts": facts, "procedures": rest, "episodes": total - facts - 2 * rest}
    t0 = T0 - timedelta(days=400)
    conn.execute(
        """
        INSERT INTO brain.decisions (id, agent_id, description, context, confidence, category, stakes, outcome,
                                     created_at, updated_at)
        SELECT ('d0000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, %(agent)s,
               'Decision ' || i || ': use ' || md5(i::text) || ' for the ' || md5((i * 7)::text) || ' layer',
               'Because ' || repeat(md5((i * 3)::text) || ' ', 1 + i %% 4), 0.5 + (i %% 50) / 100.0,
               'architecture', 'low', CASE WHEN i %% 17 = 0 THEN 'superseded' ELSE 'success' END,
               %(t0)s + i * interval '7 minutes', %(t0)s + i * interval '7 minutes'
        FROM generate_series(1, %(n)s) i""",
        {"agent": agent, "n": counts["decisions"], "t0": t0},
    )
    conn.execute(
        """
        INSERT INTO heart.facts (id, agent_id, content, subject, confidence, category, active, learned_at, created_at,
                                 updated_at)
        SELECT ('f0000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, %(agent)s,
               'Fact ' || i || ': ' || repeat(md5(i::text) || ' ', 1 + i %% 6), 'subject ' || (i %% 300),
               0.6 + (i %% 40) / 100.0, 'technical', i %% 23 <> 0,
               %(t0)s + i * interval '3 minutes', %(t0)s + i * interval '3 minutes', %(t0)s + i * interval '3 minutes'
        FROM generate_series(1, %(n)s) i""",
        {"agent": agent, "n": counts["facts"], "t0": t0},
    )
    conn.execute(
        """
        INSERT INTO heart.procedures (id, agent_id, name, domain, description, implementation_notes, core_patterns,
                                      goals, tags, created_at, updated_at)
        SELECT ('a0000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, %(agent)s, 'procedure-' || i,
               'ops', 'How to ' || md5(i::text), ARRAY['step one ' || md5((i * 5)::text), 'step two'],
               ARRAY['pattern ' || (i %% 9)], ARRAY['goal ' || (i %% 4)], ARRAY['ops'],
               %(t0)s + i * interval '9 minutes', %(t0)s + i * interval '9 minutes'
        FROM generate_series(1, %(n)s) i""",
        {"agent": agent, "n": counts["procedures"], "t0": t0},
    )
    conn.execute(
        """
        INSERT INTO heart.episodes (id, agent_id, title, summary, outcome, started_at, active, tags, created_at)
        SELECT ('e0000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, %(agent)s, 'Episode ' || i,
               'We worked on ' || repeat(md5(i::text) || ' ', 1 + i %% 3),
               CASE WHEN i %% 29 = 0 THEN 'abandoned' ELSE 'success' END, %(t0)s + i * interval '11 minutes',
               i %% 29 <> 0, ARRAY['topic' || (i %% 12)], %(t0)s + i * interval '11 minutes'
        FROM generate_series(1, %(n)s) i""",
        {"agent": agent, "n": counts["episodes"], "t0": t0},
    )
    conn.execute("ANALYZE")
    return counts


def bulk_uuid(table: str, i: int) -> str:
    """The id `bulk_memories` gave row `i` of `table`."""
    prefix = {"decisions": "d", "facts": "f", "procedures": "a", "episodes": "e"}[table]
    return f"{prefix}0000000-0000-4000-8000-{i:012d}"
