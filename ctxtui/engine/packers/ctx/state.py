"""What one ctx assembly decided, as plain data: the packer writes it, the renderer and explanations read it."""

from __future__ import annotations

from ctxtui.engine.record import Frozen, Record


class SectionFill(Record):
    """One scored section's share and what its fill did with it."""

    __slots__ = ("name", "share", "limit", "order", "full", "used_before", "full_tokens", "summary_tokens", "stop")

    name: str
    share: int
    limit: int  # 80% of the share
    order: list[int]  # indices into CtxPacker.scored, best score first (active entries only)
    # `full` and `used_before` cover order[:stop]: past `stop` nothing fitted what was left of the
    # limit, so every later entry is not full and saw `full_tokens` used (`position` answers for any).
    full: list[bool]  # per position in `order`, up to `stop`
    used_before: list[int]  # full tokens already used when each entry was considered, up to `stop`
    full_tokens: int
    summary_tokens: int
    stop: int  # where the fill stopped looking (len(order) when it looked at every entry)

    def __init__(
        self,
        name: str,
        share: int,
        limit: int,
        order: list[int],
        full: list[bool],
        used_before: list[int],
        full_tokens: int = 0,
        summary_tokens: int = 0,
        stop: int = 0,
    ) -> None:
        self.name = name
        self.share = share
        self.limit = limit
        self.order = order
        self.full = full
        self.used_before = used_before
        self.full_tokens = full_tokens
        self.summary_tokens = summary_tokens
        self.stop = stop

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


class CtxState(Record):
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

    budget: int
    tier1: int
    stopped_after: int | None  # tier after which the budget ran out
    task_cap: int
    task_count: int
    task_forced: bool
    task_tokens: int
    remaining_before_conventions: int
    convention_cap: int
    convention_count: int
    convention_forced: bool
    convention_tokens: int
    remaining_before_scored: int
    sections: list[SectionFill]
    remaining_before_steering: int
    steering_count: int
    steering_forced: bool
    steering_tokens: int
    remaining_before_skill: int
    skill_included: bool
    tokens_used: int

    def __init__(
        self,
        budget: int,
        tier1: int,
        stopped_after: int | None = None,
        task_cap: int = 0,
        task_count: int = 0,
        task_forced: bool = False,
        task_tokens: int = 0,
        remaining_before_conventions: int = 0,
        convention_cap: int = 0,
        convention_count: int = 0,
        convention_forced: bool = False,
        convention_tokens: int = 0,
        remaining_before_scored: int = 0,
        sections: list[SectionFill] | None = None,
        remaining_before_steering: int = 0,
        steering_count: int = 0,
        steering_forced: bool = False,
        steering_tokens: int = 0,
        remaining_before_skill: int = 0,
        skill_included: bool = False,
        tokens_used: int = 0,
    ) -> None:
        self.budget = budget
        self.tier1 = tier1
        self.stopped_after = stopped_after
        self.task_cap = task_cap
        self.task_count = task_count
        self.task_forced = task_forced
        self.task_tokens = task_tokens
        self.remaining_before_conventions = remaining_before_conventions
        self.convention_cap = convention_cap
        self.convention_count = convention_count
        self.convention_forced = convention_forced
        self.convention_tokens = convention_tokens
        self.remaining_before_scored = remaining_before_scored
        self.sections = list() if sections is None else sections
        self.remaining_before_steering = remaining_before_steering
        self.steering_count = steering_count
        self.steering_forced = steering_forced
        self.steering_tokens = steering_tokens
        self.remaining_before_skill = remaining_before_skill
        self.skill_included = skill_included
        self.tokens_used = tokens_used


class CtxPacket(Frozen):
    """What ctx prints, list by list, for one plan (the renderer's input)."""

    __slots__ = (
        "budget",
        "tokens_used",
        "generated",
        "read_order",
        "constitution",
        "tasks",
        "conventions",
        "decisions",
        "learnings",
        "memories",
        "summaries",
        "steering",
        "skill",
        "instruction",
    )

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

    def __init__(
        self,
        budget: int,
        tokens_used: int,
        generated: str,
        read_order: list[str],
        constitution: list[str] | None,
        tasks: list[str],
        conventions: list[str],
        decisions: list[str],
        learnings: list[str],
        memories: list[str],
        summaries: list[str],
        steering: list[str],
        skill: str,
        instruction: str,
    ) -> None:
        object.__setattr__(self, "budget", budget)
        object.__setattr__(self, "tokens_used", tokens_used)
        object.__setattr__(self, "generated", generated)
        object.__setattr__(self, "read_order", read_order)
        object.__setattr__(self, "constitution", constitution)
        object.__setattr__(self, "tasks", tasks)
        object.__setattr__(self, "conventions", conventions)
        object.__setattr__(self, "decisions", decisions)
        object.__setattr__(self, "learnings", learnings)
        object.__setattr__(self, "memories", memories)
        object.__setattr__(self, "summaries", summaries)
        object.__setattr__(self, "steering", steering)
        object.__setattr__(self, "skill", skill)
        object.__setattr__(self, "instruction", instruction)
