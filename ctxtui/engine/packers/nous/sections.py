"""nous's memory sections as the rebuild holds them: what each is, its items' texts, and its cut at a budget.

A section is cut by one of four rules (notes/nous.md §2.4): mid-text (the
joined text cut at budget × 4 − 3 characters, then "..."), whole blocks
(Recommended Procedures: the first block always, then while the running
total fits), one line (the critic's pointer, context.py:1418-1442: shown whole
while its budget is above 0) or none (Recent Conversations has no budget). The positions
and running costs are computed once per section, so a cut at any budget,
and the next budget at which a cut moves, are a bisection.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from ctxtui.engine.packers.nous import formats as f

TEMPORAL_LEG = "context_episodes_temporal"
MID, BLOCKS, NONE, LINE = "mid-text", "blocks", "none", "line"


@dataclass(frozen=True, slots=True)
class SectionSpec:
    """One of nous's memory sections: its heading, priority, budget field, cut rule and token_breakdown key."""

    key: str
    label: str
    priority: int
    budget_field: str | None
    rule: str
    log_key: str
    mem_type: str


DECISIONS = SectionSpec("decisions", "Related Decisions", 5, "decisions", MID, "related_decisions", "decision")
FACTS = SectionSpec("facts", "Relevant Facts", 6, "facts", MID, "relevant_facts", "fact")
RECOMMENDED = SectionSpec(
    "procedures", "Recommended Procedures", 7, "procedures", BLOCKS, "recommended_procedures", "procedure"
)
KNOWN = SectionSpec("procedures", "Known Procedures", 7, "procedures", MID, "known_procedures", "procedure")
# The passive path with the Procedure Catalog rendered and critic picks: one pointer line (context.py:1418-1442).
POINTER = SectionSpec(
    "procedures", "Recommended Procedures", 7, "procedures", LINE, "recommended_procedures", "procedure"
)
RECENT = SectionSpec("recent", "Recent Conversations", 7, None, NONE, "recent_conversations", "episode")
EPISODES = SectionSpec("episodes", "Past Episodes", 8, "episodes", MID, "past_episodes", "episode")


@dataclass(slots=True)
class Section:
    """One rebuilt section: its items in order, their texts and where each sits in the joined text."""

    spec: SectionSpec
    items: list[int] = field(default_factory=list)  # candidate indexes, in section order
    texts: list[str | None] = field(default_factory=list)  # None: prints nothing (abandoned episode)
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    joined: str = ""
    costs: list[int] = field(default_factory=list)  # blocks: estimate per block
    cum_costs: list[int] = field(default_factory=list)  # blocks: running sum of costs
    boundaries: list[int] = field(default_factory=list)  # mid-text: keep values where a fate changes, sorted

    def finish(self) -> None:
        """Join the texts as nous does and note where each item sits (and, for blocks, what each costs)."""
        sep = "\n\n" if self.spec.rule == BLOCKS else "\n"
        pos = 0
        shown: list[str] = []
        for text in self.texts:
            if text is None:
                self.starts.append(pos)
                self.ends.append(pos)
                continue
            if shown:
                pos += len(sep)
            self.starts.append(pos)
            pos += len(text)
            self.ends.append(pos)
            shown.append(text)
        self.joined = sep.join(shown)
        if self.spec.rule == BLOCKS:
            running = 0
            for text in self.texts:
                cost = f.estimate_tokens(text or "")
                self.costs.append(cost)
                running += cost
                self.cum_costs.append(running)
        elif self.spec.rule == MID:
            points = {s + 1 for s, e in zip(self.starts, self.ends, strict=True) if e > s}
            points |= {e for s, e in zip(self.starts, self.ends, strict=True) if e > s}
            self.boundaries = sorted(points)


@dataclass(frozen=True, slots=True)
class SectionState:
    """One section at one budget."""

    budget: int  # tokens as nous cuts (scaled); 0: off
    on: bool
    keep: int | None = None  # mid-text: characters kept before "..." (None: no cut)
    shown: int = 0  # blocks: how many are shown
    tokens: int = 0  # ContextSection.token_estimate of the cut text (0 when off or empty)


@dataclass(frozen=True, slots=True)
class NousState:
    sections: tuple[SectionState, ...]


@dataclass(frozen=True, slots=True)
class SectionCheck:
    """A rebuilt section against what the turn's context_log row recorded for it."""

    label: str
    log_key: str
    rebuilt: int  # len(text.strip()) // 4 of the rebuild at the turn's own budgets
    logged: int | None  # token_breakdown[log_key]; None when the row has no such key

    @property
    def agrees(self) -> bool:
        return self.logged is not None and self.logged == self.rebuilt


def cut(section: Section, eff: int) -> SectionState:
    """The section at section budget `eff` (scaled tokens; 0: off)."""
    rule = section.spec.rule
    if rule == NONE:
        return SectionState(0, True, tokens=f.estimate_tokens(section.joined))
    if eff <= 0:
        return SectionState(0, False)
    if rule == LINE:
        return SectionState(eff, True, tokens=f.estimate_tokens(section.joined))
    if rule == MID:
        keep = f.cut_point(len(section.joined), eff)
        tokens = (
            f.estimate_tokens(section.joined) if keep is None else f.estimate_tokens(section.joined[:keep] + f.ELLIPSIS)
        )
        return SectionState(eff, True, keep=keep, tokens=tokens)
    # Whole blocks: the first always, then while the running total fits (context.py:1212-1222).
    shown = max(1, bisect_right(section.cum_costs, eff))
    shown = min(shown, len(section.items))
    text_len = section.ends[shown - 1] if shown else 0
    return SectionState(eff, True, shown=shown, tokens=f.estimate_tokens(section.joined[:text_len]))


def next_eff(section: Section, eff: int) -> int | None:
    """The smallest section budget above `eff` at which a fate in `section` changes; None: never."""
    if eff <= 0:
        return 1
    if section.spec.rule == LINE:
        return None
    if section.spec.rule == BLOCKS:
        targets = section.cum_costs[bisect_right(section.cum_costs, eff) :][:1]
        if section.costs[0] > eff:  # the forced first block becomes one that fits
            targets.append(section.costs[0])
        return min(targets) if targets else None
    text_len = len(section.joined)
    if eff * f.CHARS_PER_TOKEN >= text_len:
        return None
    keep = eff * f.CHARS_PER_TOKEN - 3
    targets = [-(-text_len // f.CHARS_PER_TOKEN)]  # no cut at all
    i = bisect_right(section.boundaries, keep)
    if i < len(section.boundaries):
        targets.append(-(-(section.boundaries[i] + 3) // f.CHARS_PER_TOKEN))
    later = [t for t in targets if t > eff]
    return min(later) if later else None


def text_at(section: Section, state: SectionState) -> str | None:
    """The section's content in that state (None: off)."""
    if not state.on:
        return None
    if section.spec.rule == MID:
        return section.joined if state.keep is None else section.joined[: state.keep] + f.ELLIPSIS
    if section.spec.rule == BLOCKS:
        return section.joined[: section.ends[state.shown - 1]] if state.shown else ""
    return section.joined
