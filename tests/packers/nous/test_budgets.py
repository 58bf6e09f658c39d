"""nous's section budgets: the frame table, the intent plan, the operator's overrides and the model scale.

Hand-worked from nous's source at commit 47939528 (the rebuilt copies under
/work/oracles/nous/src/, cited as file:line) and notes/nous.md §2.1.
"""

from __future__ import annotations

import pytest
from ctxtui.engine.packers.nous import budgets as b
from ctxtui.engine.packers.nous.budgets import NousSettings, resolve


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        # schemas.py:137-144: (decisions, facts, procedures, episodes, censors)
        ("conversation", (500, 500, 0, 600, 300)),
        ("question", (1000, 1500, 500, 500, 300)),
        ("task", (2000, 1500, 1500, 1000, 300)),
        ("decision", (3000, 2000, 2000, 1000, 300)),
        ("creative", (1000, 1500, 500, 500, 100)),
        ("debug", (1500, 1000, 2500, 1000, 300)),
        ("no-such-frame", (2000, 1500, 1500, 1000, 300)),  # schemas.py:145: budgets.get(frame_id, cls())
    ],
)
def test_the_frame_table_without_an_intent_plan(frame, expected):
    base = resolve(NousSettings(frame=frame, intent=b.INTENT_OFF)).base
    assert (base["decisions"], base["facts"], base["procedures"], base["episodes"], base["censors"]) == expected
    assert base["identity"] == 500 and base["working_memory"] == 700 and base["user_profile"] == 200


@pytest.mark.parametrize(
    ("model", "window", "factor"),
    [
        ("claude-sonnet-4-6", 1_000_000, 2.5),  # schemas.py:17, context.py:1864-1865
        ("claude-opus-4-6-20260101", 1_000_000, 2.5),  # a substring match
        ("claude-haiku-4-5", 200_000, 1.5),  # context.py:1866-1867
        ("some-new-model", 200_000, 1.5),  # unknown: 200,000 (config.py@00c68220 _get_context_window)
        ("gpt-4o", 128_000, 1.0),  # below 200,000: unscaled
    ],
)
def test_the_scale_follows_the_models_window(model, window, factor):
    settings = NousSettings(model=model)
    assert settings.window == window and settings.factor == factor


def test_task_facts_under_the_default_model_are_3750_tokens():
    # 1500 × 2.5 = 3750 tokens = 15,000 characters (notes/nous.md §2.1 step 4).
    budgets = resolve(NousSettings(frame="task", model="claude-sonnet-4-6"))
    assert budgets.effective("facts") == 3750
    assert budgets.effective("identity") == 500  # never scaled
    assert budgets.effective("censors") == 300


def test_scaling_truncates_like_int():
    # int(333 * 1.5) = 499 (not 500): nous rounds down.
    settings = NousSettings(model="claude-haiku-4-5", overrides=(("facts", 333),))
    assert resolve(settings).effective("facts") == 499


def test_the_scale_can_be_switched_off_or_pinned():
    assert NousSettings(model="claude-sonnet-4-6", budget_scale=False).factor == 1.0
    assert NousSettings(model="gpt-4o", context_window=1_000_000).factor == 2.5


def test_the_intent_plan_gives_the_decision_frame_3500_decisions():
    # intent.py@001bc6d8 plan_retrieval: decision frame → decisions 3500, procedures 2000 (not the table's 3000).
    base = resolve(NousSettings(frame="decision")).base
    assert base["decisions"] == 3500 and base["procedures"] == 2000 and base["facts"] == 2000


@pytest.mark.parametrize(
    ("flag", "followup", "episodes"), [(True, False, 600), (False, False, 0), (True, True, 1000), (False, True, 1000)]
)
def test_conversation_episodes_follow_the_followup_flags(flag, followup, episodes):
    # intent.py (F083 A1 + the R1 rescue fix): conversation episodes = 600 if the flag else 0; a follow-up
    # (temporal recency > 0.5) lifts an episodes override below 1000 — 0 included — to 1000.
    base = resolve(NousSettings(frame="conversation", followup_episode_budget=flag, followup=followup)).base
    assert base["episodes"] == episodes


def test_a_followup_lifts_only_an_existing_episode_override():
    # task frame: the plan sets no episodes override, so a follow-up changes nothing.
    assert resolve(NousSettings(frame="task", followup=True)).base["episodes"] == 1000
    assert resolve(NousSettings(frame="question", followup=True)).base["episodes"] == 500


def test_a_greeting_zeroes_and_skips_every_memory_section():
    budgets = resolve(NousSettings(frame="decision", intent=b.INTENT_GREETING))
    for fld in b.MEMORY_FIELDS:
        assert budgets.base[fld] == 0 and not budgets.enabled(fld)
    assert budgets.skip_types == {"decision", "fact", "procedure", "episode"}


def test_operator_overrides_win_over_the_plan():
    # context.py:358-366 (Audit CL-6): NOUS_CONTEXT_BUDGET_OVERRIDES are applied again, last.
    settings = NousSettings(frame="conversation", overrides=(("facts", 3000),))
    base = resolve(settings).base
    assert base["facts"] == 3000 and base["decisions"] == 500


def test_settings_from_the_nous_environment():
    env = {
        "NOUS_CONTEXT_BUDGET_OVERRIDES": '{"facts": 3000, "total": 12000, "bogus": 1}',
        "NOUS_CONTEXT_WINDOW": "1000000",
        "NOUS_BUDGET_SCALE_ENABLED": "false",
        "NOUS_PROC_SELECTION_GRAPH_PRIMARY": "0",
        "NOUS_FACT_FORMAT_MAX_CHARS": "120",
    }
    settings, complaints = b.settings_from_env(env, NousSettings())
    assert complaints == []
    assert dict(settings.overrides) == {"facts": 3000, "total": 12000}
    assert settings.context_window == 1_000_000 and settings.budget_scale is False
    assert settings.procedure_path == b.PROC_LIST and settings.fact_max_chars == 120
    assert settings.source("facts") == "environment" and settings.source("frame") == "default"


def test_unreadable_environment_values_are_complaints_not_crashes():
    env = {"NOUS_CONTEXT_BUDGET_OVERRIDES": "[1, 2]", "NOUS_CONTEXT_WINDOW": "big", "NOUS_BUDGET_SCALE_ENABLED": "?"}
    settings, complaints = b.settings_from_env(env, NousSettings())
    assert settings == NousSettings()
    assert len(complaints) == 3 and "NOUS_CONTEXT_BUDGET_OVERRIDES" in complaints[0]


def test_an_empty_overrides_variable_is_tolerated():
    # config.py@00c68220 _parse_context_budget_overrides: "" → {} (Audit ST-1).
    settings, complaints = b.settings_from_env({"NOUS_CONTEXT_BUDGET_OVERRIDES": "  "}, NousSettings())
    assert complaints == [] and settings.overrides == ()
