"""Each packer's score components: the table's score columns and the why panel's "Score" lines.

The TUI never knows which packer it shows: it asks this module which numbers
ranked an entry, under which short header, with which words of help. ctx
scores decisions and learnings by recency and task relevance (and, for
database memories, importance and usage); Shabka fuses seven signals; Cortex
multiplies five factors by an intent weight and a diversity penalty; nous
cuts sections by budget; the MCP packet does not score at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ctxtui.engine.model import Outcome, ScoreBreakdown
from ctxtui.engine.packers.cortex.outcomes import CortexNumbers
from ctxtui.engine.reason_numbers import SectionFit

_OWN: set[Callable[[Outcome], Any]] = set()  # the value functions that read the entry alone (`_extra`)

# Shabka's fusion weights (`rank.rs`), as the help texts quote them. Not imported from the Shabka
# packer: that would load numpy for every ctx user who opens the help screen.
SHABKA_WEIGHTS = (0.25, 0.15, 0.15, 0.15, 0.10, 0.05, 0.15)


@dataclass(frozen=True, slots=True)
class Component:
    """One number that ranked an entry: its column header, width, how to read it, and what it means."""

    id: str
    header: str
    width: int
    value: Callable[[Outcome], Any]  # None: the entry has no such number
    label: str  # in words, for the why panel and the help screen
    help: str
    fmt: str = "{:.2f}"
    # Hidden when no entry has it (ctx: importance and usage, from a database). An optional value must be
    # the entry's own: the table asks it of the entries, without building outcomes (rows.optional_present).
    optional: bool = False

    @property
    def own(self) -> bool:
        """The value is the entry's own (`Entry.extra`): the same at every budget, so the table sorts by it
        without the plan's outcomes."""
        return self.value in _OWN

    def text(self, outcome: Outcome) -> str:
        value = self.value(outcome)
        if value is None:
            return ""
        return self.fmt.format(value) if isinstance(value, (int, float)) else str(value)


def _ctx(field: str) -> Callable[[Outcome], Any]:
    def value(outcome: Outcome) -> Any:
        score = outcome.score
        if isinstance(score, ScoreBreakdown):
            found = getattr(score, field)
            if found is None and field in ("importance", "usage"):
                return getattr(outcome.entry, field)
            return found
        if field in ("importance", "usage"):
            return getattr(outcome.entry, field)
        return None

    return value


def _extra(name: str) -> Callable[[Outcome], Any]:
    """A number the packer put on the entry itself (Shabka's signals, nous's logged ranks)."""

    def value(outcome: Outcome) -> Any:
        for key, found in outcome.entry.extra:
            if key == name:
                return found
        return None

    _OWN.add(value)
    return value


def _cortex(field: str) -> Callable[[Outcome], Any]:
    def value(outcome: Outcome) -> Any:
        numbers = outcome.numbers
        return getattr(numbers, field) if isinstance(numbers, CortexNumbers) else None

    return value


def _nous(field: str) -> Callable[[Outcome], Any]:
    def value(outcome: Outcome) -> Any:
        numbers = outcome.numbers
        return getattr(numbers, field) if isinstance(numbers, SectionFit) else None

    return value


