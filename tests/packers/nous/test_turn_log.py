"""Reading nous's turn log from PostgreSQL and rebuilding a turn from it.

context_log (one row per API call) and retrieval_log (one 'context' row per
turn) are joined on (agent, session, turn number): nous leaves trace_id NULL
(migration 070 @47939528 keeps it "reserved"; the runner passes none to
context_log), so that is the only link the source allows.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from ctxtui.engine.packers.nous import budgets as b
from ctxtui.engine.packers.nous import formats as fmt
from ctxtui.engine.packers.nous.build import packer_for_turn, settings_for_turn
from ctxtui.engine.sources.memory.nous.source import list_turns, newest_sampled_turn, read_turn
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError

from tests.factories import nous_db as F

T0 = F.T0


def seed_log(db):
    with db.connect() as conn:
        fact = F.add_fact(conn, 1, "User prefers metric units", subject="units")
        # turn 1: two API calls (a tool loop) and a sampled context retrieval, plus a recall_deep
        F.add_call(conn, "c1a", turn=1, at=T0, tokens={"identity": 120, "relevant_facts": 10})
        F.add_call(conn, "c1b", turn=1, at=T0 + timedelta(seconds=5), tokens={"identity": 120, "messages": 90})
        F.add_retrieval(conn, "r1", turn=1, at=T0, candidates=[F.candidate(fact, "fact", final_rank=1)])
        F.add_retrieval(conn, "p1", turn=1, at=T0 + timedelta(seconds=3), path="pipeline", candidates=None)
        # turn 2: calls and an unsampled retrieval
        F.add_call(conn, "c2", turn=2, at=T0 + timedelta(minutes=1), frame="question")
        F.add_retrieval(conn, "r2", turn=2, at=T0 + timedelta(minutes=1), candidates=None)
        # turn 3: a call, no retrieval row (telemetry off); turn 4: a retrieval with no call row
        F.add_call(conn, "c3", turn=3, at=T0 + timedelta(minutes=2))
        F.add_retrieval(conn, "r4", turn=4, at=T0 + timedelta(minutes=3), candidates=[])
        # another agent's turn
        F.add_call(conn, "x1", agent="other", at=T0 + timedelta(minutes=9))
    return fact


def test_turns_join_calls_and_retrievals_on_session_and_turn(nous_db):
    seed_log(nous_db)
    agent, turns = list_turns(nous_db.url)
    assert agent == "nous-default"
    assert [(t.key, t.turn_number, t.calls, t.sampled) for t in turns] == [
        ("r4", 4, 0, True),
        ("c3", 3, 1, False),
        ("r2", 2, 1, False),
        ("r1", 1, 2, True),
    ]
    first = turns[-1]
    assert first.tokens == {"identity": 120, "relevant_facts": 10}  # the turn's first API call
    assert (first.n_candidates, first.n_rendered, first.recall_calls, first.frame_id) == (1, 1, 1, "task")
    assert turns[2].frame_id == "question"
    assert list_turns(nous_db.url, limit=1)[1][0].key == "r4"


@pytest.mark.parametrize("key", ["r1", "c1b", "s1#1"])
def test_a_turn_by_any_of_its_keys(nous_db, key):
    fact = seed_log(nous_db)
    turn, rows = read_turn(nous_db.url, key)
    assert turn.summary.key == "r1" and [c.id for c in turn.calls] == ["c1a", "c1b"]
    assert turn.retrieval.id == "r1" and turn.retrieval.trace_id is None
    assert rows[("fact", fact)].get("content") == "User prefers metric units"


def test_an_unknown_turn_says_how_to_find_one(nous_db):
    seed_log(nous_db)
    with pytest.raises(
        MemorySourceError, match="no logged turn 'nope' for agent other: `ctxtui turns --db URL` lists them"
    ):
        read_turn(nous_db.url, "nope", agent="other")
    turn, _ = read_turn(nous_db.url, "x1")  # without --agent, the key decides the agent
    assert turn.summary.agent_id == "other"


def test_the_newest_sampled_turn(nous_db):
    seed_log(nous_db)
    assert newest_sampled_turn(nous_db.url) == "r4"
    assert newest_sampled_turn(nous_db.url, "other") is None


def test_a_turn_rebuilt_from_the_database_matches_what_nous_logged(nous_db):
    """The rebuild's `len(text.strip()) // 4` equals token_breakdown for every rebuilt section."""
    with nous_db.connect() as conn:
        decisions = [
            F.add_decision(conn, i, f"Decision {i}: " + "why " * (20 * i), confidence=0.5 + i / 10) for i in range(1, 4)
        ]
        facts = [F.add_fact(conn, i, f"Fact {i} " + "detail " * (15 * i), subject=f"subject {i}") for i in range(1, 5)]
        episode = F.add_episode(
            conn, 1, "We shipped it", started_at=datetime(2026, 8, 21, 0, 30, tzinfo=timezone(timedelta(hours=2)))
        )
        # What nous printed (formats) and logged (context_logger: len(stripped)//4) at the task frame, sonnet-4-6.
        dec_text = "\n".join(
            f"- [success] Decision {i}: {'why ' * (20 * i)} (confidence: {0.5 + i / 10:.2f})" for i in range(1, 4)
        )
        fact_lines = []
        for i in range(1, 5):
            content = f"Fact {i} " + "detail " * (15 * i)
            if len(content) > 200:
                content = content[:200].rsplit(" ", 1)[0] + "..."
            fact_lines.append(f"- [subject {i}] {content} [confidence: 0.90]")
        ep_text = "- [success] We shipped it (2026-08-20)"  # 00:30 at +02:00 is the 20th in UTC
        tokens = {
            "related_decisions": len(dec_text) // 4,
            "relevant_facts": len("\n".join(fact_lines)) // 4,
            "past_episodes": len(ep_text) // 4,
            "identity": 100,
        }
        F.add_call(conn, "c1", tokens=tokens)
        cands = (
            [F.candidate(d, "decision", final_rank=i + 1) for i, d in enumerate(decisions)]
            + [F.candidate(f, "fact", final_rank=10 + i) for i, f in enumerate(facts)]
            + [F.candidate(episode, "episode", final_rank=20)]
        )
        F.add_retrieval(conn, "r1", candidates=cands)
    turn, rows = read_turn(nous_db.url, "r1")
    packer, complaints = packer_for_turn(turn, rows, {"NOUS_MODEL": "claude-sonnet-4-6"})
    assert complaints == [] and packer.problems == []
    assert [(c.label, c.agrees) for c in packer.checks()] == [
        ("Related Decisions", True),
        ("Relevant Facts", True),
        ("Past Episodes", True),
    ]
    assert packer.plan(packer.default_budget).render("md").endswith(ep_text)


