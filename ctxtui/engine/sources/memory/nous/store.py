"""nous's PostgreSQL store, read-only: memories for the packet join, the turn log, a cheap change check.

Imported only for a `postgresql://` / `postgres://` `--db` (psycopg 3 is
loaded here and nowhere else), so `ctxtui pack` on a SQLite store or none
never pays for it.

Read-only three times over: the session starts with
`default_transaction_read_only=on`, every transaction is opened READ ONLY
(psycopg's `read_only`, i.e. `BEGIN READ ONLY`) and ends in ROLLBACK, and no
statement here writes. A role with only USAGE and SELECT grants is still the
best guard (see notes/readme-nous.md). Every transaction is REPEATABLE READ,
so one load sees one snapshot, and sets a statement and a lock timeout, so a
busy or vanished server costs seconds, not a hung app.

What is read (notes/nous.md §1.5, §3):
- `brain.decisions`, `heart.facts`, `heart.procedures`, `heart.episodes` of
  one agent as `MemoryRecord`s with provenance `nous:<table>:<uuid>`, kinds
  decision / fact / procedure / episode. Status from the columns that exist:
  decisions have no `active` column, so outcome 'superseded' or a
  superseded_by makes them superseded, and outcome 'noise' (a sweep
  artefact) archived; facts: superseded_by → superseded, `active` false →
  archived; procedures: superseded_by → superseded, `archived_at` or
  `active` false → archived; episodes: `active` false → archived (nous marks
  abandoned episodes so). nous has no importance: every memory gets the
  neutral 0.5, and the usage boost is neutral (nous keeps its usage tracker
  in memory only).
- `nous_system.context_log` + `nous_system.retrieval_log`, joined on
  (agent_id, session_id, turn_number): nous never fills `trace_id`.
- Memory rows by id, with the columns nous's formatters print, for the rebuild.

Failures are `MemorySourceError`s with one line each: a bad URL, a refused
or timed-out connection, failed authentication, a missing database, schema,
table or column, a missing grant (naming the GRANT to ask for), a statement
timeout. A lost connection is closed and reopened on the next call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import Problem
from ctxtui.engine.sources.memory.nous.connection import (
    SESSION_OPTIONS,
    TRANSACTION_SETUP,
    classify_connect,
)
from ctxtui.engine.sources.memory.nous.connection import first_line as _first_line
from ctxtui.engine.sources.memory.nous.deadline import GRACE_S, DeadlinePassed, Watchdog, deadline_cursor
from ctxtui.engine.sources.memory.nous.memory_sql import (
    MEMORY_READERS,
    ROW_COLUMNS,
    TableShape,
    canonical_uuid,
    row_expr,
    row_value,
)
from ctxtui.engine.sources.memory.nous.model import (
    SCHEMA_OF_TABLE,
    TABLE_OF_TYPE,
    NousRow,
    Turn,
    TurnSummary,
    bounded_json_loads,
)
from ctxtui.engine.sources.memory.nous.pg_names import EQ
from ctxtui.engine.sources.memory.nous.turn_sql import (
    CALL_SQL,
    CALLS_OF_TURN,
    EARLIER_TURN_SQL,
    ONE_KEY,
    RECENT_KEYS,
    RETRIEVAL_BY_ID,
    RETRIEVAL_SQL,
    SCAN_PER_TURN,
    TURNS_SQL,
    context_call,
    retrieval_of,
    summary_from,
    turn_summary,
)
from ctxtui.engine.sources.memory.shared.errors import (
    BAD_URL,
    MISSING,
    PERMISSION,
    UNKNOWN_SCHEMA,
    UNREACHABLE,
    UNREADABLE,
    MemorySourceError,
)
from ctxtui.engine.sources.memory.shared.records import MemoryRecord
from ctxtui.engine.sources.memory.shared.rows import Report
from ctxtui.engine.sources.memory.shared.urls import parse_error, redact, scrub, target

if TYPE_CHECKING:
    from types import ModuleType

    import psycopg

    # What every query here runs on: psycopg's plain connection and cursor, rows as tuples.
    Connection: TypeAlias = psycopg.Connection[tuple[Any, ...]]
    Cursor: TypeAlias = psycopg.Cursor[tuple[Any, ...]]

T = TypeVar("T")

DEFAULT_AGENT = "nous-default"  # nous's own default (Settings.agent_id)
CONNECT_TIMEOUT = 5  # seconds
STATEMENT_TIMEOUT_MS = 10_000
LOCK_TIMEOUT_MS = 2_000
APPLICATION_NAME = "ctxtui"

MEMORY_TABLES = ("brain.decisions", "heart.facts", "heart.procedures", "heart.episodes")
LOG_TABLES = ("nous_system.context_log", "nous_system.retrieval_log")
WHERE_FROM = {
    "brain.decisions": "nous's sql/init.sql",
    "heart.facts": "nous's sql/init.sql",
    "heart.procedures": "nous's sql/init.sql",
    "heart.episodes": "nous's sql/init.sql",
    "nous_system.context_log": "nous migration 026",
    "nous_system.retrieval_log": "nous migration 070",
}
# Columns without which a table is not the one ctxtui knows.
REQUIRED = {
    "brain.decisions": ("id", "agent_id", "description"),
    "heart.facts": ("id", "agent_id", "content"),
    "heart.procedures": ("id", "agent_id", "name"),
    "heart.episodes": ("id", "agent_id", "summary"),
    "nous_system.context_log": ("id", "agent_id", "session_id", "turn_number", "timestamp", "model", "token_breakdown"),
    "nous_system.retrieval_log": ("id", "agent_id", "session_id", "turn_number", "timestamp", "path", "candidates"),
}
UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$")


def _psycopg() -> ModuleType:
    """psycopg, imported on first use: only a PostgreSQL store pays for it."""
    try:
        import psycopg
    except ImportError as exc:  # pragma: no cover - psycopg is a dependency
        raise MemorySourceError(
            "postgresql", f"PostgreSQL support needs psycopg 3 ({exc}): pip install 'psycopg[binary]'", UNREADABLE
        ) from exc
    return psycopg


class NousStore:
    """One read-only connection to a nous database (opened on first use, reopened after a loss).

    Not for two threads at once; `NousSource` adds a lock for the app's workers.
    """

    def __init__(
        self, url: str, *, connect_timeout: int = CONNECT_TIMEOUT, statement_timeout_ms: int = STATEMENT_TIMEOUT_MS
    ) -> None:
        self.url = url.strip()
        self.name = redact(self.url)  # the "path" of every problem and error
        self.connect_timeout = connect_timeout
        self.statement_timeout_ms = statement_timeout_ms
        self._conn: Connection | None = None
        # Every statement runs under a client-side deadline a little past the server's timeout (deadline.py).
        self._deadline_s = statement_timeout_ms / 1000 + GRACE_S
        self._cursor_class = deadline_cursor(_psycopg(), self._deadline_s)
        self._shapes: dict[str, TableShape] = {}
        self.user: str | None = None
        self.database: str | None = None

    # -- connection -------------------------------------------------------

    def _error(self, message: str, kind: str) -> MemorySourceError:
        # libpq's and the server's words do not quote a password; should one ever, it goes here.
        return MemorySourceError(self.name, scrub(message, self.url), kind)

    def _params(self) -> dict[str, Any]:
        psycopg = _psycopg()
        try:
            parsed = psycopg.conninfo.conninfo_to_dict(self.url)
        except psycopg.ProgrammingError as exc:
            raise self._error(f"not a valid PostgreSQL URL: {parse_error(str(exc))}", BAD_URL) from None
        params: dict[str, Any] = parsed
        port = params.get("port")
        if port is not None and not all(p.strip().isdigit() for p in str(port).split(",")):
            raise self._error(f"not a valid PostgreSQL URL: port {port!r} is not a number", BAD_URL)
        options = str(params.get("options") or "")
        params["options"] = f"{options} {SESSION_OPTIONS}".strip()  # ours last: they win
        params.setdefault("application_name", APPLICATION_NAME)
        params.setdefault("connect_timeout", str(self.connect_timeout))
        # A server that vanishes mid-query is noticed in seconds, not after TCP's minutes.
        params.setdefault("keepalives", "1")
        params.setdefault("keepalives_idle", "5")
        params.setdefault("keepalives_interval", "2")
        params.setdefault("keepalives_count", "2")
        params.setdefault("tcp_user_timeout", str(self.connect_timeout * 2000))
        return params

    def connect(self) -> Connection:
        if self._conn is not None and not self._conn.closed:
            return self._conn
        psycopg = _psycopg()
        params = self._params()
        try:
            try:
                conn: Connection = psycopg.connect(**params, cursor_factory=self._cursor_class)
            except psycopg.OperationalError as exc:
                if "unsupported startup parameter" not in str(exc):
                    raise
                # A pooler (PgBouncer) refuses `options`: every transaction is READ ONLY and pinned anyway.
                params.pop("options", None)
                conn = psycopg.connect(**params, cursor_factory=self._cursor_class)
        except psycopg.Error as exc:
            raise self._error(*classify_connect(exc, params, self.url, self.connect_timeout)) from None
        from psycopg.types.json import set_json_loads

        set_json_loads(bounded_json_loads, conn)  # a jsonb cell nested 5,000 deep must not sink the query
        conn.read_only = True
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        conn.autocommit = False
        self._conn = conn
        return conn

    def close(self) -> None:
        conn, self._conn = self._conn, None
        self._shapes = {}
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass

    @property
    def connected(self) -> bool:
        return self._conn is not None and not self._conn.closed

    def read(self, work: Callable[[Cursor], T]) -> T:
        """Run `work(cursor)` in one READ ONLY, REPEATABLE READ transaction, then roll back.

        Any failure becomes a MemorySourceError; a broken connection is
        closed, so the next call reconnects.
        """
        psycopg = _psycopg()
        conn = self.connect()
        try:
            with conn.cursor() as cur:
                cur.execute(TRANSACTION_SETUP, (str(int(self.statement_timeout_ms)), str(LOCK_TIMEOUT_MS)))
                result = work(cur)
            with Watchdog(conn, self._deadline_s):
                conn.rollback()
            return result
        except MemorySourceError:
            self._rollback_quietly()
            raise
        except DeadlinePassed as passed:  # the server did not end it: whatever the connection's state, give it up
            self.close()
            raise self._error(
                f"a query ran past ctxtui's own deadline of {passed.seconds:g} s and was "
                + ("cut off (the connection is closed)" if passed.cut else "cancelled")
                + ": the server did not end it at its statement timeout (the database may switch timeouts off)",
                UNREACHABLE,
            ) from None
        except psycopg.Error as exc:
            broken = bool(conn.closed) or (
                isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)
                and not isinstance(exc, psycopg.errors.QueryCanceled | psycopg.errors.LockNotAvailable)
            )
            if broken:
                self.close()
            else:
                self._rollback_quietly()
            raise self._classify_read(exc, broken) from None

    def _rollback_quietly(self) -> None:
        try:
            if self._conn is not None and not self._conn.closed:
                self._conn.rollback()
        except Exception:
            self.close()

    def _classify_read(self, exc: Exception, broken: bool) -> MemorySourceError:
        psycopg = _psycopg()
        errors = psycopg.errors
        if isinstance(exc, errors.QueryCanceled):
            return self._error(
                f"a query took longer than {self.statement_timeout_ms / 1000:g} s "
                "(statement timeout): the server is busy or the tables are large",
                UNREACHABLE,
            )
        if isinstance(exc, errors.LockNotAvailable):
            return self._error("a table is locked by another session (a nous migration running?)", UNREACHABLE)
        if isinstance(exc, errors.InsufficientPrivilege):
            return self._error(f"permission denied: {_first_line(exc)}", PERMISSION)
        if isinstance(exc, errors.UndefinedTable | errors.InvalidSchemaName | errors.UndefinedColumn):
            return self._error(f"not the nous schema ctxtui knows: {_first_line(exc)}", UNKNOWN_SCHEMA)
        if isinstance(exc, errors.ReadOnlySqlTransaction):  # never expected: nothing here writes
            return self._error(f"refused a write in a read-only transaction: {_first_line(exc)}", UNREADABLE)
        if broken:
            return self._error(f"lost the connection to {target(self.url)}: {_first_line(exc)}", UNREACHABLE)
        return self._error(f"cannot be read: {_first_line(exc)}", UNREADABLE)

    def _one(self, cur: Cursor, sql: str, params: Sequence[Any] | None = None) -> tuple[Any, ...]:
        """The row of a statement that always answers with exactly one (an aggregate, a catalog function)."""
        row = cur.execute(sql, params).fetchone()
        if row is None:  # never, for the statements that come here; a clear error should the server disagree
            raise self._error(f"no row where one was certain: {sql.split(' FROM ')[0][:60]}", UNREADABLE)
        return row

    # -- schema -----------------------------------------------------------

    def shapes(self, cur: Cursor, tables: Sequence[str]) -> dict[str, TableShape]:
        """The tables' columns; a clear error for a missing schema, table, column or grant."""
        missing = [t for t in tables if t not in self._shapes]
        if not missing:
            return {t: self._shapes[t] for t in tables}
        user, database = self._one(
            cur, "SELECT current_user::pg_catalog.text, pg_catalog.current_database()::pg_catalog.text"
        )
        self.user, self.database = user, database
        schemas = sorted({t.split(".")[0] for t in missing})
        found = {
            name: usable
            for name, usable in cur.execute(
                "SELECT n.nspname::pg_catalog.text, pg_catalog.has_schema_privilege(n.oid, 'USAGE') "
                f"FROM pg_catalog.pg_namespace n WHERE n.nspname::pg_catalog.text {EQ} ANY(%s::pg_catalog.text[])",
                (schemas,),
            )
        }
        if not found and set(schemas) >= {"brain", "heart"}:
            raise self._error(
                f"not a nous database: database {database} has no schemas brain and heart "
                "(is this the right database?)",
                UNKNOWN_SCHEMA,
            )
        for schema in schemas:
            if schema not in found:
                needed = ", ".join(t for t in missing if t.startswith(schema + "."))
                raise self._error(
                    f"schema {schema} does not exist in database {database} "
                    f"(needed for {needed}): not a nous database, or an older one",
                    UNKNOWN_SCHEMA,
                )
            if not found[schema]:
                raise self._error(
                    f"permission denied: user {user} has no USAGE on schema {schema} "
                    f"(GRANT USAGE ON SCHEMA {schema} TO {user})",
                    PERMISSION,
                )
        rows = cur.execute(
            # Every function, operator and type qualified: nothing here resolves through the search path.
            "SELECT n.nspname::pg_catalog.text, c.relname::pg_catalog.text, "
            "  pg_catalog.has_table_privilege(c.oid, 'SELECT'), "
            "  ARRAY(SELECT a.attname::pg_catalog.text FROM pg_catalog.pg_attribute a "
            f"        WHERE a.attrelid {EQ} c.oid AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped) "
            f"FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid {EQ} c.relnamespace "
            f"WHERE c.relkind {EQ} ANY('{{r,p,v,m,f}}'::pg_catalog.\"char\"[]) "
            f"AND n.nspname::pg_catalog.text {EQ} ANY(%s::pg_catalog.text[]) "
            f"AND c.relname::pg_catalog.text {EQ} ANY(%s::pg_catalog.text[])",
            (schemas, sorted({t.split(".", 1)[1] for t in missing})),
        ).fetchall()
        by_name = {f"{ns}.{rel}": (can_select, frozenset(cols)) for ns, rel, can_select, cols in rows}
        for table in missing:
            if table not in by_name:
                raise self._error(
                    f"table {table} does not exist in database {database} ({WHERE_FROM.get(table, 'nous')} creates it)",
                    UNKNOWN_SCHEMA,
                )
            can_select, cols = by_name[table]
            if not can_select:
                raise self._error(
                    f"permission denied: user {user} may not read {table} (GRANT SELECT ON {table} TO {user})",
                    PERMISSION,
                )
            lacking = [c for c in REQUIRED.get(table, ()) if c not in cols]
            if lacking:
                raise self._error(
                    f"{table} has no column {', '.join(lacking)}: not the nous schema ctxtui knows", UNKNOWN_SCHEMA
                )
            self._shapes[table] = TableShape(table, cols)
        return {t: self._shapes[t] for t in tables}

    # -- agents -----------------------------------------------------------

    def agents(self, cur: Cursor) -> list[str]:
        """Every agent with memories or logged turns."""
        shapes = self.shapes(cur, MEMORY_TABLES)
        parts = [f"SELECT DISTINCT agent_id::pg_catalog.text FROM {t}" for t in shapes]
        for table in LOG_TABLES:
            if self._table_exists(cur, table):
                self.shapes(cur, (table,))
                parts.append(f"SELECT DISTINCT agent_id::pg_catalog.text FROM {table}")
        return [row[0] for row in cur.execute(" UNION ".join(parts) + " ORDER BY 1").fetchall()]

    def _table_exists(self, cur: Cursor, table: str) -> bool:
        if table in self._shapes:
            return True
        return bool(self._one(cur, "SELECT pg_catalog.to_regclass(%s::pg_catalog.text) IS NOT NULL", (table,))[0])

    def resolve_agent(self, cur: Cursor, agent: str | None, problems: list[Problem]) -> str:
        """`agent` when given; else nous's default, or the only agent there is."""
        if agent:
            return agent
        agents = self.agents(cur)
        if not agents or DEFAULT_AGENT in agents:
            return DEFAULT_AGENT
        if len(agents) == 1:
            return agents[0]
        shown = ", ".join(agents[:12]) + (" …" if len(agents) > 12 else "")
        raise self._error(f"{len(agents)} agents in this database ({shown}): choose one with --agent", MISSING)

    # -- memories ---------------------------------------------------------

    def memories(self, cur: Cursor, agent: str, report: Report) -> list[MemoryRecord]:
        """The agent's four memory tables as records (see the module docstring for the mapping)."""
        shapes = self.shapes(cur, MEMORY_TABLES)
        records: list[MemoryRecord] = []
        for table, reader in MEMORY_READERS.items():
            shape = shapes[table]
            sql, build = reader(shape)
            rows = cur.execute(sql, (agent,)).fetchall()
            with gc_paused():
                for row in rows:
                    record = build(report, row)
                    if record is not None:
                        records.append(record)
        return records

    # -- change tokens ----------------------------------------------------

    def snapshot(self, cur: Cursor) -> str:
        """The server's transaction snapshot ("xmin:xmax:in-progress"): it moves on any commit anywhere.

        A cheap gate (no table is read): equal snapshots mean nothing
        committed since, so no table can differ.
        """
        return str(self._one(cur, "SELECT pg_catalog.txid_current_snapshot()::pg_catalog.text")[0])

    def memory_token(self, cur: Cursor, agent: str) -> tuple[Any, ...]:
        """Per memory table: rows and the newest row version (max xmin) of the agent.

        An insert or a delete changes the count; an update writes a new row
        version whose xmin is the newest. One index scan per table.
        """
        shapes = self.shapes(cur, MEMORY_TABLES)
        parts = [
            f"(SELECT pg_catalog.concat(pg_catalog.count(*), ':', pg_catalog.max(xmin::pg_catalog.text::pg_catalog.int8)) "
            f"FROM {t} WHERE agent_id {EQ} %s)"
            for t in shapes
        ]
        return self._one(cur, "SELECT " + ", ".join(parts), (agent,) * len(parts))

    def log_token(self, cur: Cursor, agent: str) -> tuple[Any, ...]:
        """The newest row of each log table for the agent (through their time indexes)."""
        self.shapes(cur, LOG_TABLES)
        return self._one(
            cur,
            "SELECT (SELECT pg_catalog.concat(id, '@', \"timestamp\") FROM nous_system.context_log "
            f"WHERE agent_id {EQ} %s "
            '        ORDER BY "timestamp" DESC LIMIT 1), '
            "       (SELECT pg_catalog.concat(id, '@', \"timestamp\") FROM nous_system.retrieval_log "
            f"WHERE agent_id {EQ} %s "
            '        ORDER BY "timestamp" DESC LIMIT 1)',
            (agent, agent),
        )

    # -- the turn log -----------------------------------------------------

    def turns(self, cur: Cursor, agent: str, limit: int = 50) -> list[TurnSummary]:
        """The agent's newest logged turns, newest first.

        A turn is a (session_id, turn_number) seen in context_log (per API
        call) or as a 'context' retrieval in retrieval_log; the two join on
        that pair because nous leaves trace_id NULL in both. Only the newest
        rows of each log are grouped (through their time indexes), so the
        cost follows `limit`, not the log's size; a retrieval logged without
        a session or turn number cannot be joined and is not listed.
        """
        self.shapes(cur, LOG_TABLES)
        limit = max(0, int(limit))
        rows = cur.execute(
            TURNS_SQL.format(keys=RECENT_KEYS), {"agent": agent, "limit": limit, "scan": limit * SCAN_PER_TURN}
        ).fetchall()
        return [turn_summary(agent, row) for row in rows]

    def turn(self, cur: Cursor, agent: str | None, key: str) -> Turn:
        """One turn by the id of its context retrieval, of any of its API calls, or `SESSION#TURN`."""
        self.shapes(cur, LOG_TABLES)
        key = key.strip()
        found = self._locate(cur, agent, key)
        if found is None:
            scope = f" for agent {agent}" if agent else ""
            raise self._error(
                f"no logged turn {key!r}{scope}: `ctxtui turns --db URL` lists them (the key is "
                "a retrieval_log id, a context_log id or SESSION#TURN)",
                MISSING,
            )
        agent_id, session_id, turn_number, retrieval_id = found
        params = {"agent": agent_id, "session": session_id, "turn": turn_number, "rid": retrieval_id}
        rows = cur.execute(TURNS_SQL.format(keys=ONE_KEY), params).fetchall()
        summary = turn_summary(agent_id, rows[0]) if rows else None
        calls = tuple(
            context_call(row)
            for row in cur.execute(
                CALL_SQL + CALLS_OF_TURN,
                params,
            ).fetchall()
        )
        retrieval = None
        rid = retrieval_id or (summary.retrieval_id if summary else None)
        if rid is not None:
            row = cur.execute(RETRIEVAL_SQL + RETRIEVAL_BY_ID, (rid,)).fetchone()
            retrieval = retrieval_of(row) if row else None
        if summary is None or (retrieval_id and summary.retrieval_id != retrieval_id and retrieval is not None):
            summary = summary_from(agent_id, session_id, turn_number, calls, retrieval)
        if session_id is not None and turn_number is not None:
            earlier = cur.execute(EARLIER_TURN_SQL, params).fetchone()
            summary = replace(summary, earlier_turn=bool(earlier and earlier[0]))
        return Turn(summary, calls, retrieval)

    def _locate(self, cur: Cursor, agent: str | None, key: str) -> tuple[Any, Any, Any, str | None] | None:
        """(agent, session, turn, retrieval id or None) for a turn key; None when nothing matches."""
        scope = f" AND agent_id {EQ} %(agent)s" if agent else ""
        params: dict[str, str | int | None] = {"key": key, "agent": agent}
        row = cur.execute(
            f"SELECT agent_id, session_id, turn_number, path FROM nous_system.retrieval_log WHERE id {EQ} %(key)s"
            + scope,
            params,
        ).fetchone()
        if row is not None:
            return row[0], row[1], row[2], key if row[3] == "context" else None
        row = cur.execute(
            f"SELECT agent_id, session_id, turn_number FROM nous_system.context_log WHERE id {EQ} %(key)s" + scope,
            params,
        ).fetchone()
        if row is not None:
            return row[0], row[1], row[2], None
        session, sep, number = key.rpartition("#")
        if sep and number.strip().lstrip("-").isdigit():
            params.update(session=session, turn=int(number))
            for table in LOG_TABLES:
                row = cur.execute(
                    f"SELECT agent_id FROM {table} WHERE session_id {EQ} %(session)s "
                    f"AND turn_number {EQ} %(turn)s{scope} LIMIT 1",
                    params,
                ).fetchone()
                if row is not None:
                    return row[0], session, int(number), None
        return None

    def rows(self, cur: Cursor, refs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], NousRow]:
        """Memory rows by (type, id), with the columns nous's section formatters read."""
        wanted: dict[str, list[str]] = {}
        for mem_type, mem_id in refs:
            if mem_type in TABLE_OF_TYPE and UUID_RE.match(mem_id or ""):
                wanted.setdefault(mem_type, []).append(mem_id)
        shapes = self.shapes(cur, MEMORY_TABLES)
        found: dict[tuple[str, str], NousRow] = {}
        for mem_type, ids in wanted.items():
            table = f"{SCHEMA_OF_TABLE[TABLE_OF_TYPE[mem_type]]}.{TABLE_OF_TYPE[mem_type]}"
            shape = shapes[table]
            names = ROW_COLUMNS[mem_type]
            exprs = ", ".join(row_expr(shape, name) for name in names)
            for row in cur.execute(
                f"SELECT id::pg_catalog.text, {exprs} FROM {table} WHERE id {EQ} ANY(%s::pg_catalog.uuid[])", (ids,)
            ).fetchall():
                values = {name: row_value(name, value) for name, value in zip(names, row[1:], strict=True)}
                found[(mem_type, row[0])] = NousRow(mem_type, row[0], values)
        # Keyed as the log spells the ids (nous logs str(uuid): lower case, dashes).
        out: dict[tuple[str, str], NousRow] = {}
        for mem_type, ids in wanted.items():
            for mem_id in ids:
                hit = found.get((mem_type, mem_id)) or found.get((mem_type, canonical_uuid(mem_id)))
                if hit is not None:
                    out[(mem_type, mem_id)] = hit
        return out
