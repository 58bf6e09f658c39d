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
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import Problem
from ctxtui.engine.sources.memory import values as v
from ctxtui.engine.sources.memory.adapters import MAX_DATE, MemoryLoad
from ctxtui.engine.sources.memory.errors import (
    BAD_URL,
    MISSING,
    PERMISSION,
    UNKNOWN_SCHEMA,
    UNREACHABLE,
    UNREADABLE,
    MemorySourceError,
)
from ctxtui.engine.sources.memory.nous_model import (
    SCHEMA_OF_TABLE,
    TABLE_OF_TYPE,
    Candidate,
    ContextCall,
    NousRow,
    Retrieval,
    Turn,
    TurnSummary,
    bounded_json_loads,
    iso,
    parse_candidates,
    parse_counts,
    parse_legs,
)
from ctxtui.engine.sources.memory.records import ORIGIN_NOUS, MemoryRecord
from ctxtui.engine.sources.memory.rows import Report, make_record
from ctxtui.engine.sources.memory.urls import redact, target

SCHEMA_NOUS = "nous"
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
TEXT_TIME = "to_char({} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"


def _psycopg():
    try:
        import psycopg
    except ImportError as exc:  # pragma: no cover - psycopg is a dependency
        raise MemorySourceError(
            "postgresql", f"PostgreSQL support needs psycopg 3 ({exc}): pip install 'psycopg[binary]'", UNREADABLE
        ) from exc
    return psycopg


