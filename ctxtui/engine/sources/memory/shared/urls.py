"""Telling a database URL from a file path, and showing one without its secrets.

`--db` takes either a memory database file or a libpq connection string
(nous's store): a URL (`postgresql://` or `postgres://`) or the key=value
form (`host=db dbname=nous`). A URL is never a path: `Path()` would fold
its `//` and every file check would fail in confusing ways, so each place
that accepts `--db` asks `is_db_url` first.

What a connection string holds is read by libpq's own parser
(`PQconninfoParse`, through psycopg's `conninfo_to_dict`), never by a
regex: libpq decodes percent-encoded keys (`?pass%77ord=PW` is a password),
takes the password from the user part of a URL or from `password=`,
`sslpassword=`, `oauth_client_secret=`... Every key libpq itself marks as
not for display (`PQconndefaults`' `dispchar` "*" for secrets, "D" for
debug options such as `scram_client_key`) is dropped before a string is
shown. A string libpq cannot parse is shown as its scheme alone, since its
own error message may quote the whole string. psycopg is imported only
when a connection string is shown, i.e. only for a nous store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine.sources.conninfo import LIBPQ_KEYWORDS, URL_SCHEMES, is_db_url

if TYPE_CHECKING:
    from typing import Any

__all__ = ["URL_SCHEMES", "has_secret", "hidden_keys", "is_db_url", "parse", "redact", "scrub", "secrets_in", "target"]


# Hidden whatever the libpq at hand says (an older libpq does not know the newer ones).
ALWAYS_HIDDEN = frozenset(
    ("password", "sslpassword", "oauth_client_secret", "scram_client_key", "scram_server_key", "sslkeylogfile")
)
_QUOTED = r'"[^"]*"?'
_UNKNOWN_KEY = r'^(invalid URI query parameter: |invalid connection option )"[A-Za-z0-9_%.-]*"$'
_HIDDEN: frozenset[str] | None = None


def _is_url_form(url: str) -> bool:
    return url.strip().lower().startswith(URL_SCHEMES)


def hidden_keys() -> frozenset[str]:
    """Every key libpq will not display (secrets and debug options), plus `ALWAYS_HIDDEN` (asked once)."""
    global _HIDDEN
    if _HIDDEN is None:
        try:
            from psycopg import pq

            keys = {opt.keyword.decode() for opt in pq.Conninfo.get_defaults() if opt.dispchar}
        except Exception:  # pragma: no cover - psycopg is a dependency; keep the static list then
            keys = set()
        _HIDDEN = frozenset(keys | ALWAYS_HIDDEN)
    return _HIDDEN


def parse(url: str) -> dict[str, Any] | None:
    """The connection string's keys and values as libpq reads them, or None when libpq cannot parse it."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        return dict(conninfo_to_dict(url.strip()))
    except Exception:
        return None


def has_secret(url: str) -> bool:
    """True when the connection string itself carries a password or another secret."""
    params = parse(url)
    return params is not None and any(key in hidden_keys() and value for key, value in params.items())


def secrets_in(url: str) -> list[str]:
    """The secret values the string carries, longest first (to scrub them from any text)."""
    params = parse(url)
    if params is None:
        return []
    values = {str(value) for key, value in params.items() if key in hidden_keys() and value}
    return sorted(values, key=len, reverse=True)


def scrub(text: str, url: str) -> str:
    """`text` with every secret value of `url` (3 characters or more) replaced by `***`."""
    for secret in secrets_in(url):
        if len(secret) >= 3:
            text = text.replace(secret, "***")
    return text


def redact(url: str) -> str:
    """The connection string without any secret, for messages and titles (its URL or key=value form kept)."""
    params = parse(url)
    if params is None:
        return "postgresql://…" if _is_url_form(url) or not url.strip() else "(a connection string libpq cannot parse)"
    shown = {key: str(value) for key, value in params.items() if key not in hidden_keys()}
    text = _as_url(shown) if _is_url_form(url) else _as_keywords(shown)
    for secret in secrets_in(url):  # never, by construction; kept as the last word
        if len(secret) >= 3 and secret in text:
            return "postgresql://…" if _is_url_form(url) else "(a connection string)"
    return text


def _as_keywords(params: dict[str, str]) -> str:
    from psycopg.conninfo import make_conninfo

    return make_conninfo("", **params)


def _as_url(params: dict[str, str]) -> str:
    """A `postgresql://` URL of `params` (hosts and ports in the authority when they fit there)."""
    from urllib.parse import quote, urlencode

    rest = dict(params)
    user = rest.pop("user", "")
    dbname = rest.pop("dbname", "")
    host, port = rest.pop("host", ""), rest.pop("port", "")
    hosts, ports = host.split(",") if host else [], port.split(",") if port else []
    netloc = ""
    if hosts and all(h and "/" not in h and not h.startswith("@") for h in hosts) and len(ports) in (0, len(hosts)):
        parts = []
        for i, h in enumerate(hosts):
            shown = f"[{h}]" if ":" in h else quote(h, safe="")
            parts.append(shown + (f":{quote(ports[i], safe='')}" if ports else ""))
        netloc = ",".join(parts)
    else:
        if host:
            rest = {"host": host, **rest}
        if port:
            rest = {"port": port, **rest}
    authority = (quote(user, safe="") + "@" if user else "") + netloc
    path = "/" + quote(dbname, safe="") if dbname else ""
    query = "?" + urlencode(rest, safe="/,", quote_via=quote) if rest else ""
    return f"postgresql://{authority}{path}{query}"


def parse_error(message: str) -> str:
    """libpq's complaint about a malformed string, with every quoted part that is not a keyword left out.

    libpq quotes the offending token, query parameter or even the whole URL
    (`... in URI: "postgresql://u:PW@[::1/db"`), which may hold a password.
    """
    import re

    first = (message.strip().splitlines() or [""])[0]
    if re.match(_UNKNOWN_KEY, first):  # the quoted part is a key the user wrote before its "=": never a value
        return first

    def keep(match: re.Match[str]) -> str:
        word = match.group(0).strip('"')
        if len(word) == 1 and not word.isalnum():  # the separator libpq looked for: "=", "]", ":"
            return match.group(0)
        return match.group(0) if word.lower() in LIBPQ_KEYWORDS and word.lower() not in hidden_keys() else '"…"'

    return re.sub(_QUOTED, keep, first)


def target(url: str) -> str:
    """Where a connection string points, in words: "database nous on db.example:5432" (no user, no password)."""
    params = parse(url)
    if params is None:
        return redact(url)
    host = str(params.get("host") or params.get("hostaddr") or "") or "the local socket"
    port = str(params.get("port") or "") or "5432"
    dbname = str(params.get("dbname") or "") or "(the user's default)"
    where = f"{host}:{port}" if not host.startswith("/") else f"socket {host} port {port}"
    return f"database {dbname} on {where}"
