"""The Turns view's model (ctxtui.turns_session): list, open, re-cut and poll a nous database's turns."""

from __future__ import annotations

from datetime import timedelta

from ctxtui.turns_session import PollResult, TurnsSession

from tests.factories import nous_db as F


def seed(db):
    with db.connect() as conn:
        fact = F.add_fact(conn, 1, "User prefers metric units", subject="units")
        F.add_call(conn, "c1", model="gpt-4o", tokens={"relevant_facts": 10})
        F.add_retrieval(conn, "r1", candidates=[F.candidate(fact, "fact", final_rank=1)])
    return fact


def test_list_open_recut_and_poll(nous_db):
    fact = seed(nous_db)
    session = TurnsSession(nous_db.url, env={"NOUS_CONTEXT_BUDGET_OVERRIDES": '{"facts": 5}', "NOUS_MODEL": "gpt-4o"})
    try:
        assert [t.key for t in session.refresh()] == ["r1"]
        view = session.open("r1")
        assert view.packer.budgets.effective("facts") == 5  # the operator's override from NOUS_*
        assert view.plan.render("md") == "## Relevant Facts\n\n- [units] User pr..."  # 5 tokens = 20 characters
        wider = view.with_knob("facts", 100)
        assert wider.budget == wider.packer.default_budget and "[confidence: 0.90]" in wider.plan.render("md")
        assert view.with_budget(0).plan.render("md") == ""

        assert session.poll() == PollResult()  # nothing new: nothing changed
        with nous_db.connect() as conn:
            F.add_call(conn, "c2", turn=2, at=F.T0 + timedelta(minutes=1))
        result = session.poll()
        assert result.turns_changed and [t.key for t in session.turns] == ["c2", "r1"]

        nous_db.execute("UPDATE heart.facts SET content = 'User prefers imperial units' WHERE id = %s", (fact,))
        result = session.poll()
        assert result.turn_changed and not result.turns_changed
        assert "imperial" in session.view.with_knob("facts", 100).plan.render("md")
        assert session.view.packer.budgets.effective("facts") == 5  # the settings survive the rebuild
    finally:
        session.close()


def test_an_unsampled_turn_opens_with_its_logged_tokens_only(nous_db):
    with nous_db.connect() as conn:
        F.add_call(conn, "c1", tokens={"identity": 100, "relevant_facts": 12})
        F.add_retrieval(conn, "r1", candidates=None)
    session = TurnsSession(nous_db.url)
    try:
        view = session.open("r1")
        assert view.packer is None and view.plan is None and view.logged_tokens["relevant_facts"] == 12
    finally:
        session.close()


def test_a_poll_never_raises():
    session = TurnsSession("postgresql://ctxtui@127.0.0.1:1/nous")
    result = session.poll()
    assert result.error.endswith("(is it running, on that host and port?)") and session.turns == []