@dataclass(frozen=True, slots=True)
class TableShape:
    """One table as the catalog shows it to the connected role."""

    name: str  # schema.table
    columns: frozenset[str]

    def col(self, name: str, expr: str | None = None) -> str:
        """`expr` (default: the quoted column) when the column exists, else NULL."""
        return (expr or f'"{name}"') if name in self.columns else "NULL"


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
        self._conn: Any = None
        self._shapes: dict[str, TableShape] = {}
        self.user: str | None = None
        self.database: str | None = None

    # -- connection -------------------------------------------------------

    def _error(self, message: str, kind: str) -> MemorySourceError:
        return MemorySourceError(self.name, message, kind)

    def _params(self) -> dict[str, Any]:
        psycopg = _psycopg()
        try:
            params = psycopg.conninfo.conninfo_to_dict(self.url)
        except psycopg.ProgrammingError as exc:
            raise self._error(f"not a valid PostgreSQL URL: {_first_line(exc)}", BAD_URL) from None
        port = params.get("port")
        if port is not None and not all(p.strip().isdigit() for p in str(port).split(",")):
            raise self._error(f"not a valid PostgreSQL URL: port {port!r} is not a number", BAD_URL)
        options = str(params.get("options") or "")
        params["options"] = f"{options} -c default_transaction_read_only=on".strip()
        params.setdefault("application_name", APPLICATION_NAME)
        params.setdefault("connect_timeout", str(self.connect_timeout))
        # A server that vanishes mid-query is noticed in seconds, not after TCP's minutes.
        params.setdefault("keepalives", "1")
        params.setdefault("keepalives_idle", "5")
        params.setdefault("keepalives_interval", "2")
        params.setdefault("keepalives_count", "2")
        params.setdefault("tcp_user_timeout", str(self.connect_timeout * 2000))
        return params

    def connect(self) -> Any:
        if self._conn is not None and not self._conn.closed:
            return self._conn
        psycopg = _psycopg()
        params = self._params()
        try:
            try:
                conn = psycopg.connect(**params)
            except psycopg.OperationalError as exc:
                if "unsupported startup parameter" not in str(exc):
                    raise
                # A pooler (PgBouncer) refuses `options`: every transaction is READ ONLY anyway.
                params.pop("options", None)
                conn = psycopg.connect(**params)
        except psycopg.Error as exc:
            raise self._classify_connect(exc, params) from None
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

    def _classify_connect(self, exc: Exception, params: Mapping[str, Any]) -> MemorySourceError:
        text = str(exc)
        low = text.lower()
        where = target(self.url)
        user = params.get("user") or "(the OS user)"
        dbname = params.get("dbname") or user
        if "connection refused" in low:
            return self._error(
                f"connection refused: no PostgreSQL server is listening for {where} "
                "(is it running, on that host and port?)",
                UNREACHABLE,
            )
        if "no such file or directory" in low and "socket" in low:
            return self._error(f"no PostgreSQL server socket for {where} (is it running?)", UNREACHABLE)
        if "failed to resolve host" in low or "could not translate host name" in low:
            return self._error(f"unknown host: {_first_line(exc)}", UNREACHABLE)
        if "timeout expired" in low or "timed out" in low:
            return self._error(f"no answer from {where} within {self.connect_timeout} s", UNREACHABLE)
        if "password authentication failed" in low or "authentication failed" in low:
            return self._error(f"authentication failed for user {user}", PERMISSION)
        if "no password supplied" in low:
            return self._error(
                f"the server asks user {user} for a password and none was given "
                "(put it in the URL, ~/.pgpass or $PGPASSWORD)",
                PERMISSION,
            )
        if "does not exist" in low and "database" in low:
            return self._error(f"database {dbname} does not exist on {where.split(' on ', 1)[-1]}", MISSING)
        if "does not exist" in low and "role" in low:
            return self._error(f"user {user} does not exist on that server", PERMISSION)
        if "permission denied for database" in low or "not permitted to log in" in low:
            return self._error(
                f"user {user} may not connect to database {dbname} (GRANT CONNECT ON DATABASE {dbname} TO {user})",
                PERMISSION,
            )
        if "no pg_hba.conf entry" in low:
            return self._error(f"the server's pg_hba.conf refuses user {user} from here", PERMISSION)
        return self._error(f"cannot connect to {where}: {_first_line(exc)}", UNREACHABLE)

    def read(self, work: Callable[[Any], Any]) -> Any:
        """Run `work(cursor)` in one READ ONLY, REPEATABLE READ transaction, then roll back.

        Any failure becomes a MemorySourceError; a broken connection is
        closed, so the next call reconnects.
        """
        psycopg = _psycopg()
        conn = self.connect()
        try:
            with conn.cursor() as cur:
                cur.execute(f"SET LOCAL statement_timeout = {int(self.statement_timeout_ms)}")
                cur.execute(f"SET LOCAL lock_timeout = {LOCK_TIMEOUT_MS}")
                result = work(cur)
            conn.rollback()
            return result
        except MemorySourceError:
            self._rollback_quietly()
            raise
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

    # -- schema -----------------------------------------------------------

    def shapes(self, cur, tables: Sequence[str]) -> dict[str, TableShape]:
        """The tables' columns; a clear error for a missing schema, table, column or grant."""
        missing = [t for t in tables if t not in self._shapes]
        if not missing:
            return {t: self._shapes[t] for t in tables}
        user, database = cur.execute("SELECT current_user::text, current_database()::text").fetchone()
        self.user, self.database = user, database
        schemas = sorted({t.split(".")[0] for t in missing})
        found = {
            name: usable
            for name, usable in cur.execute(
                "SELECT nspname::text, has_schema_privilege(oid, 'USAGE') FROM pg_catalog.pg_namespace "
                "WHERE nspname = ANY(%s)",
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
            "SELECT n.nspname::text || '.' || c.relname::text, has_table_privilege(c.oid, 'SELECT'), "
            "  array(SELECT a.attname::text FROM pg_catalog.pg_attribute a "
            "        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) "
            "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname::text || '.' || c.relname::text = ANY(%s)",
            (list(missing),),
        ).fetchall()
        by_name = {name: (can_select, frozenset(cols)) for name, can_select, cols in rows}
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

    def agents(self, cur) -> list[str]:
        """Every agent with memories or logged turns."""
        shapes = self.shapes(cur, MEMORY_TABLES)
        parts = [f"SELECT DISTINCT agent_id::text FROM {t}" for t in shapes]
        for table in LOG_TABLES:
            if self._table_exists(cur, table):
                self.shapes(cur, (table,))
                parts.append(f"SELECT DISTINCT agent_id::text FROM {table}")
        return [row[0] for row in cur.execute(" UNION ".join(parts) + " ORDER BY 1").fetchall()]

    def _table_exists(self, cur, table: str) -> bool:
        if table in self._shapes:
            return True
        return cur.execute("SELECT to_regclass(%s) IS NOT NULL", (table,)).fetchone()[0]

    def resolve_agent(self, cur, agent: str | None, problems: list[Problem]) -> str:
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

    def memories(self, cur, agent: str, report: Report) -> list[MemoryRecord]:
        """The agent's four memory tables as records (see the module docstring for the mapping)."""
        shapes = self.shapes(cur, MEMORY_TABLES)
        records: list[MemoryRecord] = []
        for table, reader in _MEMORY_READERS.items():
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

    def snapshot(self, cur) -> str:
        """The server's transaction snapshot ("xmin:xmax:in-progress"): it moves on any commit anywhere.

        A cheap gate (no table is read): equal snapshots mean nothing
        committed since, so no table can differ.
        """
        return cur.execute("SELECT txid_current_snapshot()::text").fetchone()[0]

    def memory_token(self, cur, agent: str) -> tuple:
        """Per memory table: rows and the newest row version (max xmin) of the agent.

        An insert or a delete changes the count; an update writes a new row
        version whose xmin is the newest. One index scan per table.
        """
        shapes = self.shapes(cur, MEMORY_TABLES)
        parts = [
            f"(SELECT count(*)::bigint || ':' || coalesce(max(xmin::text::bigint), 0) FROM {t} WHERE agent_id = %s)"
            for t in shapes
        ]
        return tuple(cur.execute("SELECT " + ", ".join(parts), (agent,) * len(parts)).fetchone())

    def log_token(self, cur, agent: str) -> tuple:
        """The newest row of each log table for the agent (through their time indexes)."""
        self.shapes(cur, LOG_TABLES)
        return tuple(
            cur.execute(
                "SELECT (SELECT id || '@' || \"timestamp\"::text FROM nous_system.context_log WHERE agent_id = %s "
                '        ORDER BY "timestamp" DESC LIMIT 1), '
                "       (SELECT id || '@' || \"timestamp\"::text FROM nous_system.retrieval_log WHERE agent_id = %s "
                '        ORDER BY "timestamp" DESC LIMIT 1)',
                (agent, agent),
            ).fetchone()
        )

    # -- the turn log -----------------------------------------------------

    def turns(self, cur, agent: str, limit: int = 50) -> list[TurnSummary]:
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
            _TURNS_SQL.format(keys=_RECENT_KEYS), {"agent": agent, "limit": limit, "scan": limit * SCAN_PER_TURN}
        ).fetchall()
        return [_summary(agent, row) for row in rows]

    def turn(self, cur, agent: str | None, key: str) -> Turn:
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
        rows = cur.execute(_TURNS_SQL.format(keys=_ONE_KEY), params).fetchall()
        summary = _summary(agent_id, rows[0]) if rows else None
        calls = tuple(
            _call(row)
            for row in cur.execute(
                _CALL_SQL + " WHERE agent_id = %(agent)s AND session_id IS NOT DISTINCT FROM %(session)s "
                'AND turn_number IS NOT DISTINCT FROM %(turn)s ORDER BY "timestamp", id',
                params,
            ).fetchall()
        )
        retrieval = None
        rid = retrieval_id or (summary.retrieval_id if summary else None)
        if rid is not None:
            row = cur.execute(_RETRIEVAL_SQL + " WHERE id = %s", (rid,)).fetchone()
            retrieval = _retrieval(row) if row else None
        if summary is None or (retrieval_id and summary.retrieval_id != retrieval_id and retrieval is not None):
            summary = _summary_of(agent_id, session_id, turn_number, calls, retrieval)
        return Turn(summary, calls, retrieval)

    def _locate(self, cur, agent: str | None, key: str):
        """(agent, session, turn, retrieval id or None) for a turn key; None when nothing matches."""
        scope = " AND agent_id = %(agent)s" if agent else ""
        params = {"key": key, "agent": agent}
        row = cur.execute(
            "SELECT agent_id, session_id, turn_number, path FROM nous_system.retrieval_log WHERE id = %(key)s" + scope,
            params,
        ).fetchone()
        if row is not None:
            return row[0], row[1], row[2], key if row[3] == "context" else None
        row = cur.execute(
            "SELECT agent_id, session_id, turn_number FROM nous_system.context_log WHERE id = %(key)s" + scope, params
        ).fetchone()
        if row is not None:
            return row[0], row[1], row[2], None
        session, sep, number = key.rpartition("#")
        if sep and number.strip().lstrip("-").isdigit():
            params.update(session=session, turn=int(number))
            for table in LOG_TABLES:
                row = cur.execute(
                    f"SELECT agent_id FROM {table} WHERE session_id = %(session)s "
                    f"AND turn_number = %(turn)s{scope} LIMIT 1",
                    params,
                ).fetchone()
                if row is not None:
                    return row[0], session, int(number), None
        return None

    def rows(self, cur, refs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], NousRow]:
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
            names = _ROW_COLUMNS[mem_type]
            exprs = ", ".join(_row_expr(shape, name) for name in names)
            for row in cur.execute(
                f"SELECT id::text, {exprs} FROM {table} WHERE id = ANY(%s::uuid[])", (ids,)
            ).fetchall():
                values = {name: _plain(value) for name, value in zip(names, row[1:], strict=True)}
                found[(mem_type, row[0])] = NousRow(mem_type, row[0], values)
        # Keyed as the log spells the ids (nous logs str(uuid): lower case, dashes).
        out: dict[tuple[str, str], NousRow] = {}
        for mem_type, ids in wanted.items():
            for mem_id in ids:
                row = found.get((mem_type, mem_id)) or found.get((mem_type, _canonical_uuid(mem_id)))
                if row is not None:
                    out[(mem_type, mem_id)] = row
        return out


