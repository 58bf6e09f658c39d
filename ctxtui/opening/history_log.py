"""The packet through a project's history: one record per commit that touched `.context/` or `.ctxrc`.

Each record packs the commit at its own time against its first parent at the
parent's, and the parent's files at the commit's time to tell the edit's
changes from the clock's (`explain.history.changes`). The walk goes oldest
to newest so a parent that is the previous record's commit is not packed
twice; every tree and blob is read from git once (`History.objects`) and
every file text parsed once (`History.memo`). It stops at `limit` commits
and after `max_seconds` (the clock is the caller's: `clock`), and says so.
"""

from __future__ import annotations

from typing import NamedTuple

from ctxtui.engine.explain.history import EMPTY, Change, Fates, changes, fates_of
from ctxtui.engine.record import Record
from ctxtui.engine.sources.context import ContextMissing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ctxtui.engine.model import Plan
    from ctxtui.engine.sources.workspace import Workspace
    from ctxtui.opening.git import Commit
    from ctxtui.opening.request import PackRequest
    from ctxtui.opening.revision import History


class LogRecord(Record):
    """One commit's packet and what the commit did to it."""

    __slots__ = ("commit", "fates", "changed", "refusal", "missing")

    commit: Commit
    fates: Fates  # the packet at the commit, at its own time
    changed: list[Change]
    refusal: str | None  # ctx would have refused to pack this commit (the packet is what it would build)
    missing: bool  # no .context/ at this commit

    def __init__(self, commit: Commit, fates: Fates, changed: list[Change], refusal: str | None, missing: bool) -> None:
        self.commit, self.fates, self.changed, self.refusal, self.missing = commit, fates, changed, refusal, missing


class Log(Record):
    __slots__ = ("records", "complete", "stopped")

    records: list[LogRecord]  # newest first
    complete: bool  # False: the time bound stopped the walk (`stopped` says where)
    stopped: str

    def __init__(self, records: list[LogRecord], complete: bool = True, stopped: str = "") -> None:
        self.records, self.complete, self.stopped = records, complete, stopped


class PacketAt:
    """Packets of one history by (commit, time): a commit's workspace is read once, its packet once per time."""

    def __init__(self, name: str, request: PackRequest, history: History, env: Mapping[str, str] | None) -> None:
        self.name, self.request, self.history, self.env = name, request, history, env
        # Bounded: a walk needs a commit and its parent (the next one down), and the TUI a few around;
        # holding every commit's workspace kept every version's text (500 commits of ctx-large: ~550 MB).
        self._workspaces: dict[str, tuple[Workspace | None, str | None]] = {}
        self._fates: dict[tuple[str, str], Fates] = {}
        self.most = 8
        self._memories: Workspace | None = None

    def workspace(self, commit: str) -> tuple[Workspace | None, str | None]:
        """(workspace, refusal reason) at `commit`; (None, None) when `.context/` did not exist."""
        found = self._workspaces.pop(commit, None)
        if found is None:
            found = self._read(commit)
            if len(self._workspaces) >= self.most:
                del self._workspaces[next(iter(self._workspaces))]
        self._workspaces[commit] = found
        return found

    def _read(self, commit: str) -> tuple[Workspace | None, str | None]:
        import os

        from ctxtui.engine.sources.revision import config_at, refusal_at, workspace_at
        from ctxtui.opening.ctx import context_dir_of, shown_root

        env = os.environ if self.env is None else self.env
        tree = self.history.tree(commit)
        context_dir = context_dir_of(self.name, self.request, env, tree)
        allow = self.request.allow_outside_cwd or config_at(tree, "0.8.0").allow_outside_cwd
        refusal = refusal_at(self.name, tree, shown_root(self.request), context_dir, allow_outside=allow)
        try:
            workspace = workspace_at(tree, self.history.project, context_dir, memo=self.history.memo, revision=commit)
        except ContextMissing:
            return None, None
        if self.request.db:  # a memory store is not in git: the one loaded now joins every commit's packet
            if self._memories is None:
                from pathlib import Path

                from ctxtui.engine.packers.ctx.memories import attach_memories
                from ctxtui.engine.sources.memory.shared.urls import is_db_url
                from ctxtui.opening.clock import parse_now

                db: str | Path = self.request.db if is_db_url(self.request.db) else Path(self.request.db)
                attach_memories(
                    workspace,
                    db,
                    project=self.request.db_project,
                    now=parse_now(self.request.now),
                    agent=self.request.agent,
                )
                self._memories = workspace
            workspace.memories = self._memories.memories
            workspace.memory_problems = self._memories.memory_problems
        return workspace, refusal.reason if refusal is not None else None

    def fates(self, commit: str, when: str) -> Fates:
        """The packet of `commit`'s files at time `when` (ISO 8601), as fates by key."""
        found = self._fates.pop((commit, when), None)
        if found is None:
            found = self._pack(commit, when)
            if len(self._fates) >= 4 * self.most:
                del self._fates[next(iter(self._fates))]
        self._fates[(commit, when)] = found
        return found

    def _pack(self, commit: str, when: str) -> Fates:
        plan = self.plan(commit, when)
        return EMPTY if plan is None else fates_of(plan)

    def same_recency(self, commit: str, then: str, now: str) -> bool:
        """Whether every dated entry of `commit` has the same recency at both times (then time changed no fate).

        The clock enters a ctx packet only through recency brackets (0 to 7
        days, 30, 90, older): when none moves, the packet at `now` has the
        fates of the packet at `then`, and the log need not pack it again.
        The MCP packet does not score by age at all.
        """
        if self.name == "ctx-mcp":
            return True
        if self.request.now is not None:
            return True
        workspace, _ = self.workspace(commit)
        if workspace is None:
            return True
        from ctxtui.engine.packers.ctx.score import age_in_days, recency_bracket
        from ctxtui.engine.sources.zone import local_zone
        from ctxtui.opening.clock import parse_now

        zone = local_zone()
        a, b = parse_now(then), parse_now(now)
        p = workspace.parsed
        for entry in (*p.decisions, *p.learnings, *workspace.memories):
            if recency_bracket(age_in_days(entry.date, a, zone)) != recency_bracket(age_in_days(entry.date, b, zone)):
                return False
        return True

    def plan(self, commit: str, when: str) -> Plan | None:
        """The packet of `commit`'s files at time `when`; None when `.context/` did not exist."""
        from ctxtui.opening.clock import parse_now
        from ctxtui.opening.ctx import open_ctx

        workspace, _ = self.workspace(commit)
        if workspace is None:
            return None
        request = self.request.but(ignore_refusal=True)
        now = parse_now(self.request.now or when)
        tree = self.history.tree(commit)
        opened = open_ctx(self.name, request, env=self.env, now=now, workspace=workspace, tree=tree)
        return opened.packer.plan(opened.budget)


