"""The eight rules of nous's own code a rebuild must follow (issue 22), each hand-worked from nous's source.

Line numbers are nous's files at commit 47939528 (context.py, intent.py,
layer.py, config.py, heart/procedures.py, observability/retrieval_trace.py).
Rule 1 (the float32 confidence) is read from PostgreSQL: test_nous_float32.py.
"""

from __future__ import annotations

import struct
from dataclasses import replace
from datetime import datetime

from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.nous import budgets as b
from ctxtui.engine.packers.nous import formats as f
from ctxtui.engine.packers.nous.build import packer_for_turn, settings_for_turn
from ctxtui.engine.packers.nous.fates import NousReason
from ctxtui.engine.packers.nous.intent import ACK, GREETING, ORDINARY, classify
from ctxtui.engine.packers.nous.packer import NousPacker

from tests.packers.nous.helpers import cand, row, turn

GPT4O = {"NOUS_MODEL": "gpt-4o"}  # a 128,000-token window: no scale (context.py:1859-1868)


def with_input(t, query: str, *, number: int = 2, earlier: bool | None = True):
    """The helpers' turn with this logged input (retrieval_log.query) and session position."""
    retrieval = replace(t.retrieval, query=query)
    summary = replace(t.summary, query=query, turn_number=number, earlier_turn=earlier)
    return replace(t, retrieval=retrieval, summary=summary)


def f32(value: float) -> float:
    """What asyncpg hands nous for a REAL column: the value's exact binary32."""
    return struct.unpack("f", struct.pack("f", value))[0]


# -- rule 1: the confidence is the float32 nous reads ----------------------------------------


def test_rule1_the_float32_value_prints_as_nous_prints_it():
    # _format_decisions (context.py:1964) and _format_facts (:2065) print `{conf:.2f}` of the value asyncpg
    # decodes: a REAL's exact binary32. 0.045 is 0.04500000178813934 as a float32 (→ 0.05), 0.0449999999… as
    # the double PostgreSQL's text "0.045" parses to (→ 0.04).
    assert [f"{f32(v):.2f}" for v in (0.045, 0.365, 0.995)] == ["0.05", "0.37", "1.00"]
    assert [f"{v:.2f}" for v in (0.045, 0.365, 0.995)] == ["0.04", "0.36", "0.99"]
    d = row("decision", 1, description="Use a queue", outcome="success", confidence=f32(0.045))
    assert f.decision_line(d) == "- [success] Use a queue (confidence: 0.05)"
    fact = row("fact", 1, content="Metric units", subject="units", confidence=f32(0.365))
    assert f.fact_line(fact, 0) == "- [units] Metric units [confidence: 0.37]"


# -- rule 2: the scale follows nous's configured model -----------------------------------------


def test_rule2_the_scale_is_nous_configured_model_not_the_api_calls():
    # _scaled_budget (context.py:1859-1868) takes Settings._get_context_window(Settings.model) (config.py):
    # the configured model. A turn logged under claude-haiku-4-5 (200,000: ×1.5) with NOUS_MODEL unset is
    # scaled by nous's default, claude-sonnet-4-6 (1,000,000: ×2.5): facts 1,500 → 3,750 tokens.
    t = with_input(turn([], model="claude-haiku-4-5-20251001"), "which units do we use?")
    settings, _ = settings_for_turn(t, {})
    assert (settings.model, settings.factor) == (b.DEFAULT_MODEL, 2.5)
    assert settings.source("model") == "assumed: NOUS_MODEL unset, nous's default"
    assert b.resolve(settings).effective("facts") == 3750
    assert settings_for_turn(t, {"NOUS_MODEL": "claude-haiku-4-5"})[0].factor == 1.5
    packer, _ = packer_for_turn(t, {}, {})
    assert packer.assumptions[0][0] == "model"
    assert "(the API call's claude-haiku-4-5-20251001 would give ×1.5)" in packer.assumptions[0][1]
    assert packer.to_json(packer.plan(0))["assumptions"][0]["knob"] == "model"


def test_rule2_the_longest_key_is_matched_first():
    # config.py _get_context_window: `for key in sorted(MODEL_CONTEXT_WINDOWS, key=len, reverse=True)`. A name
    # holding claude-opus-4-6 (15 characters, 1,000,000) and claude-sonnet-4-5 (17, 200,000) is the latter's,
    # though the former comes first in the table.
    assert b.context_window("claude-opus-4-6/claude-sonnet-4-5") == 200_000
    assert b.context_window("x") == 200_000 and b.context_window("x", 64_000) == 64_000


