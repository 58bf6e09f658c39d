"""Hand-worked cases, each from a line of Cortex's source (mattepiu/drift 265f6f49).

Paths: `cortex/` = `drift v1 depreciated/packages/cortex/src/`,
`cli/` = `drift v1 depreciated/packages/cli/src/`.
"""

from __future__ import annotations

import json
import math

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.cortex.compression import compress, default_summary, expanded_text, tokens
from ctxtui.engine.packers.cortex.fit import effective_budget, fit
from ctxtui.engine.packers.cortex.outcomes import CortexReason
from ctxtui.engine.packers.cortex.rank import rank
from ctxtui.engine.packers.cortex.score import focus_words, score
from ctxtui.engine.packers.cortex.weights import INTENTS, TYPES, WEIGHTS, weight
from ctxtui.engine.text.js import JSError

from tests.factories.cortex_v1 import NOW, iso, memory
from tests.packers.cortex.conftest import packer_for, packet

NOW_MS = 1748736000000.0  # 2025-06-01T00:00:00Z
DAY = 86_400_000


# ---------------------------------------------------------------- scoring.ts


def test_five_factor_score_worked_by_hand():
    """scoring.ts:18-37: 0.3·0.8 + 0.2·0.8 (high) + 0.15·e^-1 (30 days) + 0.1·log10(10)/2 + 0.25·(1/2)."""
    m = {
        "confidence": 0.8,
        "importance": "high",
        "createdAt": "2025-05-02T00:00:00.000Z",
        "accessCount": 9.0,
        "summary": "cache redis",
    }
    f = score(m, focus_words("redis"), NOW_MS)
    assert (f.confidence, f.importance, f.access, f.topic) == (0.8, 0.8, 0.5, 0.5)
    assert f.days_old == 30.0 and f.recency == math.exp(-1)  # scoring.ts:56-60
    expected = 0.0 + 0.8 * 0.3 + 0.8 * 0.2 + math.exp(-1) * 0.15 + 0.5 * 0.1 + 0.5 * 0.25
    assert f.raw == expected == pytest.approx(0.630181916)
    assert f.score == f.raw  # below the cap


def test_score_is_capped_at_one_before_the_intent_weight():
    """scoring.ts:36 caps at 1; engine.ts:132-135 multiplies after, so 1 × 1.2 = 1.2 is printed.

    Every factor at its top (a createdAt 30 days ahead even gives recency e): 0.85 + 0.15·e.
    """
    m = {
        "confidence": 1.0,
        "importance": "critical",
        "createdAt": "2025-07-01T00:00:00.000Z",
        "accessCount": 99.0,
        "summary": "redis",
        "type": "tribal",
    }
    f = score(m, focus_words("redis"), NOW_MS)
    assert f.raw == pytest.approx(0.85 + 0.15 * math.e) and f.score == 1.0
    assert f.score * weight("tribal", "understand_code") == 1.2


def test_importance_words_and_everything_else():
    """scoring.ts:42-50: a strict switch; numbers and other spellings score 0.5."""
    got = {
        imp: score({"importance": imp}, None, NOW_MS).importance
        for imp in ("critical", "high", "normal", "low", "High", 3.0, None)
    }
    assert got == {"critical": 1.0, "high": 0.8, "normal": 0.5, "low": 0.2, "High": 0.5, 3.0: 0.5, None: 0.5}


def test_recency_is_never_clamped():
    """scoring.ts:55-61: a future createdAt gives exp(+days/30) > 1."""
    f = score({"createdAt": "2025-07-01T00:00:00.000Z"}, None, NOW_MS)
    assert f.recency == pytest.approx(math.exp(1)) and f.recency > 1


def test_access_uses_javascript_plus():
    """scoring.ts:66-69: `accessCount + 1` concatenates a string: "3" + 1 = "31"."""
    assert score({"accessCount": "3"}, None, NOW_MS).access == pytest.approx(math.log10(31) / 2)
    assert score({"accessCount": 9999.0}, None, NOW_MS).access == 1.0  # min(1, log10(10000)/2 = 2)
    assert math.isnan(score({}, None, NOW_MS).access)  # undefined + 1 = NaN