# -- SQL and row builders -----------------------------------------------------

# The newest turns: the newest rows of each log (a turn's API calls are rarely more than a few dozen), grouped.
_RECENT_KEYS = """
recent AS (
    (SELECT session_id, turn_number, "timestamp" FROM nous_system.context_log
     WHERE agent_id = %(agent)s ORDER BY "timestamp" DESC LIMIT %(scan)s)
    UNION ALL
    (SELECT session_id, turn_number, "timestamp" FROM nous_system.retrieval_log
     WHERE agent_id = %(agent)s AND path = 'context' AND session_id IS NOT NULL AND turn_number IS NOT NULL
     ORDER BY "timestamp" DESC LIMIT %(limit)s)
), keys AS (
    SELECT session_id, turn_number FROM recent GROUP BY session_id, turn_number
    ORDER BY max("timestamp") DESC LIMIT %(limit)s
)"""
_ONE_KEY = """
keys AS (SELECT %(session)s::text AS session_id, %(turn)s::integer AS turn_number)"""
# Turns as (session, turn) pairs; context_log and retrieval_log joined on them (nous leaves trace_id NULL).
_TURNS_SQL = """
WITH {keys}, calls AS (
    SELECT c.session_id, c.turn_number, count(*) AS n, min(c."timestamp") AS first_at,
           (array_agg(c.id ORDER BY c."timestamp", c.id))[1] AS first_id
    FROM nous_system.context_log c
    JOIN keys k ON c.session_id = k.session_id AND c.turn_number = k.turn_number
    WHERE c.agent_id = %(agent)s GROUP BY c.session_id, c.turn_number
), rets AS (
    SELECT DISTINCT ON (r.session_id, r.turn_number) r.id, r.session_id, r.turn_number, r."timestamp", r.query,
           r.n_candidates, r.n_rendered, r.candidates IS NOT NULL AS sampled
    FROM nous_system.retrieval_log r JOIN keys k ON r.session_id = k.session_id AND r.turn_number = k.turn_number
    WHERE r.agent_id = %(agent)s AND r.path = 'context'
    ORDER BY r.session_id, r.turn_number, r."timestamp" DESC, r.id DESC
), recalls AS (
    SELECT r.session_id, r.turn_number, count(*) AS n
    FROM nous_system.retrieval_log r JOIN keys k ON r.session_id = k.session_id AND r.turn_number = k.turn_number
    WHERE r.agent_id = %(agent)s AND r.path <> 'context' GROUP BY r.session_id, r.turn_number
), turns AS (
    SELECT coalesce(rets.id, calls.first_id) AS key, coalesce(rets.session_id, calls.session_id) AS session_id,
           coalesce(rets.turn_number, calls.turn_number) AS turn_number,
           coalesce(calls.first_at, rets."timestamp") AS "when", calls.n AS n_calls, calls.first_id,
           rets.id AS retrieval_id, rets.query, rets.n_candidates, rets.n_rendered,
           coalesce(rets.sampled, false) AS sampled
    FROM calls FULL JOIN rets ON rets.session_id = calls.session_id AND rets.turn_number = calls.turn_number
)
SELECT t.key, t.session_id, t.turn_number, t."when", c.frame_id, c.model, coalesce(t.n_calls, 0), c.token_breakdown,
       c.total_tokens_est, t.retrieval_id, t.n_candidates, t.n_rendered, t.sampled, t.query, coalesce(r.n, 0)
FROM turns t
LEFT JOIN nous_system.context_log c ON c.id = t.first_id
LEFT JOIN recalls r ON r.session_id = t.session_id AND r.turn_number = t.turn_number
ORDER BY t."when" DESC, t.key DESC
"""
SCAN_PER_TURN = 20  # context_log rows read per listed turn: enough for tool loops of 20 calls

