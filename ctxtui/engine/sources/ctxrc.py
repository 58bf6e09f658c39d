"""`.ctxrc` and `CTX_TOKEN_BUDGET`, honoured the way ctx honours them.

Budget precedence: an explicit value, then the environment, then `.ctxrc`
`token_budget`, then 8000. The percentages are clamped to [0, 1]. A broken
`.ctxrc` or environment value is reported and ignored, never fatal. This module
only reads: which settings a ctx version honours is the packer's business.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ctxtui.engine.model import Problem

DEFAULT_BUDGET = 8000
BUDGET_ENV = "CTX_TOKEN_BUDGET"


@dataclass(frozen=True, slots=True)
class CtxConfig:
    """What `.ctxrc` says, after validation."""

    token_budget: int | None = None
    task_pct: float | None = None  # None: not set
    convention_pct: float | None = None
    tool: str = ""
    context_dir: str | None = None  # ctx 0.8.0 only
    problems: tuple[Problem, ...] = field(default_factory=tuple)


def read_ctxrc(project: Path) -> CtxConfig:
    """Parse `PROJECT/.ctxrc` (YAML). Missing file → defaults."""
    path = project / ".ctxrc"
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return CtxConfig()
    except OSError as exc:
        return CtxConfig(problems=(Problem(".ctxrc", f"cannot read: {exc.strerror or exc}"),))
    return parse_ctxrc(raw.decode("utf-8", "replace"))


def parse_ctxrc(text: str) -> CtxConfig:
    """`.ctxrc` text as ctx reads it."""
    import yaml  # lazily: most projects have no .ctxrc, and the import is slow

    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "parse error"
        return CtxConfig(problems=(Problem(".ctxrc", f"invalid YAML, ignored: {first}"),))
    if not isinstance(data, dict):
        return CtxConfig(problems=(Problem(".ctxrc", "is not a mapping, ignored"),))

    problems: list[Problem] = []
    budget = data.get("token_budget")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)):
        problems.append(Problem(".ctxrc", f"token_budget must be an integer, got {budget!r}: ignored"))
        budget = None

    def pct(key: str) -> float | None:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            problems.append(Problem(".ctxrc", f"{key} must be a number, got {value!r}: ignored"))
            return None
        return min(1.0, max(0.0, float(value)))

    tool = data.get("tool")
    return CtxConfig(
        token_budget=budget,
        task_pct=pct("task_budget_pct"),
        convention_pct=pct("convention_budget_pct"),
        tool=str(tool) if isinstance(tool, (str, int, float)) and not isinstance(tool, bool) else "",
        context_dir=data.get("context_dir") if isinstance(data.get("context_dir"), str) else None,
        problems=tuple(problems),
    )


def resolve_budget(explicit: int | None, env: Mapping[str, str], config: CtxConfig) -> tuple[int, str, list[Problem]]:
    """The budget to use, where it came from, and any ignored setting."""
    problems: list[Problem] = []
    if explicit is not None:
        return explicit, "flag", problems
    raw = env.get(BUDGET_ENV)
    if raw is not None and raw.strip():
        try:
            return int(raw.strip()), "environment", problems
        except ValueError:
            problems.append(Problem(BUDGET_ENV, f"is not an integer ({raw!r}): ignored"))
    if config.token_budget is not None:
        return config.token_budget, ".ctxrc", problems
    return DEFAULT_BUDGET, "default", problems