def test_confidence_coercion():
    """scoring.ts:22 `memory.confidence * 0.3`: "0.9" → 0.9, null → 0, true → 1, missing → NaN (and the score)."""
    assert score({"confidence": "0.9"}, None, NOW_MS).confidence == 0.9
    assert score({"confidence": None}, None, NOW_MS).confidence == 0.0
    assert score({"confidence": True}, None, NOW_MS).confidence == 1.0
    missing = score({"createdAt": iso(1), "accessCount": 0.0}, None, NOW_MS)
    assert math.isnan(missing.confidence) and math.isnan(missing.score)


def test_topic_match_keeps_empty_words_of_the_memory():
    """scoring.ts:91: the summary's split is not filtered, so a trailing space adds "" to the union: 1/3, not 1/2."""
    assert score({"summary": "redis cache"}, focus_words("redis"), NOW_MS).topic == 0.5
    assert score({"summary": "redis cache "}, focus_words("redis"), NOW_MS).topic == pytest.approx(1 / 3)


def test_topic_knowledge_counts_its_first_50_words_only():
    """scoring.ts:105: `.split(/\\s+/).slice(0, 50)`."""
    knowledge = " ".join(["x"] * 50 + ["redis"])
    assert score({"knowledge": knowledge}, focus_words("redis"), NOW_MS).topic == 0.0


def test_topic_split_is_javascripts_whitespace():
    """scoring.ts:81: JS `\\s` splits on NBSP, U+3000 and the BOM but not on U+001F (Python differs on both)."""
    assert focus_words("alpha\u00a0beta\u3000gamma\ufeffdelta") == {"alpha", "beta", "gamma", "delta"}
    assert focus_words("a\u001fb") == {"a\u001fb"}
    assert focus_words("   ") is None and focus_words("") is None  # scoring.ts:76-78


def test_topic_of_a_non_string_summary_throws():
    """scoring.ts:91: `memory.summary.toLowerCase` on a number is V8's TypeError."""
    with pytest.raises(JSError, match="memory.summary.toLowerCase is not a function"):
        score({"summary": 42.0}, focus_words("x"), NOW_MS)
    score({"summary": 42.0}, None, NOW_MS)  # with an empty focus the summary is never read


# ---------------------------------------------------------------- weighting.ts


def test_weight_table_is_whole():
    """weighting.ts:15-415: 15 intents × 23 types."""
    assert len(INTENTS) == 15 and len(TYPES) == 23
    assert all(set(WEIGHTS[intent]) == set(TYPES) for intent in INTENTS)
    assert WEIGHTS["security_audit"]["tribal"] == 2.0 and WEIGHTS["track_progress"]["goal"] == 2.0
    assert WEIGHTS["fix_bug"]["meeting"] == 0.2 and WEIGHTS["diagnose_issue"]["preference"] == 0.3


def test_weight_lookup_is_javascripts():
    """weighting.ts:425 `WEIGHTS[intent]?.[memoryType] ?? 1.0`."""
    assert weight("tribal", "bogus") == 1.0 and weight("tribal", "") == 1.0
    assert weight("unknown_type", "add_feature") == 1.0
    assert weight(None, "recall") == 1.0  # "null" is no type
    assert math.isnan(weight("toString", "recall"))  # Object.prototype.toString × number
    with pytest.raises(JSError, match="Cannot convert object to primitive value"):
        weight({"toString": "x"}, "recall")
    assert weight({"toString": "x"}, "bogus") == 1.0  # `undefined?.[…]` never converts the key


# Cortex's own unit tests (cortex/__tests__/retrieval/weighting.test.ts), as assertions on our table.
CODE_INTENTS = ("add_feature", "fix_bug", "refactor", "security_audit", "understand_code", "add_test")
V1_TYPES = (
    "core",
    "tribal",
    "procedural",
    "semantic",
    "episodic",
    "pattern_rationale",
    "constraint_override",
    "decision_context",
    "code_smell",
)


