"""What one ctx assembly decided, as plain data: the packer writes it, the renderer and explanations read it.

`SectionFill` and `CtxState` are filled in as the assembly walks the tiers:
plain classes with `__slots__`, not dataclasses, which a cold `pack` would
pay ~6-30 ms to import (docs/performance.md, "The engine's records").
"""

from typing import NamedTuple


class SectionFill:
    """One scored section's share and what its fill did with it."""

    __slots__ = ("name", "share", "limit", "order", "full", "used_before", "full_tokens", "summary_tokens", "stop")

    def __init__(self, name: str, share: int, limit: int, order: list[int]) -> None:
        self.name = name
        self.share = share
        self.limit = limit  # 80% of the share
        self.order = order  # indices into CtxPacker.scored, best score first (active entries only)
        # `full` and `used_before` cover order[:stop]: past `stop` nothing fitted what was left of the
        # limit, so every later entry is not full and saw `full_tokens` used (`position` answers for any).
        self.full: list[bool] = []  # per position in `order`, up to `stop`
        self.used_before: list[int] = []  # full tokens already used when each entry was considered, up to `stop`
        self.full_tokens = 0
        self.summary_tokens = 0
        self.stop = 0  # where the fill stopped looking (len(order) when it looked at every entry)

    def position(self, pos: int) -> tuple[bool, int]:
        """(full, tokens used before it) for the entry at `pos` in `order`."""
        if pos < self.stop:
            return self.full[pos], self.used_before[pos]
        return False, self.full_tokens

    def fulls(self) -> list[bool]:
        """`full` for every position in `order`."""
        return self.full + [False] * (len(self.order) - self.stop)

    def befores(self) -> list[int]:
        """`used_before` for every position in `order`."""
        return self.used_before + [self.full_tokens] * (len(self.order) - self.stop)


class CtxState:
    """Every number one assembly decided, small enough to compute per slider step."""

    __slots__ = (
        "budget",
        "tier1",
        "stopped_after",
        "task_cap",
        "task_count",
        "task_forced",
        "task_tokens",
        "remaining_before_conventions",
        "convention_cap",
        "convention_count",
        "convention_forced",
        "convention_tokens",
        "remaining_before_scored",
        "sections",
        "remaining_before_steering",
        "steering_count",
        "steering_forced",
        "steering_tokens",
        "remaining_before_skill",
        "skill_included",
        "tokens_used",
    )

    def __init__(self, budget: int, tier1: int) -> None:
        self.budget = budget
        self.tier1 = tier1
        self.stopped_after: int | None = None  # tier after which the budget ran out
        self.task_cap = 0
        self.task_count = 0
        self.task_forced = False
        self.task_tokens = 0
        self.remaining_before_conventions = 0
        self.convention_cap = 0
        self.convention_count = 0
        self.convention_forced = False
        self.convention_tokens = 0
        self.remaining_before_scored = 0
        self.sections: list[SectionFill] = []
        self.remaining_before_steering = 0
        self.steering_count = 0
        self.steering_forced = False
        self.steering_tokens = 0
        self.remaining_before_skill = 0
        self.skill_included = False
        self.tokens_used = 0


class CtxPacket(NamedTuple):
    """What ctx prints, list by list, for one plan (the renderer's input)."""

    budget: int
    tokens_used: int
    generated: str  # RFC 3339 UTC, as printed
    read_order: list[str]
    constitution: list[str] | None
    tasks: list[str]
    conventions: list[str]
    decisions: list[str]
    learnings: list[str]
    memories: list[str]
    summaries: list[str]
    steering: list[str]
    skill: str  # tier 7, "" when none
    instruction: str