_CALL_SQL = """
SELECT id, "timestamp", call_type, model, frame_id, token_breakdown, total_tokens_est, context_window_size,
       utilization_pct, sections_present, loaded_facts, loaded_decisions, loaded_procedures, loaded_episodes,
       recent_conversations, input_tokens_actual, output_tokens, cache_read, cache_creation, duration_ms,
       stop_reason, trace_id
FROM nous_system.context_log
"""

_RETRIEVAL_SQL = """
SELECT id, "timestamp", query, duration_ms, legs, n_candidates, n_rendered, disposition_counts, candidates, truncated,
       excluded_types, trace_id
FROM nous_system.retrieval_log
"""


def _summary(agent: str, row) -> TurnSummary:
    (key, session, number, when, frame, model, n_calls, tokens, total, rid, n_cand, n_rend, sampled, query, recalls) = (
        row
    )
    return TurnSummary(
        key=key,
        agent_id=agent,
        session_id=session,
        turn_number=number,
        timestamp=iso(when),
        frame_id=frame,
        model=model,
        calls=int(n_calls or 0),
        tokens=parse_counts(tokens),
        total_tokens_est=total,
        retrieval_id=rid,
        n_candidates=n_cand,
        n_rendered=n_rend,
        sampled=bool(sampled),
        query=query,
        recall_calls=int(recalls or 0),
    )