def test_cortex_weighting_unit_tests():
    w = weight
    for intent in CODE_INTENTS:
        for t in V1_TYPES:
            assert 0.3 <= w(t, intent) <= 2.0  # "reasonable weight ranges"
        assert w("core", intent) == 1.0  # "core weight of 1.0 (baseline)"
    assert w("unknown_type", "add_feature") == 1.0
    assert w("procedural", "add_feature") > w("tribal", "add_feature")
    assert w("procedural", "add_feature") > w("semantic", "add_feature")
    assert w("episodic", "add_feature") < w("procedural", "add_feature") and w("episodic", "add_feature") < 1.0
    assert w("pattern_rationale", "add_feature") > 1.0
    assert w("tribal", "fix_bug") > w("procedural", "fix_bug")
    assert w("code_smell", "fix_bug") >= 1.5 and w("episodic", "fix_bug") == 1.0
    assert w("pattern_rationale", "refactor") > w("tribal", "refactor")
    assert w("decision_context", "refactor") >= 1.5 and w("episodic", "refactor") < 1.0
    assert w("tribal", "security_audit") == 2.0 and w("code_smell", "security_audit") >= 1.5
    assert w("constraint_override", "security_audit") >= 1.5 and w("episodic", "security_audit") < 0.5
    assert w("semantic", "understand_code") >= 1.5 and w("pattern_rationale", "understand_code") >= 1.5
    assert w("decision_context", "understand_code") >= 1.5
    assert w("procedural", "add_test") > w("semantic", "add_test") and w("code_smell", "add_test") > 1.0


# ---------------------------------------------------------------- ranking.ts


def test_diversity_ladder_uses_v8_pow():
    """ranking.ts:40-54: seven equal tribal scores become s·0.9^k; V8's pow gives 0.6561000000000001 for k=4."""
    ranked = rank([(i, 1.0, "tribal") for i in range(7)])
    assert [r.score for r in ranked] == [
        1,
        0.9,
        0.81,
        0.7290000000000001,
        0.6561000000000001,
        0.5904900000000001,
        0.531441,
    ]
    assert [r.candidate for r in ranked] == list(range(7))  # stable


def test_diversity_counts_each_type_separately_and_resorts():
    """ranking.ts:57: after damping, the second tribal (0.9 × 0.9 = 0.81) falls below a semantic at 0.85."""
    ranked = rank([(0, 0.9, "tribal"), (1, 0.9, "tribal"), (2, 0.85, "semantic")])
    assert [(r.candidate, r.same_type_before) for r in ranked] == [(0, 0), (2, 0), (1, 1)]
    assert ranked[2].score == pytest.approx(0.81)


def test_diversity_map_keys_are_raw_values():
    """ranking.ts:38 a Map: the number 123 and the string "123" are different types."""
    ranked = rank([(0, 1.0, 123.0), (1, 1.0, "123"), (2, 1.0, 123.0)])
    assert [r.same_type_before for r in sorted(ranked, key=lambda r: r.candidate)] == [0, 0, 1]


# ---------------------------------------------------------------- compression.ts


def test_tokens_are_utf16_length_over_four():
    """compression.ts:264-267: Math.ceil(text.length / 4), with astral characters counting two."""
    assert tokens("abcd") == 1 and tokens("abcde") == 2 and tokens("") == 0
    assert tokens("🔥🔥") == 1 and tokens("🔥🔥🔥") == 2  # 6 UTF-16 units
    assert tokens("⚠️") == 1  # U+26A0 U+FE0F
    assert math.isnan(tokens(42.0)) and tokens(["a", "b", "c", "d", "e"]) == 2


def test_default_summaries():
    """compression.ts:215-259 (also used for tokens when the blob has no summary)."""
    assert default_summary({"type": "tribal", "topic": "auth", "knowledge": "k" * 60}) == "⚠️ auth: " + "k" * 50 + "..."
    assert default_summary({"type": "procedural", "name": "deploy", "steps": [1.0, 2.0]}) == "📋 deploy: 2 steps"
    assert default_summary({"type": "core"}) == "🏠 Project"
    assert default_summary({"type": "episodic", "context": {"focus": ""}}) == "💭 Interaction"
    assert default_summary({"type": "constraint_override"}) == "✅ Override: undefined"
    assert default_summary({"type": "decision"}) == "Memory"
    assert default_summary({"type": "tribal", "topic": "t", "knowledge": "ab😀cd" * 20}).count("\ufffd") == 0


def test_expanded_text_starts_with_the_raw_summary():
    """compression.ts:63: `[memory.summary]` joined by "\\n": a missing summary leaves an empty first line."""
    m = {"type": "semantic", "topic": "t", "knowledge": "k"}
    assert expanded_text(m) == "\nTopic: t\nKnowledge: k"
    assert expanded_text({**m, "summary": "s"}) == "s\nTopic: t\nKnowledge: k"


