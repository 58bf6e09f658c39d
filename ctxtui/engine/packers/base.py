"""What every packer offers: candidates and knobs in, a `Plan` per budget out, and its renderer.

A packer reproduces one tool's packet-building exactly (ctx agent 0.8.1,
0.8.0, ctx's MCP resource, Shabka, Cortex, nous). It is built once per load
from parsed sources and settled knobs, then asked for a plan at any budget —
that is the slider path, so `plan` must be cheap. Everything else is derived
from a plan: the outcome of every candidate, the buckets (the bars), the text
in the tool's own formats.

Explanations that span budgets (thresholds, sweeps, diffs, advice) need only
`plan`, `candidates`, `fate_vector` and `next_change`, so they work for every
packer; `next_change` is where a packer can say which budgets are worth
looking at (the default looks at every one).
"""

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

from ctxtui.engine.model import FATE_VALUES, Bucket, Entry, Outcome, Plan

# A plan as one byte per candidate (in `candidates()` order): compact enough to
# compare thousands of budgets.
DROPPED, SUMMARIZED, INCLUDED = 0, 1, 2


class Knob(NamedTuple):
    """One setting of a packer besides the budget, as the user can change it (`--set KEY=VALUE`, the TUI)."""

    key: str  # as `--set` spells it, e.g. "task_budget_pct", "intent", "query"
    label: str  # in words, for the screen
    kind: str  # "int", "float", "str", "choice" or "bool"
    value: Any  # the value in use
    default: Any  # the tool's own default
    source: str = "default"  # where `value` came from: "flag", "environment", ".ctxrc", "default", ...
    choices: tuple[Any, ...] = ()  # for "choice"
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""

    @property
    def is_share(self) -> bool:
        """A part of the budget (ctx's `*_pct`): the screen shows it as a percentage, and a typed `30%` is 0.3."""
        return self.kind == "float" and self.key.endswith("_pct")

    def parse(self, text: str) -> Any:
        """A value typed for this knob, checked (raises ValueError with words saying what it takes).

        A list knob (Shabka's tags) takes comma-separated values; an empty
        text means "none" for a knob whose default is None.
        """
        text = text.strip()
        if isinstance(self.default, tuple) or isinstance(self.value, tuple):
            return tuple(part.strip() for part in text.split(",") if part.strip())
        if self.kind == "str":
            return None if text == "" and self.default is None else text
        if self.kind == "choice":
            if text == "" and self.default is None:
                return None
            if self.choices and text not in self.choices:
                raise ValueError(f"{self.label}: one of {', '.join(str(c) for c in self.choices)}")
            return text
        if self.kind == "bool":
            lowered = text.lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"{self.label}: yes or no")
        percent = self.is_share and text.endswith("%")
        try:
            value: float = int(text) if self.kind == "int" else float(text[:-1] if percent else text)
        except ValueError:
            what = (
                "a whole number"
                if self.kind == "int"
                else ("a share such as 30% or 0.3" if self.is_share else "a number")
            )
            raise ValueError(f"{self.label}: {what}, not {text!r}") from None
        if percent:
            value /= 100
        elif self.is_share and value.is_integer() and 1 < value <= 100:  # "25" where "20%" shows: meant as 25 %
            raise ValueError(
                f"{self.label}: {text} would be {value:g} times the budget: type {text}% (or {value / 100:g})"
            )
        if value != value or (self.minimum is not None and value < self.minimum):
            raise ValueError(f"{self.label}: at least {self._shown(self.minimum)}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"{self.label}: at most {self._shown(self.maximum)}")
        return value

    def _shown(self, limit: float | None) -> str:
        """A limit as the screen writes values: a share as a percentage."""
        return "?" if limit is None else (f"{limit:.0%}" if self.is_share else f"{limit:g}")


class Packer(ABC):
    """One tool's packet algorithm, bound to one load's candidates and knobs."""

    name: str  # as `--packer` spells it, e.g. "ctx-0.8.1"
    title: str  # in words, e.g. "ctx agent 0.8.1"
    formats: ClassVar[tuple[str, ...]] = ("md", "json")
    _key_index: dict[str, int] | None = None  # see `index_of` (candidates are fixed per packer)

    @abstractmethod
    def plan(self, budget: int) -> Plan:
        """What the tool decides at `budget`; cheap, called on every slider step."""

    @abstractmethod
    def render(self, plan: Plan, fmt: str) -> str:
        """The packet exactly as the tool prints it (`Plan.render` caches this)."""

    @abstractmethod
    def candidates(self) -> Sequence[Entry]:
        """Every candidate, in the fixed order `fate_vector` uses."""

    @abstractmethod
    def fate_vector(self, plan: Plan) -> bytearray:
        """One byte per candidate (DROPPED, SUMMARIZED, INCLUDED), in `candidates()` order."""

    @abstractmethod
    def outcomes(self, plan: Plan) -> list[Outcome]:
        """An outcome for every candidate (`Plan.outcomes` caches this)."""

    def packet_order(self, plan: Plan) -> Sequence[int]:
        """Candidate indices in `outcomes(plan)` order; by default read off the built outcomes."""
        order: list[int] = self._by_candidate(plan)[0]
        return order

    def packet_places(self, plan: Plan) -> Sequence[int]:
        """Each candidate's position in `packet_order` (its inverse)."""

        def build(plan: Plan) -> list[int]:
            places = [0] * len(plan.order)
            for place, index in enumerate(plan.order):
                places[index] = place
            return places

        places: list[int] = plan.derived("base.places", build)
        return places

    def outcome_at(self, plan: Plan, index: int) -> Outcome:
        """Candidate `index`'s outcome; by default from the built outcomes (a packer may make one alone)."""
        outcome: Outcome = self._by_candidate(plan)[1][index]
        return outcome

    def _by_candidate(self, plan: Plan) -> tuple[list[int], list[Outcome]]:
        def build(plan: Plan) -> tuple[list[int], list[Outcome | None]]:
            candidates = self.candidates()
            place = {id(entry): index for index, entry in enumerate(candidates)}
            by_key: dict[str, int] = {}
            for index, entry in enumerate(candidates):
                by_key.setdefault(entry.key, index)
            order: list[int] = []
            outcomes: list[Outcome | None] = [None] * len(candidates)
            for outcome in plan.outcomes:
                found = place.get(id(outcome.entry), by_key.get(outcome.entry.key))
                if found is None:  # a packer bug: every outcome is of one of its candidates
                    raise LookupError(f"{self.name}: an outcome of no candidate ({outcome.entry.key!r})")
                order.append(found)
                outcomes[found] = outcome
            return order, outcomes

        found: tuple[list[int], list[Outcome]] = plan.derived("base.by_candidate", build)
        return found

    def index_of(self, key: str) -> int | None:
        """The index in `candidates()` of the first candidate with this key (None: none has it)."""
        index = self._key_index
        if index is None:
            index = {}
            for place, entry in enumerate(self.candidates()):
                index.setdefault(entry.key, place)
            self._key_index = index
        return index.get(key)

    def component_vector(self, plan: Plan, component: str) -> Sequence[Any] | None:
        """Every candidate's value of one score component (`explain.components`), in `candidates()` order,
        as its outcome would give it: a number, or None where it has none (the table sorts by it).
        None for the whole: no answer without building every outcome (the default)."""
        return None

    def reason_vector(self, plan: Plan) -> Sequence[Any] | None:
        """Every candidate's reason (`Outcome.reason`), in `candidates()` order, without building every
        outcome (the table filters and sorts by it on each step). None: only the outcomes know (the default)."""
        return None

    def counts(self, plan: Plan) -> dict[str, int]:
        """Entries per fate (`Plan.counts`); a packer may answer without building every outcome."""
        counts = dict.fromkeys(FATE_VALUES, 0)
        for outcome in plan.outcomes:
            counts[outcome.fate.value] += 1
        return counts

    @abstractmethod
    def buckets(self, plan: Plan) -> list[Bucket]:
        """The budget's slices at this plan (`Plan.buckets` caches this)."""

    def knobs(self) -> tuple[Knob, ...]:
        """The packer's settings besides the budget (none by default)."""
        return ()

    def with_knob(self, key: str, value: Any, source: str = "set here") -> "Packer":
        """The same candidates under one knob changed (the TUI's knob editor); KeyError for no such knob."""
        raise KeyError(f"{self.name} has no setting {key!r}")

    def next_change(self, plan: Plan) -> int | None:
        """The smallest budget above `plan.budget` at which any fate might change; None: never again.

        A safe lower bound is enough: fates must stay as they are on
        [plan.budget, result). The default examines every budget.
        """
        return plan.budget + 1