def _summary_of(agent, session, number, calls: tuple[ContextCall, ...], retrieval: Retrieval | None) -> TurnSummary:
    first = calls[0] if calls else None
    key = retrieval.id if retrieval is not None else (first.id if first else f"{session}#{number}")
    return TurnSummary(
        key=key,
        agent_id=agent,
        session_id=session,
        turn_number=number,
        timestamp=first.timestamp if first else (retrieval.timestamp if retrieval else ""),
        frame_id=first.frame_id if first else None,
        model=first.model if first else None,
        calls=len(calls),
        tokens=dict(first.token_breakdown) if first else {},
        total_tokens_est=first.total_tokens_est if first else None,
        retrieval_id=retrieval.id if retrieval else None,
        n_candidates=retrieval.n_candidates if retrieval else None,
        n_rendered=retrieval.n_rendered if retrieval else None,
        sampled=bool(retrieval and retrieval.sampled),
        query=retrieval.query if retrieval else None,
    )


def _call(row) -> ContextCall:
    (
        cid,
        when,
        call_type,
        model,
        frame,
        tokens,
        total,
        window,
        util,
        present,
        lf,
        ld,
        lp,
        le,
        rc,
        inp,
        out,
        cache_read,
        cache_creation,
        duration,
        stop,
        trace,
    ) = row
    return ContextCall(
        id=cid,
        timestamp=iso(when),
        call_type=call_type,
        model=model,
        frame_id=frame,
        token_breakdown=parse_counts(tokens),
        total_tokens_est=int(total or 0),
        context_window_size=int(window or 0),
        utilization_pct=float(util or 0.0),
        sections_present=tuple(present or ()),
        loaded={"facts": lf, "decisions": ld, "procedures": lp, "episodes": le, "recent_conversations": rc},
        input_tokens_actual=inp,
        output_tokens=out,
        cache_read=cache_read,
        cache_creation=cache_creation,
        duration_ms=duration,
        stop_reason=stop,
        trace_id=trace,
    )


