"""Rebuilding a logged turn's sections, hand-worked from nous's source (context.py / schemas.py @47939528).

The turns here use the model gpt-4o, whose 128,000-token window nous does
not scale (context.py:1863-1868), so a section's budget is the frame
table's number (schemas.py:137-144) and the arithmetic stays readable.
"""

from __future__ import annotations

from datetime import datetime

from ctxtui.engine.explain.reasons import describe, reason_cell
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.nous.fates import NousReason

from tests.packers.nous.helpers import cand, packer, row, turn


def sixty_facts():
    # Each line: "- [sNN] " (8) + 100 × "a" + " [confidence: 0.90]" (19) = 127 characters; joined by "\n",
    # fact i spans [128 i, 128 i + 127) of a 60 × 128 − 1 = 7,679-character section.
    rows = [row("fact", i, content="a" * 100, subject=f"s{i:02d}", confidence=0.9) for i in range(60)]
    cands = [cand(r, final_rank=i + 1) for i, r in enumerate(rows)]
    return rows, cands


def by_title(plan):
    return {o.entry.source: o for o in plan.outcomes}


def test_relevant_facts_cut_mid_text_at_budget_times_four_minus_three():
    rows, cands = sixty_facts()
    p = packer(cands, rows)
    # task frame, gpt-4o: facts 1,500 tokens → 6,000 characters → text[:5997] + "..." (context.py:1036, 1916-1921)
    assert p.budgets.effective("facts") == 1500
    plan = p.plan(p.default_budget)
    facts = p.section_text(plan, 0)
    # 109 characters of fact 46 survive: "- [s46] " + 100 × "a" + " ", then "..."
    assert len(facts) == 6000 and facts.endswith("\n- [s46] " + "a" * 100 + " ...")
    outcomes = by_title(plan)
    fits, cut, after = outcomes[rows[45].provenance], outcomes[rows[46].provenance], outcomes[rows[47].provenance]
    assert (fits.fate, fits.reason) == (Fate.INCLUDED, NousReason.FITS)  # ends at 5,887 ≤ 5,997
    assert (cut.fate, cut.reason) == (Fate.SUMMARIZED, NousReason.CUT)  # spans 5,888-6,015
    assert (after.fate, after.reason) == (Fate.DROPPED, NousReason.AFTER_CUT)  # starts at 6,016
    assert describe(cut) == (
        "section 'facts' budget 1,500 tokens: cut mid-text after 5,997 characters "
        '(then "..."); its line is characters 5,888–6,015 of 7,679: 109 of its 127 '
        "characters survive"
    )
    assert reason_cell(cut) == "cut mid-text at 5,997 chars"
    # The section's token estimate is exactly its budget once cut (6,000 // 4).
    assert plan.buckets[0].used == 1500 and plan.buckets[0].cap == 1500


def test_the_default_model_scales_the_same_section_by_two_and_a_half():
    rows, cands = sixty_facts()
    p = packer(cands, rows, model="claude-sonnet-4-6")
    plan = p.plan(p.default_budget)
    assert p.budgets.effective("facts") == 3750  # 1,500 × 2.5: 15,000 characters hold the whole 7,679
    assert all(o.fate is Fate.INCLUDED for o in plan.outcomes)
    assert "no cut" not in describe(plan.outcomes[0])
    assert describe(plan.outcomes[0]).startswith("section 'facts' budget 3,750 tokens (1,500 ×2.5 for the model)")


def test_the_single_budget_shares_out_the_sections_budgets():
    rows, cands = sixty_facts()
    p = packer(cands, rows)
    # task frame unscaled: decisions 2,000 + facts 1,500 + procedures 1,500 + episodes 1,000
    assert p.default_budget == 6000
    assert p.section_budgets(6000) == [1500]
    assert p.section_budgets(3000) == [750]  # 3,000 × 1,500 // 6,000
    assert p.section_budgets(3) == [0]  # rounds to 0: the section is off, as nous treats a zero budget
    plan = p.plan(3)
    assert plan.render("md") == "" and all(o.reason is NousReason.SECTION_OFF for o in plan.outcomes)


def test_switching_the_frame_changes_what_is_cut():
    rows, cands = sixty_facts()
    p = packer(cands, rows).with_knob("frame", "conversation")
    # conversation: facts 500 (schemas.py:138; the intent plan's conversation override is also 500)
    plan = p.plan(p.default_budget)
    assert p.budgets.effective("facts") == 500
    assert len(p.section_text(plan, 0)) == 2000
    assert sum(o.fate is Fate.INCLUDED for o in plan.outcomes) == 15  # 15 × 128 − 1 = 1,919 ≤ 1,997
    # an operator override (a section-budget knob) is applied last, over frame and plan
    q = p.with_knob("facts", 4000)
    assert q.budgets.effective("facts") == 4000 and q.settings.source("facts") == "user"