CTX = (
    Component(
        "age",
        "age",
        5,
        _ctx("age_days"),
        "age",
        "days since the entry's date (ctx counts whole days in the local time zone)",
        "{}d",
    ),
    Component(
        "recency",
        "rec",
        4,
        _ctx("recency"),
        "recency",
        "1.0 within a week, 0.7 within a month, 0.4 within three months, else 0.2",
    ),
    Component(
        "relevance",
        "rel",
        4,
        _ctx("relevance"),
        "relevance",
        "how many of the packet's task keywords the entry contains, divided by 3, at most 1.0",
    ),
    Component(
        "importance",
        "imp",
        4,
        _ctx("importance"),
        "importance",
        "a database memory's importance, 0 to 1; its score is multiplied by 0.5 + importance",
        optional=True,
    ),
    Component(
        "usage",
        "use",
        4,
        _ctx("usage"),
        "usage",
        "a database memory's usage boost, 0.5 to 1.5 (1.0 until it was retrieved twice)",
        optional=True,
    ),
    Component(
        "score",
        "score",
        5,
        _ctx("total"),
        "score",
        "recency + relevance (× weight for memories); 0 when superseded. Entries are ranked by it, ties in file order",
    ),
)
SHABKA = (
    Component(
        "similarity",
        "sim",
        4,
        _extra("similarity"),
        "similarity",
        f"1 / (1 + L2 distance) to the query's hash embedding; weight {SHABKA_WEIGHTS[0]}",
    ),
    Component(
        "keyword",
        "kw",
        4,
        _extra("keyword"),
        "keyword",
        f"query words found in title, content and tags (fuzzy matches count 0.6 or 0.3); weight {SHABKA_WEIGHTS[1]}",
    ),
    Component(
        "recency",
        "rec",
        4,
        _extra("recency"),
        "recency",
        f"halves every 7 days since created; weight {SHABKA_WEIGHTS[2]}",
    ),
    Component(
        "importance",
        "imp",
        4,
        _extra("importance"),
        "importance",
        f"the memory's importance; weight {SHABKA_WEIGHTS[3]}",
    ),
    Component(
        "access",
        "acc",
        4,
        _extra("access"),
        "access",
        f"how recently it was read compared with its age; weight {SHABKA_WEIGHTS[4]}",
    ),
    Component(
        "graph", "graph", 5, _extra("graph"), "graph", f"outgoing relations / 5, at most 1; weight {SHABKA_WEIGHTS[5]}"
    ),
    Component(
        "trust",
        "trust",
        5,
        _extra("trust"),
        "trust",
        f"verification, source, contradictions, quality; weight {SHABKA_WEIGHTS[6]}",
    ),
    Component(
        "score",
        "score",
        5,
        _extra("score"),
        "score",
        "the weighted sum: the pack takes memories by it, best first, until one does not fit",
    ),
)
CORTEX = (
    Component("confidence", "conf", 4, _cortex("confidence"), "confidence", "the memory's confidence; factor 0.30"),
    Component(
        "importance",
        "imp",
        4,
        _cortex("importance"),
        "importance",
        "low 0.2, normal 0.5, high 0.8, critical 1.0; factor 0.20",
    ),
    Component("recency", "rec", 4, _cortex("recency"), "recency", "exp(−days / 30) since last access; factor 0.15"),
    Component("access", "acc", 4, _cortex("access"), "access", "min(1, log10(accesses + 1) / 2); factor 0.10"),
    Component(
        "topic",
        "topic",
        5,
        _cortex("topic"),
        "topic",
        "word overlap (Jaccard) of the focus with the memory's summary and topic; factor 0.25",
    ),
    Component(
        "intent",
        "×int",
        4,
        _cortex("intent_weight"),
        "intent weight",
        "the intent's weight for this memory type (Cortex's 15 × 23 table)",
    ),
    Component("diversity", "div", 4, _cortex("diversity"), "diversity", "0.9 per earlier memory of the same type"),
    Component(
        "score",
        "score",
        5,
        _cortex("score"),
        "score",
        "factors (capped at 1) × intent weight × diversity: the fit takes memories by it",
    ),
)
NOUS = (
    Component(
        "entry_score",
        "score",
        5,
        _extra("entry_score"),
        "retrieval score",
        "the score nous's retrieval gave the candidate when it entered (from the turn's log)",
        "{:.2f}",
    ),
    Component(
        "final_rank",
        "rank",
        4,
        _extra("final_rank"),
        "final rank",
        "its place after nous's reranking and gates (from the turn's log)",
        "{}",
    ),
    Component(
        "budget",
        "budget",
        6,
        _nous("budget"),
        "section budget",
        "the section's budget in tokens, after the model's scale",
        "{:,}",
    ),
    Component(
        "kept",
        "kept",
        6,
        _nous("kept"),
        "characters kept",
        "how many characters of the section survive its mid-text cut (blank: no cut)",
        "{:,}",
    ),
)
BY_PACKER: dict[str, tuple[Component, ...]] = {
    "ctx-0.8.1": CTX,
    "ctx-0.8.0": CTX,
    "ctx-mcp": (),
    "shabka": SHABKA,
    "shabka-mcp": SHABKA,
    "cortex": CORTEX,
    "nous": NOUS,
}


def components_for(packer_name: str) -> tuple[Component, ...]:
    """The score components a packer's entries carry, in column order."""
    return BY_PACKER.get(packer_name, ())


def matched_keywords(outcome: Outcome) -> tuple[str, ...]:
    """The task keywords a ctx entry matched (highlighted in its text); () for other packers."""
    score = outcome.score
    return score.matched_keywords if isinstance(score, ScoreBreakdown) else ()


def score_lines(packer_name: str, outcome: Outcome) -> list[tuple[str, str]]:
    """(label, value) for each component the entry has: the why panel's "Score" section."""
    lines = []
    for component in components_for(packer_name):
        text = component.text(outcome)
        if text:
            lines.append((component.label, text))
    return lines


__all__ = ["BY_PACKER", "Component", "components_for", "matched_keywords", "score_lines"]