def _retrieval(row) -> Retrieval:
    (rid, when, query, duration, legs, n_cand, n_rend, counts, candidates, truncated, excluded, trace) = row
    excluded_items = (
        tuple(item for item in (excluded or []) if isinstance(item, dict)) if isinstance(excluded, list) else ()
    )
    return Retrieval(
        id=rid,
        timestamp=iso(when),
        query=query,
        duration_ms=duration,
        legs=parse_legs(legs),
        n_candidates=int(n_cand or 0),
        n_rendered=int(n_rend or 0),
        disposition_counts=parse_counts(counts),
        candidates=parse_candidates(candidates),
        truncated=bool(truncated),
        excluded_types=excluded_items,
        trace_id=trace,
    )


# Columns each rebuild reads, by type (see notes/nous.md §2.4 step 2).
_ROW_COLUMNS = {
    "decision": ("description", "outcome", "confidence", "context", "pattern", "created_at"),
    "fact": (
        "content",
        "subject",
        "confidence",
        "category",
        "active",
        "superseded_by",
        "overrides_prior",
        "created_at",
    ),
    "procedure": (
        "name",
        "domain",
        "description",
        "implementation_notes",
        "core_patterns",
        "goals",
        "tags",
        "activation_count",
        "active",
        "kind",
        "created_at",
    ),
    "episode": ("title", "summary", "outcome", "started_at", "structured_summary", "active", "tags", "created_at"),
}
_TIME_COLUMNS = frozenset({"created_at", "started_at"})


def _row_expr(shape: TableShape, name: str) -> str:
    if name not in shape.columns:
        return "NULL"
    if name in _TIME_COLUMNS:
        return f"(\"{name}\" AT TIME ZONE 'UTC')"  # naive UTC, as asyncpg hands nous its datetimes
    if name == "superseded_by":
        return f'"{name}"::text'
    return f'"{name}"'


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(value)
    return value


def _canonical_uuid(text: str) -> str:
    digits = text.replace("-", "").lower()
    if len(digits) != 32:
        return text
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _record(
    report: Report,
    kind: str,
    table: str,
    mid: str,
    title: str,
    body: str,
    summary: str | None,
    tags: str | None,
    confidence,
    status: str,
    superseded_by: str | None,
    created: str | None,
    updated: str | None,
    accessed: str | None,
) -> MemoryRecord | None:
    return make_record(
        report,
        ORIGIN_NOUS,
        None,
        f"{table}:{mid}",
        kind,
        title,
        body,
        summary,
        tags,
        None,
        0.5,
        confidence,
        status,
        superseded_by,
        created,
        updated or created or "",
        accessed,
        0,
        0,
        (),
        title_is_derived=True,
    )


