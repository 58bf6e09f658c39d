"""nous's store as the app and the CLI use it: a one-shot memory load, a watched source, and turn-log reads.

`NousSource` gives a nous database the surface of a file-backed
`MemorySource`, so the memory join uses either; the module-level readers
open a store, read once and close it (the CLI's way). The connection and
the queries themselves are `nous_store`'s.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeAlias

from ctxtui.engine.model import Problem
from ctxtui.engine.sources.memory.nous.model import Candidate, NousRow, Turn, TurnSummary
from ctxtui.engine.sources.memory.nous.pg_names import EQ
from ctxtui.engine.sources.memory.nous.store import (
    CONNECT_TIMEOUT,
    LOG_TABLES,
    STATEMENT_TIMEOUT_MS,
    NousStore,
)
from ctxtui.engine.sources.memory.shared import values as v
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
from ctxtui.engine.sources.memory.shared.load import MemoryLoad, latest_date
from ctxtui.engine.sources.memory.shared.records import MemoryRecord
from ctxtui.engine.sources.memory.shared.rows import Report

if TYPE_CHECKING:
    from ctxtui.engine.sources.memory.nous.store import Cursor

# A change token: per memory table (or log table), rows and newest row version.
Token: TypeAlias = tuple[Any, ...]

SCHEMA_NOUS = "nous"


# -- one-shot and live readers ------------------------------------------------


def load_nous_memories(
    url: str, agent: str | None = None, *, now: datetime | None = None, project: str | None = None
) -> MemoryLoad:
    """Every memory of one agent, read once (the CLI's join); MemorySourceError when it cannot be read."""
    store = NousStore(url)
    try:
        return _load(store, agent, now, project)[0]
    finally:
        store.close()


def _load(
    store: NousStore, agent: str | None, now: datetime | None, project: str | None
) -> tuple[MemoryLoad, str, str, Token]:
    """The agent's memories, and who the agent was, the snapshot and the token they were read at."""
    problems: list[Problem] = []

    def work(cur: Cursor) -> tuple[str, str, Token, list[MemoryRecord]]:
        who = store.resolve_agent(cur, agent, problems)
        snapshot = store.snapshot(cur)
        token = store.memory_token(cur, who)
        report = Report(store.name, problems, latest_date(now))
        records = store.memories(cur, who, report)
        return who, snapshot, token, records

    who, snapshot, token, records = store.read(work)
    if project is not None:
        problems.append(
            Problem(
                store.name,
                f"nous keeps no project column: the project filter {v.show(project)} "
                f"was ignored (nous scopes memories by agent: --agent)",
            )
        )
    if agent and not records:
        problems.append(Problem(store.name, f"agent {agent} has no memories here"))
    load = MemoryLoad(store.name, SCHEMA_NOUS, records, problems, None, None, 0)
    return load, who, snapshot, token


class NousSource:
    """A nous database, watched: memories and turn log, re-read only when something committed.

    The same surface as `MemorySource` (`last`, `error`, `load`, `reload`,
    `changed`, `close`, `watch_paths`), so `MemoryJoin` uses either, plus the
    turn log (`turns`, `turns_changed`, `turn`, `rows`) for the Turns view.
    Polling is the only way to see PostgreSQL commits from here (no file to
    watch; LISTEN needs a trigger nous does not have): `changed()` first
    compares the server's snapshot (no table read), and only when something
    committed anywhere compares per-table counts and newest row versions.
    A lost server makes `changed()` say True and the next read raise a
    MemorySourceError (the app keeps the last good state and polls on); the
    read after the server is back reconnects. Thread-safe: one lock.
    """

    def __init__(
        self,
        url: str,
        agent: str | None = None,
        project: str | None = None,
        *,
        connect_timeout: int = CONNECT_TIMEOUT,
        statement_timeout_ms: int = STATEMENT_TIMEOUT_MS,
    ) -> None:
        self.store = NousStore(url, connect_timeout=connect_timeout, statement_timeout_ms=statement_timeout_ms)
        self.path = self.store.name
        self.requested_agent = agent
        self.project = project
        self.agent: str | None = agent
        self.last: MemoryLoad | None = None
        self.error: MemorySourceError | None = None
        self._lock = threading.RLock()
        self._snapshot: str | None = None
        self._token: Token | None = None
        self._log_snapshot: str | None = None
        self._log_token: Token | None = None

    def watch_paths(self) -> tuple[str, ...]:
        """Nothing on disk to watch: poll `changed()` / `turns_changed()` instead."""
        return ()

    # memories

    def changed(self) -> bool:
        """True when the agent's memories may differ from the last good load (or there is none)."""
        with self._lock:
            if self.last is None or self.error is not None or self.agent is None:
                return True
            agent = self.agent

            def work(cur: Cursor) -> tuple[str, Token | None]:
                snapshot = self.store.snapshot(cur)
                if snapshot == self._snapshot:  # nothing committed anywhere since the load
                    return snapshot, None
                return snapshot, self.store.memory_token(cur, agent)

            try:
                snapshot, token = self.store.read(work)
            except MemorySourceError:
                return True
            if token is None:
                return False
            if token == self._token:  # a commit elsewhere (the turn log, another agent): remember it
                self._snapshot = snapshot
                return False
            return True  # and keep saying so until a load records the new state

    def load(self, now: datetime | None = None) -> MemoryLoad:
        with self._lock:
            try:
                load, who, snapshot, token = _load(self.store, self.requested_agent, now, self.project)
            except MemorySourceError as exc:
                self.error = exc
                raise
            self.error = None
            self.agent, self._snapshot, self._token, self.last = who, snapshot, token, load
            return load

    def reload(self, now: datetime | None = None) -> MemoryLoad | None:
        if not self.changed():
            return None
        return self.load(now)

    # turn log

    def resolve_agent(self) -> str:
        with self._lock:
            if self.agent is None:
                self.agent = self.store.read(lambda cur: self.store.resolve_agent(cur, self.requested_agent, []))
            return self.agent

    def turns(self, limit: int = 50) -> list[TurnSummary]:
        """The newest logged turns (and remember where the log stood, for `turns_changed`)."""
        with self._lock:
            agent = self.resolve_agent()

            def work(cur: Cursor) -> tuple[str, Token, list[TurnSummary]]:
                return self.store.snapshot(cur), self.store.log_token(cur, agent), self.store.turns(cur, agent, limit)

            self._log_snapshot, self._log_token, found = self.store.read(work)
            return found

    def turns_changed(self) -> bool:
        """True when a turn was logged since the last `turns()` (or that never ran, or failed)."""
        with self._lock:
            if self._log_token is None or self.agent is None:
                return True
            agent = self.agent

            def work(cur: Cursor) -> tuple[str, Token | None]:
                snapshot = self.store.snapshot(cur)
                if snapshot == self._log_snapshot:
                    return snapshot, None
                return snapshot, self.store.log_token(cur, agent)

            try:
                snapshot, token = self.store.read(work)
            except MemorySourceError:
                return True
            if token is None:
                return False
            if token == self._log_token:
                self._log_snapshot = snapshot
                return False
            return True

    def memory_state(self, since: str | None) -> tuple[str, Token | None]:
        """The server snapshot, and the agent's memory token unless nothing committed since `since`.

        For watchers of their own (the Turns view re-reads an open turn's rows
        when this token moves); `changed()` is the same check for `load()`.
        """
        with self._lock:
            agent = self.resolve_agent()

            def work(cur: Cursor) -> tuple[str, Token | None]:
                snapshot = self.store.snapshot(cur)
                if since is not None and snapshot == since:
                    return snapshot, None
                return snapshot, self.store.memory_token(cur, agent)

            return self.store.read(work)

    def turn(self, key: str) -> Turn:
        with self._lock:
            return self.store.read(lambda cur: self.store.turn(cur, self.requested_agent, key))

    def rows(self, candidates: Iterable[Candidate]) -> dict[tuple[str, str], NousRow]:
        refs = [(c.type, c.id) for c in candidates]
        with self._lock:
            return self.store.read(lambda cur: self.store.rows(cur, refs))

    def close(self) -> None:
        with self._lock:
            self.store.close()

    def __enter__(self) -> NousSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_turn(url: str, key: str, agent: str | None = None) -> tuple[Turn, dict[tuple[str, str], NousRow]]:
    """One turn and the memory rows of its candidates, read once (the CLI's way)."""
    store = NousStore(url)
    try:

        def work(cur: Cursor) -> tuple[Turn, dict[tuple[str, str], NousRow]]:
            turn = store.turn(cur, agent, key)
            cands = turn.retrieval.candidates if turn.retrieval and turn.retrieval.candidates else ()
            return turn, store.rows(cur, [(c.type, c.id) for c in cands])

        return store.read(work)
    finally:
        store.close()


def list_turns(url: str, agent: str | None = None, limit: int = 50) -> tuple[str, list[TurnSummary]]:
    """The agent (resolved) and its newest turns, read once."""
    store = NousStore(url)
    try:

        def work(cur: Cursor) -> tuple[str, list[TurnSummary]]:
            who = store.resolve_agent(cur, agent, [])
            return who, store.turns(cur, who, limit)

        return store.read(work)
    finally:
        store.close()


def newest_sampled_turn(url: str, agent: str | None = None) -> str | None:
    """The key of the agent's newest turn whose candidates were sampled, if any."""
    store = NousStore(url)
    try:

        def work(cur: Cursor) -> str | None:
            who = store.resolve_agent(cur, agent, [])
            store.shapes(cur, LOG_TABLES)
            row = cur.execute(
                f"SELECT id FROM nous_system.retrieval_log WHERE agent_id {EQ} %s AND path {EQ} 'context' "
                'AND candidates IS NOT NULL ORDER BY "timestamp" DESC, id DESC LIMIT 1',
                (who,),
            ).fetchone()
            return row[0] if row else None

        return store.read(work)
    finally:
        store.close()
