"""Logged nous turns built in code: candidates, rows and a context_log row, no database needed."""

from __future__ import annotations

from datetime import datetime

from ctxtui.engine.packers.nous.budgets import NousSettings
from ctxtui.engine.packers.nous.packer import NousPacker
from ctxtui.engine.sources.memory.nous.model import (
    Candidate,
    ContextCall,
    Leg,
    NousRow,
    Retrieval,
    Turn,
    TurnSummary,
)

WHEN = datetime(2026, 8, 21, 10, 2)
# gpt-4o has a 128,000-token window: below 200,000, so nous does not scale (context.py:1863-1868).
UNSCALED = "gpt-4o"


def row(mem_type: str, n: int, **values) -> NousRow:
    values.setdefault("created_at", WHEN)
    return NousRow(mem_type, f"{mem_type[0]}-{n}", values)


def cand(
    r: NousRow,
    disposition: str = "rendered",
    *,
    final_rank: int | None = None,
    entry_rank: int = 1,
    stage: str | None = None,
    leg: str | None = None,
    snippet: str | None = None,
) -> Candidate:
    return Candidate(
        id=r.id,
        type=r.type,
        entry_leg=leg or f"context_{r.type}s",
        entry_score=0.8,
        entry_rank=entry_rank,
        snippet=snippet,
        final_rank=final_rank,
        disposition=disposition,
        disposition_stage=stage or ("final" if disposition == "rendered" else "relevance_filter"),
    )


def turn(
    candidates: list[Candidate],
    *,
    frame: str = "task",
    model: str = UNSCALED,
    tokens: dict[str, int] | None = None,
    legs: tuple[Leg, ...] = (),
    sampled: bool = True,
) -> Turn:
    call = ContextCall(
        id="c1",
        timestamp="2026-08-21T10:02:03+00:00",
        call_type="chat",
        model=model,
        frame_id=frame,
        token_breakdown=tokens or {},
        total_tokens_est=sum((tokens or {}).values()),
        context_window_size=128_000,
        utilization_pct=0.0,
        sections_present=tuple(tokens or ()),
        loaded={},
    )
    retrieval = Retrieval(
        id="r1",
        timestamp=call.timestamp,
        query="q",
        duration_ms=1.0,
        legs=legs,
        n_candidates=len(candidates),
        n_rendered=sum(c.rendered for c in candidates),
        disposition_counts={},
        candidates=tuple(candidates) if sampled else None,
    )
    summary = TurnSummary(
        key="r1",
        agent_id="nous-default",
        session_id="s1",
        turn_number=1,
        timestamp=call.timestamp,
        frame_id=frame,
        model=model,
        calls=1,
        tokens=tokens or {},
        total_tokens_est=None,
        retrieval_id="r1",
        n_candidates=len(candidates),
        n_rendered=retrieval.n_rendered,
        sampled=sampled,
    )
    return Turn(summary, (call,), retrieval)


def packer(candidates: list[Candidate], rows: list[NousRow], **settings) -> NousPacker:
    settings.setdefault("model", UNSCALED)
    frame = settings.get("frame", "task")
    model = settings["model"]
    return NousPacker(
        turn(candidates, frame=frame, model=model), {(r.type, r.id): r for r in rows}, NousSettings(**settings)
    )