def _decisions(shape: TableShape):
    t = TEXT_TIME
    sql = (
        f"SELECT id::text, description, {shape.col('context')}, {shape.col('pattern')}, "
        f"{shape.col('outcome_result')}, {shape.col('outcome')}, "
        f"{shape.col('superseded_by', 'superseded_by::text')}, "
        f"{shape.col('confidence')}, {shape.col('category', 'json_build_array(category)::text')}, "
        f"{shape.col('created_at', t.format('created_at'))}, {shape.col('updated_at', t.format('updated_at'))} "
        "FROM brain.decisions WHERE agent_id = %s ORDER BY created_at, id"
    )

    def build(report: Report, row) -> MemoryRecord | None:
        mid, description, context, pattern, result, outcome, superseded_by, confidence, tags, created, updated = row
        line = _one_line(description)
        title = _clip(line, 120)
        parts = [description] if (title != line or "\n" in (description or "")) else []
        parts += [
            p
            for p in (context, f"Pattern: {pattern}" if pattern else None, f"Outcome: {result}" if result else None)
            if p
        ]
        if outcome == "superseded" or superseded_by:
            status = "superseded"
        elif outcome == "noise":
            status = "archived"
        else:
            status = "active"
        return _record(
            report,
            "decision",
            "decisions",
            mid,
            title,
            "\n\n".join(parts),
            description,
            tags,
            confidence,
            status,
            superseded_by,
            created,
            updated,
            None,
        )

    return sql, build


def _facts(shape: TableShape):
    t = TEXT_TIME
    created = "coalesce(created_at, learned_at)" if "created_at" in shape.columns else "learned_at"
    sql = (
        f"SELECT id::text, content, {shape.col('subject')}, {shape.col('confidence')}, {shape.col('active')}, "
        f"{shape.col('superseded_by', 'superseded_by::text')}, {shape.col('tags', 'array_to_json(tags)::text')}, "
        f"{t.format(created) if 'learned_at' in shape.columns or 'created_at' in shape.columns else 'NULL'}, "
        f"{shape.col('updated_at', t.format('updated_at'))}, "
        f"{shape.col('last_recalled_at', t.format('last_recalled_at'))} "
        "FROM heart.facts WHERE agent_id = %s ORDER BY 8, id"
    )

    def build(report: Report, row) -> MemoryRecord | None:
        mid, content, subject, confidence, active, superseded_by, tags, created, updated, recalled = row
        title = _one_line(subject) or v.first_line(content)
        status = "superseded" if superseded_by else ("archived" if active is False else "active")
        return _record(
            report,
            "fact",
            "facts",
            mid,
            title,
            content or "",
            None,
            tags,
            confidence,
            status,
            superseded_by,
            created,
            updated,
            recalled,
        )

    return sql, build


def _procedures(shape: TableShape):
    t = TEXT_TIME
    sql = (
        f"SELECT id::text, name, {shape.col('description')}, {shape.col('implementation_notes')}, "
        f"{shape.col('active')}, {shape.col('superseded_by', 'superseded_by::text')}, "
        f"{shape.col('archived_at', 'archived_at IS NOT NULL')}, {shape.col('tags', 'array_to_json(tags)::text')}, "
        f"{shape.col('created_at', t.format('created_at'))}, {shape.col('updated_at', t.format('updated_at'))}, "
        f"{shape.col('last_activated', t.format('last_activated'))} "
        "FROM heart.procedures WHERE agent_id = %s ORDER BY created_at, id"
    )

    def build(report: Report, row) -> MemoryRecord | None:
        mid, name, description, notes, active, superseded_by, archived, tags, created, updated, activated = row
        steps = "\n".join(str(n) for n in (notes or ()) if not str(n).startswith(("source:", "version:")))
        body = "\n\n".join(p for p in (description, steps) if p)
        if superseded_by:
            status = "superseded"
        elif archived or active is False:
            status = "archived"
        else:
            status = "active"
        return _record(
            report,
            "procedure",
            "procedures",
            mid,
            _one_line(name),
            body,
            description,
            tags,
            None,
            status,
            superseded_by,
            created,
            updated,
            activated,
        )

    return sql, build


