"""The Turns view's model: a nous database's logged turns, one of them rebuilt, kept live by polling.

Plain Python, no Textual: the TUI calls `refresh()`, `open()` and `poll()`
from a worker thread (each is one or a few queries; `poll()` is one snapshot
query when nothing committed), and `with_budget()` / `with_knob()` on the UI
path (no database). A server that goes away never raises out of `poll()`:
the last turns and the open turn stay, and `PollResult.error` says why; the
next poll reconnects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ctxtui.engine.model import Plan, Problem
from ctxtui.engine.packers.nous.build import packer_for_turn
from ctxtui.engine.packers.nous.packer import NousPacker
from ctxtui.engine.sources.memory.nous.model import Turn, TurnSummary
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError

# token_breakdown keys in the order nous's markers appear in a prompt (context_logger.py@21b809c7).
SECTION_ORDER = (
    "identity",
    "context_safety",
    "procedure_catalog",
    "user_profile",
    "censors",
    "frame",
    "datetime",
    "working_memory",
    "related_decisions",
    "relevant_facts",
    "session_profile",
    "known_procedures",
    "recommended_procedures",
    "recent_conversations",
    "past_episodes",
    "frame_instructions",
    "execution_ledger",
    "corrections",
    "telegram_format",
    "other",
)
SHORT = {
    "related_decisions": "decisions",
    "relevant_facts": "facts",
    "recommended_procedures": "procedures",
    "known_procedures": "procedures",
    "past_episodes": "episodes",
    "recent_conversations": "recent",
    "procedure_catalog": "catalog",
    "context_safety": "safety",
    "working_memory": "working",
    "user_profile": "profile",
}


def sections_line(tokens: dict[str, int]) -> str:
    keys = [k for k in SECTION_ORDER if k in tokens] + sorted(k for k in tokens if k not in SECTION_ORDER)
    return " · ".join(f"{SHORT.get(k, k)} {tokens[k]:,}" for k in keys)


@dataclass(frozen=True, slots=True)
class TurnView:
    """One turn on screen at one budget: its packer (None when nous did not sample its candidates) and plan."""

    turn: Turn
    packer: NousPacker | None
    budget: int
    complaints: tuple[str, ...] = ()

    @property
    def plan(self) -> Plan | None:
        return self.packer.plan(self.budget) if self.packer is not None else None

    @property
    def problems(self) -> list[Problem]:
        return list(self.packer.problems) if self.packer is not None else []

    @property
    def logged_tokens(self) -> dict[str, int]:
        """The turn's first API call's token_breakdown: the section bars of an unsampled turn."""
        first = self.turn.first_call
        return dict(first.token_breakdown) if first is not None else {}

    def with_budget(self, budget: int) -> TurnView:
        return TurnView(self.turn, self.packer, max(0, int(budget)), self.complaints)

    def with_knob(self, key: str, value: Any) -> TurnView:
        """The same turn with one knob changed; the budget follows when it was the turn's own."""
        if self.packer is None:
            return self
        packer = self.packer.with_knob(key, value)
        budget = packer.default_budget if self.budget == self.packer.default_budget else self.budget
        return TurnView(self.turn, packer, budget, self.complaints)


@dataclass(slots=True)
class PollResult:
    turns_changed: bool = False  # a new turn was logged: `turns` is fresh
    turn_changed: bool = False  # the open turn's memory rows changed: `view` is rebuilt
    memories_changed: bool = False  # the agent's memory tables changed since the last poll
    error: str | None = None  # the database could not be asked (the old state stays)


@dataclass(slots=True)
class TurnsSession:
    """A nous database's turns for one agent (`NousSource` underneath, one connection)."""

    url: str
    agent: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)  # NOUS_* settings, as nous reads them
    limit: int = 50
    turns: list[TurnSummary] = field(default_factory=list)
    view: TurnView | None = None
    _source: Any = None
    _rows_snapshot: str | None = None
    _rows_token: tuple | None = None

    @property
    def source(self):
        if self._source is None:
            from ctxtui.engine.sources.memory.nous.source import NousSource

            self._source = NousSource(self.url, agent=self.agent)
        return self._source

    def refresh(self) -> list[TurnSummary]:
        """Read the newest turns (raises MemorySourceError: the first load should say why)."""
        self.turns = self.source.turns(self.limit)
        return self.turns

    def open(self, key: str, budget: int | None = None) -> TurnView:
        """Read one turn and its candidates' rows, and rebuild it (raises MemorySourceError)."""
        turn = self.source.turn(key)
        self._rows_snapshot, self._rows_token = self.source.memory_state(None)
        self.view = self._build(turn, budget, None)
        return self.view

    def _build(self, turn: Turn, budget: int | None, like: NousPacker | None) -> TurnView:
        if turn.retrieval is None or not turn.retrieval.sampled:
            return TurnView(turn, None, 0)
        rows = self.source.rows(turn.retrieval.candidates or ())
        if like is not None:
            packer = NousPacker(turn, rows, like.settings, source=like.source)
            complaints: list[str] = []
        else:
            packer, complaints = packer_for_turn(turn, rows, self.env, source=self.source.path)
        return TurnView(turn, packer, packer.default_budget if budget is None else budget, tuple(complaints))

    def poll(self) -> PollResult:
        """New turns and changed memories since the last look; never raises.

        The agent's memory tables are watched whether or not a turn is open
        here (`memories_changed`): the app re-reads the turn on its main
        screen when they move. The first poll only records where they stand.
        """
        result = PollResult()
        try:
            if self.source.turns_changed():
                self.refresh()
                result.turns_changed = True
            snapshot, token = self.source.memory_state(self._rows_snapshot)
            if token is not None and self._rows_token is not None and token != self._rows_token:
                result.memories_changed = True
                if self.view is not None and self.view.packer is not None:
                    view = self.view
                    self.view = self._build(view.turn, view.budget, view.packer)
                    result.turn_changed = True
            if token is not None:
                self._rows_token = token
            self._rows_snapshot = snapshot
        except MemorySourceError as exc:
            result.error = exc.line
        return result

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
