"""How a nous connection is set up, and what a failed connection attempt means, in one line.

The session is pinned before anything runs in it: `options` carries
`-c default_transaction_read_only=on -c search_path=pg_catalog`, which the
server applies over the database's and the role's own settings (client
settings rank above `ALTER DATABASE/ROLE … SET`), so a database whose
owner set `search_path = evil, pg_catalog` cannot put its own operators and
functions in front of PostgreSQL's in ctxtui's queries. Every transaction
pins the search path again (`TRANSACTION_SETUP`), for a pooler that refuses
`options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ctxtui.engine.sources.memory.shared.errors import MISSING, PERMISSION, UNREACHABLE
from ctxtui.engine.sources.memory.shared.urls import target

SESSION_OPTIONS = "-c default_transaction_read_only=on -c search_path=pg_catalog"
# The first statement of every transaction: only schema-qualified catalog functions, so it is safe whatever the
# search path; it pins the path and sets both timeouts for this transaction.
TRANSACTION_SETUP = (
    "SELECT pg_catalog.set_config('search_path', 'pg_catalog', true), "
    "pg_catalog.set_config('statement_timeout', %s, true), pg_catalog.set_config('lock_timeout', %s, true)"
)


def first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def classify_connect(exc: Exception, params: Mapping[str, Any], url: str, connect_timeout: int) -> tuple[str, str]:
    """(message, kind) for a failed connection attempt."""
    text = str(exc)
    low = text.lower()
    where = target(url)
    user = params.get("user") or "(the OS user)"
    dbname = params.get("dbname") or user
    if "connection refused" in low:
        return (
            f"connection refused: no PostgreSQL server is listening for {where} "
            "(is it running, on that host and port?)",
            UNREACHABLE,
        )
    if "no such file or directory" in low and "socket" in low:
        return (f"no PostgreSQL server socket for {where} (is it running?)", UNREACHABLE)
    if "failed to resolve host" in low or "could not translate host name" in low:
        return (f"unknown host: {first_line(exc)}", UNREACHABLE)
    if "timeout expired" in low or "timed out" in low:
        return (f"no answer from {where} within {connect_timeout} s", UNREACHABLE)
    if "password authentication failed" in low or "authentication failed" in low:
        return (f"authentication failed for user {user}", PERMISSION)
    if "no password supplied" in low:
        return (
            f"the server asks user {user} for a password and none was given "
            "(put it in ~/.pgpass or $PGPASSWORD; in the URL, other users see it in `ps`)",
            PERMISSION,
        )
    if "does not exist" in low and "database" in low:
        return (f"database {dbname} does not exist on {where.split(' on ', 1)[-1]}", MISSING)
    if "does not exist" in low and "role" in low:
        return (f"user {user} does not exist on that server", PERMISSION)
    if "permission denied for database" in low or "not permitted to log in" in low:
        return (
            f"user {user} may not connect to database {dbname} (GRANT CONNECT ON DATABASE {dbname} TO {user})",
            PERMISSION,
        )
    if "no pg_hba.conf entry" in low:
        return (f"the server's pg_hba.conf refuses user {user} from here", PERMISSION)
    return (f"cannot connect to {where}: {first_line(exc)}", UNREACHABLE)