# -- rule 3: greetings and short acknowledgements zero the four budgets -----------------------


def test_rule3_a_greeting_and_a_short_ack_zero_all_four_memory_budgets():
    # intent.py:103-107 (greeting), :171-187 (no question, no hint, no topic word, recency ≤ 0.5) → the plan's
    # budget_overrides set decisions, facts, procedures and episodes to 0 (intent.py:160-169, 178-187).
    assert classify("hey, how are you?").kind == GREETING
    assert classify("ok").kind == ACK
    assert classify("ok thanks").kind == ORDINARY  # "thanks" is a word of 6+ characters: a topic keyword (:135)
    fact = row("fact", 1, content="Metric units", subject="units", confidence=1.0)
    t = with_input(turn([cand(fact, final_rank=1)], frame="task"), "hi there")
    packer, _ = packer_for_turn(t, {(fact.type, fact.id): fact}, GPT4O)
    assert packer.settings.intent == b.INTENT_GREETING and packer.default_budget == 0
    plan = packer.plan(packer.default_budget)
    assert plan.render("md") == "" and plan.outcomes[0].reason is NousReason.SECTION_OFF


def test_rule3_the_zero_budget_skip_reason_is_read_when_no_input_is_logged():
    # context.py:280-292: a zero budget is logged "section budget is 0" before the plan's skip is named.
    legs = tuple(
        __import__("ctxtui.engine.sources.memory.nous.model", fromlist=["Leg"]).Leg(
            name, False, skip_reason="section budget is 0"
        )
        for name in ("context_decisions", "context_facts", "context_procedures", "context_episodes")
    )
    t = turn([], legs=legs)
    t = replace(t, retrieval=replace(t.retrieval, query=None))
    settings, _ = settings_for_turn(t, GPT4O)
    assert settings.intent == b.INTENT_GREETING


# -- rule 4: follow-ups lift the episodes budget and print summaries --------------------------


def test_rule4_a_follow_up_lifts_conversation_episodes_to_1000_and_prints_summaries():
    # "today" has temporal recency 1.0 (intent.py:49-54) > 0.5: the conversation frame's episodes override 600
    # becomes 1,000 (intent.py:236), and temporal_boost adds `  {summary[:200]}` under each Recent
    # Conversations line whose summary is not its title (context.py:1510).
    ep = row(
        "episode", 1, title="Cache work", summary="We moved the cache to Redis", started_at=datetime(2026, 8, 20, 9, 5)
    )
    old = row("episode", 2, summary="Old deploy notes", outcome="success", started_at=datetime(2026, 8, 1))
    cands = [
        cand(ep, final_rank=5, leg="context_episodes_temporal", entry_rank=1),
        cand(old, final_rank=1, leg="context_episodes"),
    ]
    rows = {(r.type, r.id): r for r in (ep, old)}
    t = with_input(turn(cands, frame="conversation"), "continue what we were doing today")
    packer, _ = packer_for_turn(t, rows, GPT4O)
    assert packer.settings.followup and packer.budgets.effective("episodes") == 1000
    md = packer.plan(packer.default_budget).render("md")
    assert "## Recent Conversations\n\n- [Aug 20 09:05] Cache work\n  We moved the cache to Redis" in md
    quiet, _ = packer_for_turn(with_input(t, "tell me about caching"), rows, GPT4O)
    assert not quiet.settings.followup and quiet.budgets.effective("episodes") == 600


def test_rule4_recaps_and_first_turn_deictic_phrases_are_follow_ups_too():
    # layer.py _RECAP_PATTERNS: a recap is taken as recency 0.8. F083 C1 (layer.py _DEICTIC_FOLLOWUP): on a
    # first turn, with NOUS_FOLLOWUP_DEICTIC_DETECTION_ENABLED (default on), recency is raised to 0.6.
    assert classify("catch me up").followup and classify("catch me up").recency == 0.8
    text = "can you continue what we were doing?"
    assert not classify(text).followup and classify(text, first_turn=True).followup
    assert not classify(text, first_turn=True, deictic_detection=False).followup


# -- rule 5: first turns (NOUS_FOLLOWUP_FIRST_TURN_EPISODE) -----------------------------------


