"""`.ctxrc` and the budget from the environment, read exactly as ctx reads them.

ctx decodes `.ctxrc` with gopkg.in/yaml.v3 into its `CtxRC` struct
(`rc/load.go:43-92`, `rc/types.go` at ce5a832; `rc/load.go:25-45` at v0.8.0):
a syntax error or a duplicate key applies nothing; a type error skips that
key and keeps the others (the percentages are pointers: a type error still
allocates one, so the share becomes 0); an explicit-tag mismatch stops the
decoding where it is. Each version knows its own keys: 0.8.1 reads
`token_budget`, `task_budget_pct`, `convention_budget_pct`, `tool` and
`steering.dir`; 0.8.0 reads `token_budget`, `context_dir` and
`allow_outside_cwd`. `CTX_TOKEN_BUDGET` counts only when `strconv.Atoi`
parses it and it is above 0. Nothing here is fatal: what ctx ignores is
reported as a problem and ignored.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ctxtui.engine.model import Problem
from ctxtui.engine.record import Frozen
from ctxtui.engine.text.go_strconv import GoNumError, atoi

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from ctxtui.engine.sources.fspath import PathText

DEFAULT_BUDGET = 8000
BUDGET_ENV = "CTX_TOKEN_BUDGET"
_KEYS = {
    "0.8.1": ("token_budget", "task_budget_pct", "convention_budget_pct", "tool", "steering"),
    "0.8.0": ("token_budget", "context_dir", "allow_outside_cwd"),
}


class CtxConfig(Frozen):
    """What `.ctxrc` says to one ctx version."""

    __slots__ = (
        "token_budget",
        "task_pct",
        "convention_pct",
        "tool",
        "steering_dir",
        "context_dir",
        "allow_outside_cwd",
        "problems",
    )

    token_budget: int | None
    task_pct: float | None  # None: not set; NaN stays NaN (clamp does not touch it)
    convention_pct: float | None
    tool: str
    steering_dir: str  # "" → .context/steering
    context_dir: str | None  # 0.8.0 only
    allow_outside_cwd: bool  # 0.8.0 only
    problems: tuple[Problem, ...]

    def __init__(
        self,
        token_budget: int | None = None,
        task_pct: float | None = None,
        convention_pct: float | None = None,
        tool: str = "",
        steering_dir: str = "",
        context_dir: str | None = None,
        allow_outside_cwd: bool = False,
        problems: tuple[Problem, ...] = (),
    ) -> None:
        object.__setattr__(self, "token_budget", token_budget)
        object.__setattr__(self, "task_pct", task_pct)
        object.__setattr__(self, "convention_pct", convention_pct)
        object.__setattr__(self, "tool", tool)
        object.__setattr__(self, "steering_dir", steering_dir)
        object.__setattr__(self, "context_dir", context_dir)
        object.__setattr__(self, "allow_outside_cwd", allow_outside_cwd)
        object.__setattr__(self, "problems", problems)


def read_ctxrc(project: PathText, version: str = "0.8.1") -> CtxConfig:
    """Parse `PROJECT/.ctxrc` for `version` ("0.8.1" or "0.8.0"); a missing file → defaults."""
    try:
        with open(os.path.join(project, ".ctxrc"), "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return CtxConfig()
    except OSError as exc:
        return CtxConfig(problems=(Problem(".ctxrc", f"cannot read: {exc.strerror or exc}; ctx ignores it too"),))
    return parse_ctxrc(raw.decode("utf-8", "surrogateescape"), version)


def parse_ctxrc(text: str, version: str = "0.8.1") -> CtxConfig:
    """`.ctxrc` text as `version` decodes it."""
    from ctxtui.engine.text import yaml_v3 as yaml

    try:
        root = yaml.compose(text)
    except RecursionError:
        return CtxConfig(problems=(Problem(".ctxrc", "is nested too deeply to read: ignored"),))
    except Exception as exc:  # PyYAML's syntax errors: ctx applies nothing either
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "syntax error"
        return CtxConfig(problems=(Problem(".ctxrc", f"invalid YAML, nothing in it applies (as in ctx): {first}"),))
    if root is None:
        return CtxConfig()
    try:
        pairs = yaml.mapping_pairs(root)
    except yaml.YAMLTypeError as exc:
        return CtxConfig(problems=(Problem(".ctxrc", f"{exc}: nothing in it applies (as in ctx)"),))
    known = _KEYS.get(version, _KEYS["0.8.1"])
    values: dict[str, Any] = {}
    problems: list[Problem] = []
    for key, node in pairs:
        if key not in known:
            continue
        try:
            _decode(yaml, key, node, values)
            if key in ("task_budget_pct", "convention_budget_pct") and not _is_number(yaml, node):
                problems.append(
                    Problem(
                        ".ctxrc",
                        f"{key} is not a number: ctx takes it as 0 (its tier gets "
                        "no share; the first item is still forced in)",
                    )
                )
        except yaml.YAMLTypeError as exc:
            problems.append(Problem(".ctxrc", f"{key}: {exc}; ctx skips it and keeps the other settings"))
            if key in ("task_budget_pct", "convention_budget_pct"):
                values[key] = 0.0  # yaml.v3 allocated the pointer before the type error (decode.go:406-415)
        except yaml.YAMLFail as exc:
            problems.append(Problem(".ctxrc", f"{key}: {exc}; ctx stops reading .ctxrc here"))
            break
    return CtxConfig(
        token_budget=values.get("token_budget"),
        task_pct=values.get("task_budget_pct"),
        convention_pct=values.get("convention_budget_pct"),
        tool=values.get("tool", ""),
        steering_dir=values.get("steering_dir", ""),
        context_dir=values.get("context_dir"),
        allow_outside_cwd=values.get("allow_outside_cwd", False),
        problems=tuple(problems),
    )


def _decode(yaml: Any, key: str, node: Any, values: dict[str, Any]) -> None:
    """One top-level key into `values`, with the Go field's type deciding how."""
    if key == "token_budget":
        value = yaml.decode_int(node)
        if value is not yaml.MISSING:
            values[key] = value
    elif key in ("task_budget_pct", "convention_budget_pct"):
        values[key] = yaml.decode_float_ptr(node)
    elif key in ("tool", "context_dir"):
        value = yaml.decode_string(node)
        if value is not yaml.MISSING:
            values[key] = value
    elif key == "allow_outside_cwd":
        value = yaml.decode_bool(node)
        if value is not yaml.MISSING:
            values[key] = value
    elif key == "steering":
        if isinstance(node, yaml.ScalarNode) and yaml.scalar_resolved(node)[0] == "!!null":
            return
        for inner, inner_node in yaml.mapping_pairs(node):
            if inner == "dir":
                value = yaml.decode_string(inner_node)
                if value is not yaml.MISSING:
                    values["steering_dir"] = value


