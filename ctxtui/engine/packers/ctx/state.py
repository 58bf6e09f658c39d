"""What one ctx assembly decided, as plain data: the packer writes it, the renderer and explanations read it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class SectionFill:
    """One scored section's share and what its fill did with it."""

    name: str
    share: int
    limit: int  # 80% of the share
    order: list[int]  # indices into CtxPacker.scored, best score first (active entries only)
    # `full` and `used_before` cover order[:stop]: past `stop` nothing fitted what was left of the
    # limit, so every later entry is not full and saw `full_tokens` used (`position` answers for any).
    full: list[bool]  # per position in `order`, up to `stop`
    used_before: list[int]  # full tokens already used when each entry was considered, up to `stop`
    full_tokens: int = 0
    summary_tokens: int = 0
    stop: int = 0  # where the fill stopped looking (len(order) when it looked at every entry)

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


@dataclass(slots=True)
class CtxState:
    """Every number one assembly decided, small enough to compute per slider step."""

    budget: int
    tier1: int
    stopped_after: int | None = None  # tier after which the budget ran out
    task_cap: int = 0
    task_count: int = 0
    task_forced: bool = False
    task_tokens: int = 0
    remaining_before_conventions: int = 0
    convention_cap: int = 0
    convention_count: int = 0
    convention_forced: bool = False
    convention_tokens: int = 0
    remaining_before_scored: int = 0
    sections: list[SectionFill] = field(default_factory=list)
    remaining_before_steering: int = 0
    steering_count: int = 0
    steering_forced: bool = False
    steering_tokens: int = 0
    remaining_before_skill: int = 0
    skill_included: bool = False
    tokens_used: int = 0


@dataclass(frozen=True, slots=True)
class CtxPacket:
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