def test_rule5_a_first_turn_shows_the_first_episode_in_full_with_open_threads():
    # context.py:1491-1509 (F083 A2): the first Recent Conversations episode gets its structured summary cut to
    # recall_parent_episode_truncate (500) and `  Open threads: a; b` (at most 5); it wins over temporal_boost.
    struct_summary = {"summary": "We chose the in-memory LRU option.", "open_threads": ["wire the LRU", 3, None]}
    first = row(
        "episode",
        1,
        title="Caching",
        summary="short",
        structured_summary=struct_summary,
        started_at=datetime(2026, 8, 20, 9, 5),
    )
    second = row("episode", 2, title="Deploy", summary="Deployed", started_at=datetime(2026, 8, 20, 8, 0))
    cands = [
        cand(first, leg="context_episodes_temporal", entry_rank=1, final_rank=9),
        cand(second, leg="context_episodes_temporal", entry_rank=2, final_rank=8),
    ]
    rows = {(r.type, r.id): r for r in (first, second)}
    t = with_input(turn(cands), "hello again, anything new?", number=1, earlier=False)
    env = {**GPT4O, "NOUS_FOLLOWUP_FIRST_TURN_EPISODE": "true"}
    packer, _ = packer_for_turn(t, rows, env)
    assert packer.settings.first_turn and packer.settings.source("first_turn").startswith("inferred")
    assert packer.plan(0).render("md") == (
        "## Recent Conversations\n\n- [Aug 20 09:05] Caching\n  We chose the in-memory LRU option.\n"
        "  Open threads: wire the LRU; 3\n- [Aug 20 08:00] Deploy"
    )
    later, _ = packer_for_turn(with_input(t, "hello again", number=2, earlier=True), rows, env)
    assert not later.settings.first_turn and "Open threads" not in later.plan(0).render("md")
    assert not packer_for_turn(t, rows, GPT4O)[0].plan(0).render("md").count("Open threads")  # the flag is off
    forced = later.with_knob("first_turn", True)
    assert "Open threads: wire the LRU; 3" in forced.plan(0).render("md")


# -- rule 6: Known Procedures print their effectiveness ----------------------------------------


def test_rule6_effectiveness_is_laplace_smoothed_and_omitted_without_outcomes():
    # heart/procedures.py _compute_effectiveness: (s+1)/(s+f+2), None when s+f = 0; context.py _format_procedures
    # prints `, effectiveness: {eff:.0%}`. 1 success, 3 failures: 2/6 = 33%; 5 and 0: 6/7 = 85.7 → 86%.
    p = row(
        "procedure",
        1,
        name="deploy",
        domain="ops",
        description="Ship it",
        activation_count=7,
        success_count=1,
        failure_count=3,
    )
    assert f.procedure_line(p) == "- **deploy** (ops): Ship it | activated 7x, effectiveness: 33%"
    assert f.procedure_line(replace(p, values={**p.values, "success_count": 5, "failure_count": 0})).endswith(
        "activated 7x, effectiveness: 86%"
    )
    assert f.procedure_line(replace(p, values={**p.values, "success_count": 0, "failure_count": 0})).endswith(
        "activated 7x"
    )


# -- rule 7: the critic's pointer ------------------------------------------------------------


