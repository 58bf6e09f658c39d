"""Telling a database URL from a file path, and showing one without its password.

`--db` takes either a memory database file or a libpq URL (`postgresql://`
or `postgres://`, nous's store). A URL is never a path: `Path()` would fold
its `//` and every file check would fail in confusing ways, so each place
that accepts `--db` asks `is_db_url` first. Pure string work, no imports
of a driver.
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

URL_SCHEMES = ("postgresql://", "postgres://")


def is_db_url(value: object) -> bool:
    """True for a PostgreSQL URL (any libpq URL), whatever follows the scheme."""
    return isinstance(value, str) and value.strip().lower().startswith(URL_SCHEMES)


def redact(url: str) -> str:
    """The URL with any password replaced by `***`, for messages and titles."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return "postgresql://…"
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, hostinfo = netloc.rpartition("@")
        if ":" in userinfo:
            userinfo = userinfo.split(":", 1)[0] + ":***"
        netloc = f"{userinfo}@{hostinfo}"
    query = parts.query
    if "password=" in query:
        query = "&".join("password=***" if item.startswith("password=") else item for item in query.split("&"))
    return parts._replace(netloc=netloc, query=query).geturl()


def target(url: str) -> str:
    """Where a URL points, in words: "database nous on db.example:5432" (no user, no password)."""
    try:
        parts = urlsplit(url.strip())
        query = parse_qs(parts.query)
        host = parts.hostname or (query.get("host", [""])[0]) or "the local socket"
        port = parts.port or (query.get("port", [""])[0]) or 5432
    except ValueError:
        return redact(url)
    dbname = unquote(parts.path.lstrip("/")) or (query.get("dbname", [""])[0]) or "(the user's default)"
    where = f"{host}:{port}" if not host.startswith("/") else f"socket {host} port {port}"
    return f"database {dbname} on {where}"
