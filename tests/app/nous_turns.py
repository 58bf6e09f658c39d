"""A nous database with a few logged turns, for the Turns view's Pilot tests and a hand check in tmux."""

from __future__ import annotations

from datetime import timedelta

from tests.factories import nous_db as F


def seed_turns(conn) -> dict[str, str]:
    """Three logged turns of session s1: r1 and r3 sampled (candidates logged), c2 a call without retrieval.

    Returns the memory ids by name, so a test can change one.
    """
    ids = {
        "metric": F.add_fact(conn, 1, "User prefers metric units", subject="units"),
        "tz": F.add_fact(conn, 2, "The server runs in UTC", subject="time"),
        "pg": F.add_decision(conn, 1, "Use PostgreSQL for the memory store"),
        "deploy": F.add_episode(conn, 1, "Deployed the new release; rolled back once", title="Release day"),
    }
    F.add_call(conn, "c1", turn=1, tokens={"identity": 120, "relevant_facts": 20, "related_decisions": 12})
    F.add_retrieval(
        conn,
        "r1",
        turn=1,
        candidates=[
            F.candidate(ids["metric"], "fact", final_rank=1),
            F.candidate(ids["tz"], "fact", "budget_truncated", stage="budget", entry_rank=2),
            F.candidate(ids["pg"], "decision", final_rank=1),
            F.candidate(ids["deploy"], "episode", "relevance_filter"),
        ],
    )
    F.add_call(conn, "c2", turn=2, frame="conversation", tokens={"identity": 120}, at=F.T0 + timedelta(minutes=1))
    add_turn(conn, 3, ids, minutes=2)
    return ids


def add_turn(conn, number: int, ids: dict[str, str], *, minutes: int) -> str:
    """One more sampled turn (its retrieval_log id is `r<number>`), logged `minutes` after the first."""
    at = F.T0 + timedelta(minutes=minutes)
    F.add_call(conn, f"c{number}", turn=number, frame="question", tokens={"identity": 120, "relevant_facts": 9}, at=at)
    F.add_retrieval(
        conn,
        f"r{number}",
        turn=number,
        at=at,
        candidates=[F.candidate(ids["tz"], "fact", final_rank=1), F.candidate(ids["pg"], "decision", final_rank=1)],
    )
    return f"r{number}"