def test_rule7_critic_picks_with_the_catalog_print_one_pointer_line():
    # context.py:1418-1442: the passive path (NOUS_PROC_SELECTION_GRAPH_PRIMARY false), a rendered Procedure
    # Catalog and critic picks: one line labelled Recommended Procedures, never cut; the passive embedding
    # slots are not searched then (passive_embeddings is off when the catalog renders).
    a = row("procedure", 1, name="deploy  app", domain="ops")
    c = row("procedure", 2, name="rollback", domain="ops")
    emb = row("procedure", 3, name="other", domain="ops")
    cands = [
        cand(a, final_rank=1, entry_rank=1, leg="context_procedures_critic"),
        cand(c, final_rank=2, entry_rank=2, leg="context_procedures_critic"),
        cand(emb, final_rank=3, entry_rank=1, leg="context_procedures"),
    ]
    rows = {(r.type, r.id): r for r in (a, c, emb)}
    t = turn(cands, tokens={"procedure_catalog": 300, "recommended_procedures": 25})
    env = {**GPT4O, "NOUS_PROC_SELECTION_GRAPH_PRIMARY": "false"}
    packer, _ = packer_for_turn(with_input(t, "how do I deploy?"), rows, env)
    plan = packer.plan(packer.default_budget)
    line = "★ Recommended for this task (see your Procedure Catalog): `deploy app`, `rollback` — load with get_procedure before acting."
    assert plan.render("md") == f"## Recommended Procedures\n\n{line}"
    assert [o.reason for o in plan.outcomes] == [NousReason.POINTER, NousReason.POINTER, NousReason.CATALOG]
    assert [c.agrees for c in packer.checks()] == [len(line) // 4 == 25]
    plain = packer.with_knob("catalog", False).plan(packer.default_budget).render("md")
    assert plain.startswith("## Known Procedures\n\n- **deploy  app** (ops): activated 0x")


# -- rule 8: which items the budget cut, and their order -----------------------------------------


def test_rule8_a_cut_item_keeps_its_place_before_a_rendered_one():
    # _tr_budget (context.py:315-331): cut when the first 40 stripped characters of _tr_content are absent from
    # the cut text; empty content is never marked. At 2 tokens (8 characters: "- [no..."), the first decision
    # (entry rank 1) is cut and the second, with an empty description, logged rendered (final_rank 1). Decisions
    # keep the search's order (no stage re-sorts them), so nous printed the first one first.
    d1 = row("decision", 1, description="Use a queue", outcome="noise", confidence=0.5)
    d2 = row("decision", 2, description="", outcome="partial", confidence=0.5)
    cands = [
        cand(d1, "budget_truncated", entry_rank=1, stage="section_budget_truncation"),
        cand(d2, final_rank=1, entry_rank=2),
    ]
    t = with_input(turn(cands), "what did we decide about queues?")
    env = {**GPT4O, "NOUS_CONTEXT_BUDGET_OVERRIDES": '{"decisions": 2}'}
    packer, _ = packer_for_turn(t, {(r.type, r.id): r for r in (d1, d2)}, env)
    assert packer.plan(packer.default_budget).render("md") == "## Related Decisions\n\n- [no..."
    assert not any("disagrees" in str(p) for p in packer.problems)


def test_rule8_a_fact_cut_at_a_word_boundary_is_logged_cut_though_its_line_shows():
    # _format_facts cuts content over 200 characters at a word boundary (context.py:2045-2047): "word" + "..."
    # shows, but the probe "word xxx…" (40 characters) is not in the text, so nous logs it budget_truncated
    # wherever it stands; the rebuild keeps it at its entry rank, between the rendered ones.
    f1 = row("fact", 1, content="First fact", confidence=1.0)
    f2 = row("fact", 2, content="word " + "x" * 300, confidence=1.0)
    f3 = row("fact", 3, content="Third fact", confidence=1.0)
    cands = [
        cand(f1, final_rank=1, entry_rank=1),
        cand(f2, "budget_truncated", entry_rank=2, stage="section_budget_truncation"),
        cand(f3, final_rank=2, entry_rank=3),
    ]
    packer = NousPacker(turn(cands), {(r.type, r.id): r for r in (f1, f2, f3)}, b.NousSettings(model="gpt-4o"))
    plan = packer.plan(packer.default_budget)
    assert plan.render("md") == (
        "## Relevant Facts\n\n- First fact [confidence: 1.00]\n- word... [confidence: 1.00]\n"
        "- Third fact [confidence: 1.00]"
    )
    assert plan.outcomes[1].fate is Fate.INCLUDED and packer.problems == []
    assert packer.to_json(plan)["candidates"][1]["logged_disposition"] == "budget_truncated"
    from ctxtui.engine.explain.reasons import describe

    assert describe(plan.outcomes[1]).endswith(
        "; nous logged it budget_truncated: its first 40 characters are not in the cut text"
    )


def test_rule8_what_if_budgets_apply_nous_check_to_the_recut_text():
    # At the turn's own budget the 40-character check on the rebuilt text gives the logged split; at 20 tokens
    # (80 characters) both decisions show whole, and nous would have logged both rendered.
    d1 = row("decision", 1, description="Use a queue", outcome="noise", confidence=0.5)
    d2 = row("decision", 2, description="", outcome="partial", confidence=0.5)
    cands = [
        cand(d1, "budget_truncated", entry_rank=1, stage="section_budget_truncation"),
        cand(d2, final_rank=1, entry_rank=2),
    ]
    t = with_input(turn(cands), "what did we decide about queues?")
    env = {**GPT4O, "NOUS_CONTEXT_BUDGET_OVERRIDES": '{"decisions": 2}'}
    packer, _ = packer_for_turn(t, {(r.type, r.id): r for r in (d1, d2)}, env)
    own = packer.to_json(packer.plan(packer.default_budget))["candidates"]
    assert [c["nous_would_log"] for c in own] == [c["logged_disposition"] for c in own]
    wider = packer.with_knob("decisions", 20)
    assert [c["nous_would_log"] for c in wider.to_json(wider.plan(wider.default_budget))["candidates"]] == [
        "rendered",
        "rendered",
    ]


def test_what_if_frames_go_through_the_same_rules():
    # --frame conversation on a follow-up input: the conversation plan's episodes 600 lifted to 1,000
    # (intent.py:220-237); --frame decision: its plan (decisions 3,500, procedures 2,000) and the frame's own 1,000.
    t = with_input(turn([], frame="task"), "what did we do yesterday about the cache?")
    conv = settings_for_turn(t, GPT4O, frame="conversation")[0]
    assert conv.followup and b.resolve(conv).base["episodes"] == 1000 and conv.source("frame") == "flag"
    dec = b.resolve(settings_for_turn(t, GPT4O, frame="decision")[0]).base
    assert (dec["decisions"], dec["procedures"], dec["episodes"]) == (3500, 2000, 1000)
    greet = with_input(turn([], frame="task"), "good morning")
    assert b.resolve(settings_for_turn(greet, GPT4O, frame="debug")[0]).base["facts"] == 0


def test_rule8_cut_facts_are_placed_by_the_score_nous_sorted_them_by():
    # The recency resolver demotes a fact ×0.3 and logs the mutation (context.py facts leg, tr.mutate); the
    # usage boost then sorts by score (a FactSummary has no created_at or encoded_frame, so neither the
    # staleness penalty nor the frame boost moves it). Scores 0.9, 0.8 → 0.24, 0.7: nous's order is f1, f3, f2,
    # and a 10-token budget (40 characters: text[:37] + "...") shows the start of f3's line, not f2's.
    from ctxtui.engine.sources.memory.nous.model import Mutation

    f1 = row("fact", 1, content="First fact", confidence=1.0)
    f2 = row("fact", 2, content="Second fact", confidence=1.0)
    f3 = row("fact", 3, content="Third fact", confidence=1.0)
    cut = {"stage": "section_budget_truncation"}
    cands = [
        replace(cand(f1, final_rank=1, entry_rank=1), entry_score=0.9),
        replace(
            cand(f2, "budget_truncated", entry_rank=2, **cut),
            entry_score=0.8,
            mutations=(Mutation("recency_resolver", 0.8, 0.24, "superseded"),),
        ),
        replace(cand(f3, "budget_truncated", entry_rank=3, **cut), entry_score=0.7),
    ]
    t = with_input(turn(cands), "which units do we use?")
    env = {**GPT4O, "NOUS_CONTEXT_BUDGET_OVERRIDES": '{"facts": 10}'}
    packer, _ = packer_for_turn(t, {(r.type, r.id): r for r in (f1, f2, f3)}, env)
    assert packer.plan(packer.default_budget).render("md") == (
        "## Relevant Facts\n\n- First fact [confidence: 1.00]\n- Thi..."
    )
    assert not any("disagrees" in str(p) for p in packer.problems)


def test_rule8_cut_episodes_are_placed_by_their_recency_weighted_score():
    # _apply_episode_recency: score × max(0.5, 1 − age/60 days), then sorted. At the turn (2026-08-21 10:02),
    # e2 (0.8, 50 days old → ×0.5 = 0.4) falls behind e3 (0.7, 1 day old → ×0.983 = 0.688).
    from datetime import timedelta

    when = datetime(2026, 8, 21, 10, 2, 3)
    e1 = row("episode", 1, summary="First", outcome="success", started_at=when - timedelta(hours=1))
    e2 = row("episode", 2, summary="Second", outcome="success", started_at=when - timedelta(days=50))
    e3 = row("episode", 3, summary="Third", outcome="success", started_at=when - timedelta(days=1))
    cut = {"stage": "section_budget_truncation"}
    cands = [
        replace(cand(e1, final_rank=1, entry_rank=1), entry_score=0.9),
        replace(cand(e2, "budget_truncated", entry_rank=2, **cut), entry_score=0.8),
        replace(cand(e3, "budget_truncated", entry_rank=3, **cut), entry_score=0.7),
    ]
    packer = NousPacker(turn(cands), {(r.type, r.id): r for r in (e1, e2, e3)}, b.NousSettings(model="gpt-4o"))
    order = [packer.entries[i].title for i in packer.sections[0].items]
    assert order == ["First", "Third", "Second"]