def blocks(n_chars: list[int]):
    rows = [
        row(
            "procedure",
            i,
            name=f"p{i}",
            domain="ops",
            description="d" * (size - len(f"### p{i} (ops)\n\n")),
            tags=("skill",),
        )
        for i, size in enumerate(n_chars)
    ]
    cands = [cand(r, final_rank=i + 1, leg="context_procedures_ladder") for i, r in enumerate(rows)]
    return rows, cands


def test_recommended_procedures_add_whole_blocks_and_stop_at_the_first_misfit():
    # context.py:1212-1222: first block always; then while used + est(block) ≤ budget; break at a misfit.
    rows, cands = blocks([2400, 2400, 1600, 400])  # 600, 600, 400, 100 tokens
    p = packer(cands, rows)
    assert p.budgets.effective("procedures") == 1500
    plan = p.plan(p.default_budget)
    fates = [(o.fate, o.reason) for o in plan.outcomes]
    assert fates == [
        (Fate.INCLUDED, NousReason.BLOCK_FITS),
        (Fate.INCLUDED, NousReason.BLOCK_FITS),
        (Fate.DROPPED, NousReason.BLOCK_OVER),
        (Fate.DROPPED, NousReason.AFTER_STOP),
    ]
    # the 4th block (100 tokens) would fit 1,200 + 100 ≤ 1,500, but nous stops at the first misfit
    assert describe(plan.outcomes[2]).endswith(
        "1,200 used before it + 400 = 1,600 > 1,500: not shown, and nous stops adding blocks here"
    )
    text = p.section_text(plan, 0)
    assert text.count("### ") == 2 and len(text) == 2400 + 2 + 2400


def test_the_first_block_is_shown_even_over_the_budget():
    rows, cands = blocks([2400, 400])
    p = packer(cands, rows, overrides=(("procedures", 100),))
    plan = p.plan(p.default_budget)
    first = plan.outcomes[0]
    assert (first.fate, first.reason) == (Fate.INCLUDED, NousReason.FIRST_BLOCK)
    assert "600 tokens, 500 over the budget" in describe(first)
    assert plan.buckets[0].overrun == 500


def test_candidates_a_gate_dropped_stay_dropped_at_every_budget():
    rows, cands = sixty_facts()
    gated = row("fact", 99, content="dropped by diversity", subject="s00")
    p = packer([*cands, cand(gated, "filter_dropped", stage="diversity")], [*rows, gated])
    for budget in (0, 100, p.default_budget, 10 * p.default_budget):
        outcome = p.plan(budget).outcome(gated.provenance)
        assert (outcome.fate, outcome.reason) == (Fate.DROPPED, NousReason.GATE)
    assert "filter_dropped at diversity" in describe(outcome) and "2 facts per subject" in describe(outcome)


def test_an_abandoned_episode_is_counted_rendered_but_prints_nothing():
    # context.py:2361-2362
    when = datetime(2026, 8, 20, 12, 0)
    done = row("episode", 1, summary="Set up the DB", outcome="success", started_at=when)
    gone = row("episode", 2, summary="Gave up", outcome="abandoned", started_at=when)
    p = packer([cand(done, final_rank=1), cand(gone, final_rank=2)], [done, gone])
    plan = p.plan(p.default_budget)
    assert plan.render("md") == "## Past Episodes\n\n- [success] Set up the DB (2026-08-20)"
    assert plan.outcome(gone.provenance).reason is NousReason.ABANDONED


