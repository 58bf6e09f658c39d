"""nous's section formats and cut rules, hand-worked from context.py @47939528 (file:line into
/work/oracles/nous/src/nous/cognitive/context.py)."""

from __future__ import annotations

from datetime import datetime

from ctxtui.engine.packers.nous import formats as f

from tests.packers.nous.helpers import row


def test_estimate_is_max_one_len_over_four():
    # :1912-1914
    assert f.estimate_tokens("") == 1
    assert f.estimate_tokens("abc") == 1
    assert f.estimate_tokens("a" * 4001) == 1000
    assert f.logged_tokens("") == 0  # context_logger: len(text)//4 over stripped text, no max(1, …)
    assert f.logged_tokens("  abcdefgh \n") == 2


def test_the_mid_text_cut():
    # :1916-1921: max_chars = budget * 4; longer text → text[:max_chars - 3] + "..."
    assert f.truncate_to_budget("abcdefgh", 2) == "abcdefgh"  # exactly 8 characters fit
    assert f.truncate_to_budget("abcdefghi", 2) == "abcde..."
    assert len(f.truncate_to_budget("x" * 10_000, 1500)) == 6000  # a cut text is exactly budget × 4 long
    assert f.cut_point(10_000, 1500) == 5997
    assert f.cut_point(6000, 1500) is None


def test_a_decision_line():
    # :1953-1965 `- [{outcome or 'pending'}] {description} (confidence: {c:.2f})`
    assert (
        f.decision_line(row("decision", 1, description="Use Postgres", outcome="success", confidence=0.855))
        == "- [success] Use Postgres (confidence: 0.85)"
    )  # Python's .2f: 0.855 is 0.85499… in binary
    assert (
        f.decision_line(row("decision", 2, description="Undecided", outcome=None, confidence=1))
        == "- [pending] Undecided (confidence: 1.00)"
    )


def test_a_fact_line_has_no_colon_after_the_subject():
    # :2065 prints `- [subject] content`; the docstring (:2031) says `- [subject]: content`.
    assert (
        f.fact_line(row("fact", 1, content="User prefers metric units", subject="units", confidence=0.9), 0)
        == "- [units] User prefers metric units [confidence: 0.90]"
    )
    assert (
        f.fact_line(row("fact", 2, content="No subject here", confidence=1.0), 0)
        == "- No subject here [confidence: 1.00]"
    )


def test_a_long_fact_is_cut_at_a_word_boundary():
    # :2045-2047: content[:200].rsplit(" ", 1)[0] + "..." for facts at index ≥ full_top_n
    content = "word " * 60  # 300 characters
    line = f.fact_line(row("fact", 1, content=content, confidence=0.5), 0)
    assert line == "- " + ("word " * 39 + "word") + "... [confidence: 0.50]"
    assert (
        f.fact_line(row("fact", 1, content=content, confidence=0.5), 0, full_top_n=1)
        == f"- {content} [confidence: 0.50]"
    )


def test_a_procedure_block():
    # :2262-2300: heading, description, notes without source:/version: lines; patterns and goals unless a skill
    proc = row(
        "procedure",
        1,
        name="deploy",
        domain=None,
        description="How to deploy",
        implementation_notes=("run make", "source: wiki", "check logs"),
        core_patterns=("a", "b"),
        goals=("ship",),
        tags=(),
    )
    assert f.procedure_block(proc) == (
        "### deploy (general)\n\nHow to deploy\n\nrun make\ncheck logs\n\nPatterns: a; b\n\nGoals: ship"
    )
    skill = row(
        "procedure",
        2,
        name="lint",
        domain="dev",
        description=None,
        implementation_notes=("step",),
        core_patterns=("kw",),
        goals=(),
        tags=("skill",),
    )
    assert f.procedure_block(skill) == "### lint (dev)\n\nstep"


def test_an_oversized_procedure_becomes_a_stub():
    # :2301-2347: over the cap → heading + description (bounded) + the get_procedure pointer
    proc = row(
        "procedure",
        1,
        name="big",
        domain="ops",
        description="d" * 50,
        implementation_notes=("x" * 3000,),
        tags=("skill",),
    )
    block = f.procedure_block(proc, 2500)
    pointer = "[Full skill body exceeds preview budget — call get_procedure('big') to load the steps before acting.]"
    assert block == f"### big (ops)\n\n{'d' * 50}\n\n{pointer}"
    assert f.procedure_block(proc, 50) == pointer  # a cap below the pointer: the pointer alone


def test_an_episode_line_and_the_abandoned_skip():
    # :2351-2365
    when = datetime(2026, 8, 20, 23, 59)
    assert (
        f.episode_line(row("episode", 1, summary="Set up the DB", outcome=None, started_at=when))
        == "- [ongoing] Set up the DB (2026-08-20)"
    )
    assert f.episode_line(row("episode", 2, summary="x", outcome="abandoned", started_at=when)) is None
    assert f.episode_line(row("episode", 3, summary="no date", outcome="success")) == "- [success] no date (unknown)"


def test_a_recent_conversation_line():
    # :1492-1494 `- [{started_at:%b %d %H:%M}] {title or summary[:60] or 'Untitled'}`; :1509-1511 when boosted
    when = datetime(2026, 8, 3, 9, 5)
    assert (
        f.recent_lines(row("episode", 1, title="Set up DB", summary="We set it up", started_at=when))
        == "- [Aug 03 09:05] Set up DB"
    )
    assert (
        f.recent_lines(row("episode", 2, title=None, summary="s" * 80, started_at=when))
        == "- [Aug 03 09:05] " + "s" * 60
    )
    assert (
        f.recent_lines(row("episode", 3, title="T", summary="longer summary", started_at=when), temporal_boost=True)
        == "- [Aug 03 09:05] T\n  longer summary"
    )


def test_the_content_the_log_snippets():
    # :52-58 _tr_content: content, summary, description, name — the first non-empty
    assert f.content_of(row("procedure", 1, name="n", description="")) == "n"
    assert f.content_of(row("procedure", 1, name="n", description="d")) == "d"
