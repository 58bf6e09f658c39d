"""Properties of the nous rebuild: every outcome agrees with the rendered sections, at any budget and settings."""

from __future__ import annotations

import random
from datetime import datetime

from ctxtui.engine.fate import FATE_OF_CODE, Fate
from ctxtui.engine.packers.nous import formats as f
from ctxtui.engine.packers.nous.budgets import FRAMES
from ctxtui.engine.packers.nous.fates import NousReason
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.packers.nous.helpers import cand, packer, row

TYPES = ("decision", "fact", "procedure", "episode", "temporal")
DISPOSITIONS = ("rendered", "rendered", "rendered", "budget_truncated", "sliced_off", "filter_dropped")


@st.composite
def turns(draw):
    n = draw(st.integers(0, 40))
    rows, cands = [], []
    for i in range(n):
        kind = draw(st.sampled_from(TYPES))
        length = draw(st.integers(1, 700))
        rng = random.Random(draw(st.integers(0, 2**16)))  # word lengths from a drawn seed: cheap to generate
        words = f"#Q{i:03d}# " + " ".join("w" * rng.randint(1, 12) for _ in range(length // 6 + 1))
        words = words[: max(length, 8)]
        when = datetime(2026, 8, 1 + i % 20, i % 24, i % 60)
        mem_type = "episode" if kind == "temporal" else kind
        if mem_type == "decision":
            r = row(
                mem_type,
                i,
                description=words,
                outcome=draw(st.sampled_from(("success", None, "failure"))),
                confidence=draw(st.floats(0, 1)),
            )
        elif mem_type == "fact":
            r = row(
                mem_type,
                i,
                content=words,
                subject=draw(st.sampled_from((None, "units", "team"))),
                confidence=draw(st.floats(0, 1)),
            )
        elif mem_type == "procedure":
            r = row(
                mem_type,
                i,
                name=f"proc{i}",
                domain="ops",
                description=words,
                implementation_notes=("step one", "source: x"),
                tags=draw(st.sampled_from(((), ("skill",)))),
                success_count=draw(st.integers(0, 3)),
                failure_count=draw(st.integers(0, 3)),
            )
        else:
            r = row(
                mem_type,
                i,
                summary=words,
                title=draw(st.sampled_from((None, f"T{i}"))),
                started_at=when,
                structured_summary=draw(
                    st.sampled_from((None, {"summary": f"S{i} " + words[:50], "open_threads": ["a", 1, None]}))
                ),
                outcome=draw(st.sampled_from(("success", "ongoing", "abandoned", None))),
            )
        disposition = draw(st.sampled_from(DISPOSITIONS))
        leg = "context_episodes_temporal" if kind == "temporal" else None
        if kind == "procedure":
            leg = draw(st.sampled_from((None, "context_procedures_critic")))
        rows.append(r)
        cands.append(
            cand(
                r,
                disposition,
                final_rank=i + 1 if disposition == "rendered" else None,
                entry_rank=draw(st.integers(1, 50)),
                leg=leg,
                stage="section_budget_truncation" if disposition == "budget_truncated" else None,
            )
        )
    knobs = {
        "frame": draw(st.sampled_from(FRAMES)),
        "model": draw(st.sampled_from(("gpt-4o", "claude-sonnet-4-6", "claude-haiku-4-5"))),
        "procedure_path": draw(st.sampled_from(("graph", "list"))),
        "fact_max_chars": draw(st.integers(20, 300)),
        "catalog": draw(st.booleans()),
        "followup": draw(st.booleans()),
        "first_turn": draw(st.booleans()),
        "first_turn_episode": draw(st.booleans()),
    }
    return packer(cands, rows, **knobs)


def check_plan(p, budget):
    plan = p.plan(budget)
    md = plan.render("md")
    vector = p.fate_vector(plan)
    used = 0
    for s_index, (section, state) in enumerate(zip(p.sections, plan.state.sections, strict=True)):
        text = p.section_text(plan, s_index)
        if text is None:
            assert f"## {section.spec.label}\n" not in md
            continue
        assert f"## {section.spec.label}\n\n{text}" in md
        if section.spec.budget_field is not None:
            used += f.estimate_tokens(text)
            if section.spec.rule == "mid-text":
                assert len(text) <= state.budget * f.CHARS_PER_TOKEN  # nous's cut keeps within budget × 4
    assert plan.tokens_used == used
    for index, outcome in enumerate(plan.outcomes):
        assert FATE_OF_CODE[vector[index]] is outcome.fate
        text, n = outcome.entry.text, outcome.numbers
        if outcome.fate is Fate.INCLUDED:
            assert text in md
        elif outcome.fate is Fate.SUMMARIZED:
            survived = text[: n.kept - n.start]
            assert survived + f.ELLIPSIS in md and text not in md
        elif outcome.reason in (
            NousReason.AFTER_CUT,
            NousReason.BLOCK_OVER,
            NousReason.AFTER_STOP,
            NousReason.SECTION_OFF,
            NousReason.GATE,
        ):
            marker = text[text.find("#Q") : text.find("#Q") + 6] if "#Q" in text else None
            if marker and outcome.reason is not NousReason.GATE:
                assert marker not in md
    return plan


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns(), st.integers(0, 40_000))
def test_outcomes_agree_with_the_rendered_sections(p, budget):
    check_plan(p, budget)
    check_plan(p, p.default_budget)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns(), st.integers(0, 30_000))