def test_settings_come_from_the_turn_log_then_the_flag(nous_db):
    with nous_db.connect() as conn:
        F.add_call(conn, "c1", frame="debug", model="claude-haiku-4-5")
        plan_skip = [
            {"name": leg, "attempted": False, "skip_reason": f"retrieval plan skipped '{t}'"}
            for leg, t in (
                ("context_decisions", "decision"),
                ("context_facts", "fact"),
                ("context_procedures", "procedure"),
                ("context_episodes", "episode"),
            )
        ]
        F.add_retrieval(conn, "r1", candidates=[], legs=plan_skip, query=None)
        F.add_call(conn, "c2", turn=2)
        F.add_retrieval(
            conn, "r2", turn=2, candidates=[], legs=[{"name": "context_procedures_critic", "attempted": True}]
        )
    turn, _ = read_turn(nous_db.url, "r1")
    settings, _ = settings_for_turn(turn, {"NOUS_CONTEXT_WINDOW": "128000"})
    # No input logged: the legs the plan skipped say greeting. The model is nous's configured one, not the
    # API call's (claude-haiku-4-5): NOUS_MODEL unset is nous's default, and the knob says it was assumed.
    assert (settings.frame, settings.model, settings.intent) == ("debug", b.DEFAULT_MODEL, b.INTENT_GREETING)
    assert settings.source("model").startswith("assumed")
    assert settings.source("frame") == "turn log" and settings.factor == 1.0  # the environment's window
    assert settings_for_turn(turn, {}, frame="task")[0].frame == "task"
    turn2, _ = read_turn(nous_db.url, "r2")
    assert settings_for_turn(turn2, {})[0].procedure_path == b.PROC_LIST


def test_times_are_read_in_utc_whatever_the_session_zone(nous_db):
    with nous_db.connect() as conn:
        ep = F.add_episode(conn, 1, "late", started_at=datetime(2026, 8, 21, 1, 0, tzinfo=timezone(timedelta(hours=3))))
        F.add_retrieval(conn, "r1", candidates=[F.candidate(ep, "episode", final_rank=1)])
    url = nous_db.url + "&options=-c%20TimeZone%3DAsia/Tokyo"
    _, rows = read_turn(url, "r1")
    assert fmt.episode_line(rows[("episode", ep)]) == "- [success] late (2026-08-20)"
