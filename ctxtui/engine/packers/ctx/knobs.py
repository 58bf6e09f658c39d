"""The settings of a ctx packet besides the budget: which exist for each version, their values, their sources.

ctx reads them from `.ctxrc`; the tuning loop lets a user override them
(`--set KEY=VALUE`, the TUI) and save them back. Only what a version honours
is a knob of that version: 0.8.1 reads `task_budget_pct` and
`convention_budget_pct` (clamped to [0, 1], `rc/rc.go:689,706`) and `tool`
(the steering filter, `rc.go:498`); 0.8.0 reads none of them (its
percentages are fixed at 0.40 / 0.20); the MCP packet has only a budget.
Every value says where it came from: "flag", ".ctxrc" or "default".
"""

from collections.abc import Mapping
from typing import Any, NamedTuple

from ctxtui.engine.packers.base import Knob
from ctxtui.engine.packers.ctx.budget import DEFAULT_CONVENTION_PCT, DEFAULT_TASK_PCT
from ctxtui.engine.sources.ctxrc import CtxConfig, clamp_pct

TASK_PCT = "task_budget_pct"
CONVENTION_PCT = "convention_budget_pct"
TOOL = "tool"
# The .ctxrc keys each packer honours besides `token_budget` (which is the budget itself).
HONOURED: dict[str, tuple[str, ...]] = {
    "ctx-0.8.1": (TASK_PCT, CONVENTION_PCT, TOOL),
    "ctx-0.8.0": (),
    "ctx-mcp": (),
}
BUDGET_KEY = "token_budget"


class CtxKnobs(NamedTuple):
    """What shapes a ctx packet besides the budget, and where each value came from."""

    task_pct: float = DEFAULT_TASK_PCT
    convention_pct: float = DEFAULT_CONVENTION_PCT
    tool: str = ""  # `.ctxrc tool`: steering files listing other tools are left out
    sources: tuple[tuple[str, str], ...] = ()  # (key, "flag" | ".ctxrc"); absent: "default"

    @classmethod
    def from_config(cls, config: CtxConfig) -> "CtxKnobs":
        """The knobs `.ctxrc` sets, ctx's defaults for the rest."""
        sources = []
        if config.task_pct is not None:
            sources.append((TASK_PCT, ".ctxrc"))
        if config.convention_pct is not None:
            sources.append((CONVENTION_PCT, ".ctxrc"))
        if config.tool:
            sources.append((TOOL, ".ctxrc"))
        return cls(
            task_pct=clamp_pct(config.task_pct, DEFAULT_TASK_PCT),
            convention_pct=clamp_pct(config.convention_pct, DEFAULT_CONVENTION_PCT),
            tool=config.tool,
            sources=tuple(sources),
        )

    def source(self, key: str) -> str:
        return dict(self.sources).get(key, "default")

    def value(self, key: str) -> float | str:
        values: dict[str, float | str] = {TASK_PCT: self.task_pct, CONVENTION_PCT: self.convention_pct, TOOL: self.tool}
        return values[key]

    def with_values(self, values: Mapping[str, float | str], source: str = "flag") -> "CtxKnobs":
        """These knobs with some values replaced (each marked as coming from `source`)."""
        fields = {TASK_PCT: "task_pct", CONVENTION_PCT: "convention_pct", TOOL: "tool"}
        # The caller parsed each value for its key (a percentage is a float, the tool a str).
        changes: dict[str, Any] = {fields[key]: value for key, value in values.items()}
        changed = self._replace(**changes)
        sources = dict(self.sources)
        sources.update({key: source for key in values})
        return changed._replace(sources=tuple(sorted(sources.items())))

    def describe(self, packer_name: str) -> tuple[Knob, ...]:
        """The knobs `packer_name` honours, as the UI shows them."""
        specs = {
            TASK_PCT: Knob(
                TASK_PCT,
                "task share",
                "float",
                self.task_pct,
                DEFAULT_TASK_PCT,
                self.source(TASK_PCT),
                minimum=0.0,
                maximum=1.0,
                help="tier 2's cap as a share of the budget (tasks up to this share)",
            ),
            CONVENTION_PCT: Knob(
                CONVENTION_PCT,
                "convention share",
                "float",
                self.convention_pct,
                DEFAULT_CONVENTION_PCT,
                self.source(CONVENTION_PCT),
                minimum=0.0,
                maximum=1.0,
                help="tier 3's cap as a share of the budget (conventions up to this share)",
            ),
            TOOL: Knob(
                TOOL,
                "tool",
                "str",
                self.tool,
                "",
                self.source(TOOL),
                help="steering files that list tools are used only when this tool is among them",
            ),
        }
        return tuple(specs[key] for key in HONOURED.get(packer_name, ()))


class KnobError(ValueError):
    """A `--set` that names no knob of this packer, or a value it cannot take; the message says which."""


def parse_setting(packer_name: str, key: str, text: str) -> float | str:
    """One `--set KEY=VALUE` for `packer_name`, validated."""
    honoured = HONOURED.get(packer_name, ())
    if key not in honoured:
        known = ", ".join((BUDGET_KEY, *honoured))
        raise KnobError(f"{packer_name} has no setting {key!r} (it has: {known})")
    if key in (TASK_PCT, CONVENTION_PCT):
        try:
            value = float(text)
        except ValueError:
            raise KnobError(f"{key} must be a number between 0 and 1, got {text!r}") from None
        if not 0.0 <= value <= 1.0:  # NaN too: it compares false
            raise KnobError(f"{key} must be between 0 and 1, got {text!r}")
        return value
    return text


def parse_settings(packer_name: str, pairs: list[str]) -> dict[str, str | float | int]:
    """`--set KEY=VALUE` options, validated; `token_budget` is the budget (an integer)."""
    values: dict[str, str | float | int] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise KnobError(f"--set takes KEY=VALUE, got {pair!r}")
        if key == BUDGET_KEY:
            try:
                values[key] = int(text.strip())
            except ValueError:
                raise KnobError(f"{BUDGET_KEY} must be an integer, got {text!r}") from None
            continue
        values[key] = parse_setting(packer_name, key, text.strip())
    return values