def test_compress_throws_as_v8_does():
    """compression.ts:118-119: core without project; 126: a string where an array was meant."""
    assert str(compress({"type": "core"}).error) == "TypeError: Cannot read properties of undefined (reading 'name')"
    assert str(compress({"type": "agent_spawn", "tools": "x", "triggerPatterns": []}).error) == (
        "TypeError: memory.tools.join is not a function"
    )
    assert compress({"type": "core", "project": {"name": "p", "techStack": ["ts"]}}).expanded == (
        "\nProject: p\nStack: ts"
    )


# ---------------------------------------------------------------- budget.ts


def _c(summary: int, expanded: int):
    from ctxtui.engine.packers.cortex.compression import Compressed

    return Compressed("s", float(summary), "e", float(expanded))


def test_overrun_quirk():
    """budget.ts:48-68: leftover 370 is compared with each of three 140-token expansions, never reduced: 450 > 400."""
    result = fit([_c(10, 150)] * 3, 400.0)
    assert result.pass1_used == 30 and result.leftover == 370 and result.levels == ("expanded",) * 3
    assert result.tokens_used == 450 and result.running == (170, 310, 450)


def test_first_misfit_stops_pass_one():
    """budget.ts:33-44: the 300-token summary does not fit 200, and the 10-token one after it is never tried."""
    result = fit([_c(10, 10), _c(300, 300), _c(10, 10)], 200.0)
    assert result.fitted == 1 and result.stopped_at == 1 and result.tokens_used == 10


def test_pass_two_needs_more_than_100_left():
    """budget.ts:49: leftover 100 is not > 100."""
    assert not fit([_c(10, 50)], 110.0).pass2
    assert fit([_c(10, 50)], 111.0).levels == ("expanded",)


def test_only_the_top_three_are_expanded():
    """budget.ts:51: `i < Math.min(3, result.length)`."""
    assert fit([_c(1, 5)] * 5, 1000.0).levels == ("expanded",) * 3 + ("summary",) * 2


def test_budget_zero_means_2000():
    """engine.ts:141 `context.maxTokens || 2000`; a negative budget stays."""
    assert effective_budget(0.0) == effective_budget(math.nan) == 2000 and effective_budget(-5.0) == -5


# ---------------------------------------------------------------- the packer, end to end


@pytest.fixture
def overrun_db(v1_db):
    """Three semantic memories of 10 summary tokens and 150 expanded (61 + 539 characters), budget 400."""
    rows = [
        memory(f"o-{i}", "semantic", "a" * 40, created=1.0, last_accessed=iso(i), topic="t", knowledge="k" * 539)
        for i in range(3)
    ]
    return v1_db(rows)


def test_outcomes_of_the_overrun(overrun_db):
    packer = packer_for(overrun_db, "cache")
    plan = packer.plan(400)
    data = json.loads(plan.render("json"))
    assert data["tokensUsed"] == 450 and plan.tokens_used == 450
    outcomes = plan.outcomes[:3]
    assert [o.fate for o in outcomes] == [Fate.INCLUDED] * 3
    assert [o.reason for o in outcomes] == [CortexReason.EXPANDED, CortexReason.EXPANDED, CortexReason.EXPANDED_OVERRUN]
    n = outcomes[2].numbers
    assert (n.leftover, n.expand_cost, n.used_after, n.budget) == (370, 140, 450, 400)
    bars = plan.buckets
    assert bars[1].overrun == 50 and bars[0].summarized == 30


def test_outcome_numbers_carry_every_factor(overrun_db):
    n = packer_for(overrun_db, "cache").plan(2000).outcomes[0].numbers
    for field in (
        "confidence",
        "importance",
        "recency",
        "access",
        "topic",
        "base",
        "intent_weight",
        "diversity",
        "score",
        "rank",
    ):
        assert getattr(n, field) is not None, field


def test_text_header_prints_the_parsed_max_tokens(overrun_db):
    """cli/commands/memory.ts:1644: `${maxTokens}` is the parsed value: `--max-tokens 0` shows /0 yet fits 2000."""
    text = packet(overrun_db, "cache", 0, "text")
    assert "| Tokens: 450/0 |" in text
    assert packet(overrun_db, "cache", 0, "json") == packet(overrun_db, "cache", 2000, "json")