def test_sections_print_in_priority_order_and_recent_conversations_is_not_budgeted():
    when = datetime(2026, 8, 21, 9, 30)
    dec = row("decision", 1, description="Use Postgres", outcome="success", confidence=0.8)
    fact = row("fact", 1, content="Metric units", subject="units", confidence=0.9)
    recent_a = row("episode", 1, title="Newer", summary="n", started_at=when)
    recent_b = row("episode", 2, title="Older", summary="o", started_at=datetime(2026, 8, 20, 8, 0))
    past = row("episode", 3, summary="Long ago", outcome="success", started_at=datetime(2026, 1, 2))
    cands = [
        cand(fact, final_rank=2),
        cand(dec, final_rank=1),
        # temporal-tier episodes: line order is list_episodes' (entry rank), their final ranks come from a set
        cand(recent_b, final_rank=4, entry_rank=2, leg="context_episodes_temporal"),
        cand(recent_a, final_rank=5, entry_rank=1, leg="context_episodes_temporal"),
        cand(past, final_rank=3),
    ]
    p = packer(cands, [dec, fact, recent_a, recent_b, past])
    assert p.plan(p.default_budget).render("md") == (
        "## Related Decisions\n\n- [success] Use Postgres (confidence: 0.80)\n\n"
        "## Relevant Facts\n\n- [units] Metric units [confidence: 0.90]\n\n"
        "## Recent Conversations\n\n- [Aug 21 09:30] Newer\n- [Aug 20 08:00] Older\n\n"
        "## Past Episodes\n\n- [success] Long ago (2026-01-02)"
    )
    # at budget 0 every budgeted section is off; Recent Conversations stays (context.py:1466-1525)
    assert p.plan(0).render("md") == "## Recent Conversations\n\n- [Aug 21 09:30] Newer\n- [Aug 20 08:00] Older"


def test_a_greeting_skips_every_memory_section():
    rows, cands = sixty_facts()
    p = packer(cands, rows, intent="greeting")
    assert p.default_budget == 0
    assert p.plan(p.default_budget).render("md") == ""


def test_budget_truncated_candidates_follow_the_rendered_ones():
    # _tr_budget (context.py:315-331) marks an item budget_truncated when its first 40 characters are
    # absent from the cut text; a bigger budget brings them back, after the rendered ones, by entry rank.
    rows, cands = sixty_facts()
    cands = cands[:10] + [
        cand(r, "budget_truncated", stage="section_budget_truncation", entry_rank=60 - i)
        for i, r in enumerate(rows[10:12])
    ]
    p = packer(cands, rows[:12])
    order = [p.entries[i].source for i in p.sections[0].items]
    assert order[-2:] == [rows[11].provenance, rows[10].provenance]  # by entry rank (59, 60)
    # Every fact here begins with the same 40 "a"s, which the rebuilt text shows: nous would have logged the
    # two rendered, and the rebuild says its split disagrees with this (hand-made) log.
    assert [str(x) for x in p.problems] == [
        "nous: Relevant Facts: nous's 40-character check on the rebuilt text disagrees with the log for 2 items "
        "(the order of items the budget cut is not logged, or a row changed since the turn)"
    ]


def test_checks_compare_the_rebuild_with_the_logged_tokens():
    fact = row("fact", 1, content="Metric units", subject="units", confidence=0.9)
    line = "- [units] Metric units [confidence: 0.90]"
    from ctxtui.engine.packers.nous.budgets import NousSettings
    from ctxtui.engine.packers.nous.packer import NousPacker

    logged = turn([cand(fact, final_rank=1)], tokens={"relevant_facts": len(line) // 4, "identity": 100})
    p = NousPacker(logged, {(fact.type, fact.id): fact}, NousSettings(model="gpt-4o"))
    [check] = p.checks()
    assert (check.label, check.rebuilt, check.logged, check.agrees) == ("Relevant Facts", 10, 10, True)


def test_a_row_gone_since_the_turn_is_rebuilt_from_its_snippet():
    fact = row("fact", 1, content="Metric units", subject="units")
    p = packer([cand(fact, final_rank=1, snippet="Metric units")], [])
    assert p.plan(p.default_budget).render("md") == "## Relevant Facts\n\n- Metric units [confidence: 1.00]"
    assert any("gone from the memory tables" in str(problem) for problem in p.problems)
    assert ("row", "gone: rebuilt from the logged snippet") in p.entries[0].extra


def test_a_row_changed_since_the_turn_is_noted():
    fact = row("fact", 1, content="Imperial units now", subject="units")
    p = packer([cand(fact, final_rank=1, snippet="Metric units")], [fact])
    assert any("changed since the turn" in str(problem) for problem in p.problems)


def test_knobs_say_where_each_value_came_from():
    rows, cands = sixty_facts()
    p = packer(cands, rows)
    knobs = {k.key: k for k in p.knobs()}
    assert knobs["frame"].value == "task" and "conversation" in knobs["frame"].choices
    assert knobs["facts"].value == 1500 and knobs["facts"].kind == "int"
    assert "1,500 tokens = 6,000 characters" in knobs["facts"].help
    q = p.with_knob("model", "claude-sonnet-4-6")
    assert {k.key: k for k in q.knobs()}["model"].source == "user" and q.default_budget == 15000