def walk_log(
    name: str,
    request: PackRequest,
    history: History,
    commits: list[Commit],
    *,
    env: Mapping[str, str] | None = None,
    max_seconds: float = 60.0,
    clock: Callable[[], float] | None = None,
    packets: PacketAt | None = None,
) -> Log:
    """The records of `commits` (newest first, as `History.log` gives them)."""
    packets = PacketAt(name, request, history, env) if packets is None else packets
    start = clock() if clock is not None else 0.0
    records: list[LogRecord] = []
    history.preload([commit.parent for commit in commits if commit.parent is not None])
    for commit in commits:  # newest first: the time bound keeps the newest
        if clock is not None and clock() - start > max_seconds:
            return Log(records, False, commit.commit)
        now = packets.fates(commit.commit, commit.date)
        workspace, refusal = packets.workspace(commit.commit)
        if commit.parent is None:
            then = middle = EMPTY
        else:
            parent = history.commit(commit.parent)
            then = packets.fates(parent.commit, parent.date)
            same_clock = parent.date == commit.date or packets.same_recency(parent.commit, parent.date, commit.date)
            middle = then if same_clock else packets.fates(parent.commit, commit.date)
        records.append(LogRecord(commit, now, changes(then, middle, now), refusal, workspace is None))
    return Log(records)


class Move(Record):
    """One commit at which an entry's fate changed, with the numbers behind it."""

    __slots__ = ("commit", "change", "reasons")

    commit: Commit
    change: Change
    reasons: list[str]

    def __init__(self, commit: Commit, change: Change, reasons: list[str]) -> None:
        self.commit, self.change, self.reasons = commit, change, reasons


def entry_history(
    name: str,
    request: PackRequest,
    history: History,
    commits: list[Commit],
    key: str,
    *,
    env: Mapping[str, str] | None = None,
    max_seconds: float = 60.0,
    clock: Callable[[], float] | None = None,
) -> tuple[list[Move], Log]:
    """The commits (newest first) at which the entry `key` changed fate, each with its reasons in numbers."""
    from ctxtui.engine.explain.history_reasons import reasons

    packets = PacketAt(name, request, history, env)
    log = walk_log(name, request, history, commits, env=env, max_seconds=max_seconds, clock=clock, packets=packets)
    moves: list[Move] = []
    for record in log.records:
        change = next((c for c in record.changed if c.entry.key == key), None)
        if change is None:
            continue
        commit = record.commit
        after = packets.plan(commit.commit, commit.date)
        before = None
        if commit.parent is not None:
            parent = history.commit(commit.parent)
            before = packets.plan(parent.commit, parent.date)
        moves.append(Move(commit, change, reasons(key, before, after)))
    return moves, log


class EntryHistory(NamedTuple):
    """What following one entry through the commits found (the TUI keeps it with the load, by budget and key)."""

    moves: list[Move]  # newest first
    looked_at: int  # commits walked
    complete: bool  # False: the time bound stopped the walk before the oldest
    error: str | None = None  # the history could not be read (the words say why); moves is then empty