def test_fates_hold_until_next_change(p, budget):
    plan = p.plan(budget)
    nxt = p.next_change(plan)
    fates = p.fate_vector(plan)
    probe = [budget + 1, budget + 7] if nxt is None else [nxt - 1, (budget + nxt) // 2]
    for other in probe:
        if other >= budget:
            assert p.fate_vector(p.plan(other)) == fates, (budget, other, nxt)


@settings(max_examples=80, deadline=None)
@given(turns())
def test_at_the_turns_own_budget_each_section_gets_exactly_its_budget(p):
    for section, budget in zip(p.sections, p.section_budgets(p.default_budget), strict=True):
        fld = section.spec.budget_field
        if fld is not None:
            assert budget == (p.budgets.effective(fld) if p.budgets.enabled(fld) else 0)


@settings(max_examples=80, deadline=None)
@given(turns(), st.integers(0, 20_000), st.integers(0, 20_000))
def test_a_bigger_budget_never_shows_less(p, a, b):
    low, high = sorted((a, b))
    rank = {Fate.DROPPED: 0, Fate.SUMMARIZED: 1, Fate.INCLUDED: 2}
    for x, y in zip(p.plan(low).outcomes, p.plan(high).outcomes, strict=True):
        assert rank[x.fate] <= rank[y.fate]


FRAME_NAMES = (*FRAMES, "other")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120), st.sampled_from(FRAME_NAMES), st.booleans())
def test_the_classified_input_decides_the_plan_as_nous_does(text, frame, first):
    # intent.py:160-187: a greeting or short ack zeroes all four memory budgets (and only then are all four 0
    # without an operator's override); a follow-up lifts the conversation frame's episodes to 1,000 (:236).
    from dataclasses import replace

    from ctxtui.engine.packers.nous.build import packer_for_turn
    from ctxtui.engine.packers.nous.intent import classify

    from tests.packers.nous.helpers import turn

    t = turn([], frame=frame)
    t = replace(
        t,
        retrieval=replace(t.retrieval, query=text),
        summary=replace(t.summary, earlier_turn=not first, turn_number=1 if first else 2),
    )
    p, _ = packer_for_turn(t, {}, {"NOUS_MODEL": "gpt-4o"})
    c = classify(text, first_turn=first)
    zero = all(p.budgets.base[fld] == 0 for fld in ("decisions", "facts", "procedures", "episodes"))
    assert zero == c.zeroes_memory
    assert p.settings.followup == c.followup
    if frame == "conversation" and not zero:
        assert p.budgets.base["episodes"] == (1000 if c.followup else 600)
    check_plan(p, p.default_budget)