def test_errors_print_as_the_cli_prints_them(v1_db):
    """cli/commands/memory.ts:1670-1676: one line, `{"error":"…"}` (no space) or `Error: …`."""
    db = v1_db([memory("bad", "core", "broken core", last_accessed=iso(0))])
    assert packet(db, "x") == '{"error":"TypeError: Cannot read properties of undefined (reading \'name\')"}\n'
    assert packet(db, "x", fmt="text") == "Error: TypeError: Cannot read properties of undefined (reading 'name')\n"


def test_now_comes_from_the_settings(overrun_db):
    """scoring.ts:56 Date.now(): the packer never reads the clock; a later "now" lowers recency."""
    early = packer_for(overrun_db, "x", now=NOW).plan(2000).outcomes[0].numbers.recency
    later = packer_for(overrun_db, "x", now=NOW_MS + 30 * DAY).plan(2000).outcomes[0].numbers.recency
    assert later < early


# Cortex's own unit tests (cortex/__tests__/retrieval/scoring.test.ts), on our scorer with "now" pinned.
def _tribal(**overrides):
    m = {
        "id": "test-tribal-1",
        "type": "tribal",
        "topic": "test-topic",
        "knowledge": "Test knowledge content",
        "severity": "warning",
        "summary": "Test summary",
        "confidence": 0.8,
        "importance": "normal",
        "accessCount": 5.0,
        "createdAt": "2025-06-01T00:00:00.000Z",
    }
    m.update(overrides)
    return m


def _s(m, focus="test"):
    return score(m, focus_words(focus), NOW_MS).score


def test_cortex_scoring_unit_tests():
    assert 0 <= _s(_tribal(), "authentication") <= 1
    assert _s(_tribal(confidence=0.9)) > _s(_tribal(confidence=0.3))
    assert _s(_tribal(importance="critical")) > _s(_tribal(importance="normal"))
    assert _s(_tribal()) > _s(_tribal(createdAt=iso(90)))
    assert _s(_tribal(accessCount=100.0)) > _s(_tribal(accessCount=1.0))
    assert _s(_tribal(topic="authentication security", summary="Auth security warning"), "authentication") > _s(
        _tribal(topic="database optimization", summary="DB optimization tip"), "authentication"
    )
    assert _s(_tribal(topic="general", summary="Important authentication warning"), "authentication") > _s(
        _tribal(topic="general", summary="Database connection tip"), "authentication"
    )
    semantic = {**_tribal(), "type": "semantic", "topic": "general"}
    assert _s(
        {**semantic, "knowledge": "Always validate authentication tokens before processing requests"},
        "authentication tokens",
    ) > _s({**semantic, "knowledge": "Use connection pooling for database efficiency"}, "authentication tokens")
    assert (
        _s(
            _tribal(topic="user authentication flow", knowledge="The authentication flow requires token validation"),
            "user authentication token validation",
        )
        > 0.3
    )
    levels = [_s(_tribal(importance=i)) for i in ("critical", "high", "normal", "low")]
    assert levels == sorted(levels, reverse=True)
    ages = [_s(_tribal(createdAt=iso(days))) for days in (0, 7, 30, 90, 365)]
    assert ages == sorted(ages, reverse=True)
    low, medium, high = (_s(_tribal(accessCount=n)) for n in (1.0, 10.0, 100.0))
    assert abs((medium - low) - (high - medium)) < 0.1  # "logarithmic scaling"
    assert 0 <= _s(_tribal(), "") <= 1 and _s(_tribal(accessCount=0.0)) >= 0
    assert 0 <= _s(_tribal(createdAt=iso(3650))) <= 1


def test_knobs(overrun_db):
    packer = packer_for(overrun_db, "cache", intent="fix_bug")
    knobs = {knob.key: knob for knob in packer.knobs()}
    assert knobs["query"].value == "cache" and knobs["intent"].value == "fix_bug"
    assert knobs["intent"].kind == "choice" and knobs["intent"].choices == INTENTS
    assert knobs["intent"].default == "understand_code" and knobs["retrieval_time"].value == 3
    other = packer.with_settings(focus="redis", intent="recall")
    assert (other.focus, other.intent) == ("redis", "recall") and other.candidates()[0].key.startswith("cortex:")
