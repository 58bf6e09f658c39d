"""Whether a `--db` value is a libpq connection string (a URL or `keyword=value ...`) rather than a file.

Kept apart from `memory.shared.urls` and free of imports: the CLI asks it
of every command line (to keep a password on it out of every message),
and a cold `ctxtui pack` must not import the memory package.
"""

from __future__ import annotations

URL_SCHEMES = ("postgresql://", "postgres://")

# libpq's connection keywords (libpq-connect.html, PostgreSQL 18): a --db that starts with one of
# them followed by "=" is a key=value connection string, not a file name.
LIBPQ_KEYWORDS = frozenset(
    [
        "host",
        "hostaddr",
        "port",
        "dbname",
        "user",
        "password",
        "passfile",
        "require_auth",
        "channel_binding",
        "connect_timeout",
        "client_encoding",
        "options",
        "application_name",
        "fallback_application_name",
        "keepalives",
        "keepalives_idle",
        "keepalives_interval",
        "keepalives_count",
        "tcp_user_timeout",
        "replication",
        "gssencmode",
        "sslmode",
        "sslnegotiation",
        "sslcompression",
        "sslcert",
        "sslkey",
        "sslpassword",
        "sslcertmode",
        "sslrootcert",
        "sslcrl",
        "sslcrldir",
        "sslsni",
        "requirepeer",
        "ssl_min_protocol_version",
        "ssl_max_protocol_version",
        "min_protocol_version",
        "max_protocol_version",
        "krbsrvname",
        "gsslib",
        "gssdelegation",
        "service",
        "target_session_attrs",
        "load_balance_hosts",
        "scram_client_key",
        "scram_server_key",
        "oauth_issuer",
        "oauth_client_id",
        "oauth_client_secret",
        "oauth_scope",
        "sslkeylogfile",
    ]
)


def is_db_url(value: object) -> bool:
    """True for a libpq connection string: a `postgresql://` / `postgres://` URL, or `keyword=value ...`."""
    if not isinstance(value, str):
        return False
    text = value.strip()
    if text.lower().startswith(URL_SCHEMES):
        return True
    key, equals, _ = text.partition("=")
    return bool(equals) and key.strip().lower() in LIBPQ_KEYWORDS
