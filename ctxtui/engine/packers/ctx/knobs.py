"""The settings of a ctx packet besides the budget, and where each value came from.

ctx 0.8.1 reads them from `.ctxrc` (percentages clamped to [0, 1]); the
tuning loop will let a user change them live. Defaults are ctx's.
"""

from __future__ import annotations

from dataclasses import dataclass

from ctxtui.engine.packers.ctx.budget import DEFAULT_CONVENTION_PCT, DEFAULT_TASK_PCT
from ctxtui.engine.sources.ctxrc import CtxConfig


@dataclass(frozen=True, slots=True)
class CtxKnobs:
    """What shapes a ctx packet besides the budget."""

    task_pct: float = DEFAULT_TASK_PCT
    convention_pct: float = DEFAULT_CONVENTION_PCT
    tool: str = ""  # `.ctxrc tool`: steering files listing other tools are left out

    @classmethod
    def from_config(cls, config: CtxConfig) -> CtxKnobs:
        """The knobs `.ctxrc` sets, ctx's defaults for the rest."""
        return cls(
            task_pct=DEFAULT_TASK_PCT if config.task_pct is None else config.task_pct,
            convention_pct=DEFAULT_CONVENTION_PCT if config.convention_pct is None else config.convention_pct,
            tool=config.tool,
        )