def _is_number(yaml: Any, node: Any) -> bool:
    if not isinstance(node, yaml.ScalarNode):
        return False
    tag, value = yaml.scalar_resolved(node)
    return tag in ("!!int", "!!float", "!!null") and not isinstance(value, bool)


def clamp_pct(value: float | None, default: float) -> float:
    """`rc.TaskBudgetPct()`: unset → the default; else clamped to [0, 1] (`clamp.go:19`), NaN left as NaN."""
    if value is None:
        return default
    if value != value:  # NaN (no `math` on the cold pack path)
        return value
    return min(1.0, max(0.0, value))


def resolve_budget(explicit: int | None, env: Mapping[str, str], config: CtxConfig) -> tuple[int, str, list[Problem]]:
    """The budget to use, where it came from ("flag", "environment", ".ctxrc", "default"), and what was ignored.

    `CTX_TOKEN_BUDGET` is read with `strconv.Atoi` and used only when above 0
    (`rc/load.go:84-89`); anything else is ignored, as ctx ignores it.
    """
    problems: list[Problem] = []
    if explicit is not None:
        return explicit, "flag", problems
    raw = env.get(BUDGET_ENV)
    if raw:
        try:
            value = atoi(raw)
        except GoNumError as exc:
            shown = repr(raw[:40]) if len(raw) <= 40 else f"{raw[:40]!r}… ({len(raw):,} characters)"
            why = (
                "is out of range for a 64-bit integer"
                if exc.reason == "value out of range"
                else "is not a plain whole number"
            )
            problems.append(Problem(BUDGET_ENV, f"{why} ({shown}): ignored, as ctx does"))
        else:
            if value > 0:
                return value, "environment", problems
            problems.append(Problem(BUDGET_ENV, f"is {value}, not above 0: ignored, as ctx does"))
    if config.token_budget is not None:
        return config.token_budget, ".ctxrc", problems
    return DEFAULT_BUDGET, "default", problems
