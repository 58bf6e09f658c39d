"""Hand-made engine results for widget tests: outcomes, tiers and big row sets.

Deterministic (no clock, no randomness beyond a seeded generator), so SVG
snapshots are stable.
"""

from __future__ import annotations

import random

from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Bucket, Entry, Outcome, ScoreBreakdown
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.packers.ctx.sections import TIER_NAMES
from ctxtui.engine.reason_numbers import PrefixFit, ShareFit


def entry(key: str, section: str, title: str, tokens: int, **kw) -> Entry:
    return Entry(
        key=key,
        section=section,
        title=title,
        text=title,
        tokens=tokens,
        source=f".context/{section.upper()}.md:1",
        **kw,
    )


def score(
    age: int | None,
    recency: float,
    relevance: float,
    total: float,
    rank: int,
    importance: float | None = None,
    usage: float | None = None,
) -> ScoreBreakdown:
    return ScoreBreakdown(
        age_days=age,
        recency=recency,
        relevance=relevance,
        superseded=False,
        total=total,
        rank=rank,
        importance=importance,
        usage=usage,
    )


def sample_outcomes() -> list[Outcome]:
    """A dozen outcomes covering every fate and the common reasons."""
    cap = PrefixFit(cap=1_600, budget=4_000, pct=0.4, pct_cap=1_600, remaining=3_700)
    return [
        Outcome(entry("constitution:1", "constitution", "Never commit secrets", 40), 1, Fate.INCLUDED, Reason.ALWAYS),
        Outcome(
            entry("tasks:1", "tasks", "Implement hook scoring for the agent", 120),
            2,
            Fate.INCLUDED,
            Reason.FITS,
            cap._replace(used_before=0, needs=120),
        ),
        Outcome(
            entry("tasks:2", "tasks", "Fix budget allocation in ctx agent", 1_400),
            2,
            Fate.INCLUDED,
            Reason.FITS,
            cap._replace(used_before=120, needs=1_400),
        ),
        Outcome(
            entry("tasks:3", "tasks", "Write the release notes for 0.9", 300),
            2,
            Fate.DROPPED,
            Reason.OVER_CAP,
            cap._replace(used_before=1_520, needs=300),
        ),
        Outcome(
            entry("tasks:4", "tasks", "Triage open issues", 80),
            2,
            Fate.DROPPED,
            Reason.AFTER_MISFIT,
            cap._replace(used_before=1_520, needs=80),
            blocked_by="tasks:3",
        ),
        Outcome(
            entry("conventions:1", "conventions", "Use tabs, not spaces, in Go files", 30),
            3,
            Fate.INCLUDED,
            Reason.FITS,
            PrefixFit(cap=800, used_before=0, needs=30),
        ),
        Outcome(
            entry("decisions:1", "decisions", "Use SQLite for the memory store", 420, date="2026-11-18"),
            4,
            Fate.INCLUDED,
            Reason.FULL,
            ShareFit(rank=1, needs=420, share=1_000, full_limit=800, used_before=0),
            score(3, 1.0, 0.67, 1.67, 1),
        ),
        Outcome(
            entry("decisions:2", "decisions", "Token budgets are per tier, not global", 610, date="2026-10-02"),
            4,
            Fate.SUMMARIZED,
            Reason.OVER_FULL_LIMIT,
            ShareFit(rank=2, needs=610, share=1_000, full_limit=800, used_before=420, title_tokens=12),
            score(50, 0.4, 0.33, 0.73, 2),
        ),
        Outcome(
            entry("decisions:3", "decisions", "Drop the YAML config", 90, date="2025-01-01", superseded=True),
            4,
            Fate.DROPPED,
            Reason.SUPERSEDED,
            ShareFit(rank=3, needs=90, share=1_000),
            score(689, 0.2, 0.0, 0.0, 3),
        ),
        Outcome(
            entry(
                "memories:7",
                "memories",
                "Flaky test: retry the socket bind",
                150,
                importance=0.9,
                usage=0.35,
                date="2026-11-20",
            ),
            5,
            Fate.INCLUDED,
            Reason.FULL,
            ShareFit(rank=1, needs=150, share=700, full_limit=560, used_before=0),
            score(1, 1.0, 0.0, 1.0, 1, importance=0.9, usage=0.35),
        ),
        Outcome(
            entry(
                "learnings:1",
                "learnings",
                "[bold red]x[/] and \x1b[31mred\x1b[0m titles stay literal",
                60,
                date="2026-09-01",
            ),
            5,
            Fate.SUMMARIZED,
            Reason.OVER_FULL_LIMIT,
            ShareFit(rank=2, needs=60, share=700, full_limit=560, used_before=520, title_tokens=9),
            score(81, 0.4, 0.0, 0.4, 2),
        ),
        Outcome(
            entry("steering:1", "steering", "Always answer in English", 25),
            6,
            Fate.DROPPED,
            Reason.NOT_REACHED,
            PrefixFit(remaining=0),
        ),
    ]


def sample_tiers() -> list[Bucket]:
    return [
        Bucket(1, TIER_NAMES[1], None, 310),
        Bucket(2, TIER_NAMES[2], 1_600, 1_640, overrun=40),
        Bucket(3, TIER_NAMES[3], 800, 30),
        Bucket(4, TIER_NAMES[4], 1_000, 420, summarized=12, full_limit=800, unbudgeted=12),
        Bucket(5, TIER_NAMES[5], 700, 150, summarized=9, full_limit=560, unbudgeted=9),
        Bucket(6, TIER_NAMES[6], 0, 0, reached=False),
    ]


_WORDS = [
    "agent",
    "budget",
    "cache",
    "decision",
    "entry",
    "fate",
    "hook",
    "index",
    "journal",
    "kernel",
    "ledger",
    "memory",
    "packet",
    "query",
    "reader",
    "score",
    "session",
    "task",
    "tier",
    "token",
    "window",
]
_SECTIONS = ("tasks", "conventions", "decisions", "learnings", "memories", "steering")


def many_outcomes(n: int, seed: int = 7, budget_shift: int = 0) -> list[Outcome]:
    """`n` synthetic outcomes; `budget_shift` changes fates as a new budget would."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        section = _SECTIONS[i % len(_SECTIONS)]
        title = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 9)))
        tokens = rng.randint(10, 900)
        cut = (i * 7919 + budget_shift) % 100
        fate = Fate.INCLUDED if cut < 40 else Fate.SUMMARIZED if cut < 60 else Fate.DROPPED
        reason = {Fate.INCLUDED: Reason.FULL, Fate.SUMMARIZED: Reason.OVER_FULL_LIMIT, Fate.DROPPED: Reason.NO_SHARE}[
            fate
        ]
        memory = section == "memories"
        e = entry(
            f"{section}:{i}",
            section,
            title,
            tokens,
            importance=round(rng.random(), 2) if memory else None,
            usage=round(rng.random(), 2) if memory else None,
        )
        s = score(
            rng.randint(0, 400),
            rng.choice((1.0, 0.7, 0.4, 0.2)),
            round(rng.random(), 2),
            round(rng.random() * 2, 2),
            i + 1,
        )
        out.append(
            Outcome(
                e, 4, fate, reason, ShareFit(rank=i + 1, needs=tokens, share=5000, full_limit=4000, used_before=i), s
            )
        )
    return out