def _episodes(shape: TableShape):
    t = TEXT_TIME
    created = "coalesce(started_at, created_at)" if "created_at" in shape.columns else "started_at"
    sql = (
        f"SELECT id::text, {shape.col('title')}, summary, {shape.col('active')}, "
        f"{shape.col('tags', 'array_to_json(tags)::text')}, "
        f"{t.format(created) if 'started_at' in shape.columns else 'NULL'} "
        "FROM heart.episodes WHERE agent_id = %s ORDER BY 6, id"
    )

    def build(report: Report, row) -> MemoryRecord | None:
        mid, title, summary, active, tags, created = row
        # nous's own fallback for an untitled episode (context.py:1492): the summary's first 60 characters.
        heading = _one_line(title) or _one_line((summary or "")[:60]) or "Untitled"
        status = "archived" if active is False else "active"
        return _record(
            report,
            "episode",
            "episodes",
            mid,
            heading,
            summary or "",
            None,
            tags,
            None,
            status,
            None,
            created,
            None,
            None,
        )

    return sql, build


_MEMORY_READERS = {
    "brain.decisions": _decisions,
    "heart.facts": _facts,
    "heart.procedures": _procedures,
    "heart.episodes": _episodes,
}


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _latest_date(now: datetime | None) -> str:
    if now is None:
        return MAX_DATE
    return min(MAX_DATE, (now + timedelta(days=1)).date().isoformat())


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


def _load(store: NousStore, agent: str | None, now: datetime | None, project: str | None):
    problems: list[Problem] = []

    def work(cur):
        who = store.resolve_agent(cur, agent, problems)
        snapshot = store.snapshot(cur)
        token = store.memory_token(cur, who)
        report = Report(store.name, problems, _latest_date(now))
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
        self._token: tuple | None = None
        self._log_snapshot: str | None = None
        self._log_token: tuple | None = None

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

            def work(cur):
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

            def work(cur):
                return self.store.snapshot(cur), self.store.log_token(cur, agent), self.store.turns(cur, agent, limit)

            self._log_snapshot, self._log_token, found = self.store.read(work)
            return found

    def turns_changed(self) -> bool:
        """True when a turn was logged since the last `turns()` (or that never ran, or failed)."""
        with self._lock:
            if self._log_token is None or self.agent is None:
                return True
            agent = self.agent

            def work(cur):
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

    def memory_state(self, since: str | None) -> tuple[str, tuple | None]:
        """The server snapshot, and the agent's memory token unless nothing committed since `since`.

        For watchers of their own (the Turns view re-reads an open turn's rows
        when this token moves); `changed()` is the same check for `load()`.
        """
        with self._lock:
            agent = self.resolve_agent()

            def work(cur):
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

    def __exit__(self, *exc) -> None:
        self.close()


def read_turn(url: str, key: str, agent: str | None = None) -> tuple[Turn, dict[tuple[str, str], NousRow]]:
    """One turn and the memory rows of its candidates, read once (the CLI's way)."""
    store = NousStore(url)
    try:

        def work(cur):
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

        def work(cur):
            who = store.resolve_agent(cur, agent, [])
            return who, store.turns(cur, who, limit)

        return store.read(work)
    finally:
        store.close()


def newest_sampled_turn(url: str, agent: str | None = None) -> str | None:
    """The key of the agent's newest turn whose candidates were sampled, if any."""
    store = NousStore(url)
    try:

        def work(cur):
            who = store.resolve_agent(cur, agent, [])
            store.shapes(cur, LOG_TABLES)
            row = cur.execute(
                "SELECT id FROM nous_system.retrieval_log WHERE agent_id = %s AND path = 'context' "
                'AND candidates IS NOT NULL ORDER BY "timestamp" DESC, id DESC LIMIT 1',
                (who,),
            ).fetchone()
            return row[0] if row else None

        return store.read(work)
    finally:
        store.close()
