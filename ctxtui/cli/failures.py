"""How a headless command fails or warns: one line on stderr, never a traceback.

`UsageError` is a failure the user can fix (exit status 2) — the openers'
`OpenError` under the CLI's name; `Refused` is ctx refusing the workspace
(`pack` prints what ctx prints and exits as ctx does); `warn` prints a
problem and goes on. Untrusted text goes through the one sanitiser.
"""

from __future__ import annotations

import sys

from ctxtui.opening.request import OpenError, Refused, ToolAnswered
from ctxtui.safe_text import clean_line

UsageError = OpenError

__all__ = ["Refused", "ToolAnswered", "UsageError", "warn"]


def warn(message: str) -> None:
    print(f"ctxtui: warning: {clean_line(hide_secrets(message))}", file=sys.stderr)


# A password in a connection string on the command line (`--db postgresql://u:PW@…`).
PASSWORD_IN_ARGV = (
    "the password in the --db connection string is visible to other users of this machine (in `ps` and "
    "/proc) while ctxtui runs: put it in ~/.pgpass or $PGPASSWORD instead (libpq reads both)"
)
_HIDDEN: list[str] = []  # secret values from the command line, never printed


def note_secrets(argv: list[str]) -> bool:
    """Remember every secret a connection string in `argv` carries (so no message prints it); True if any.

    Only an argument that looks like a libpq connection string is parsed
    (by libpq itself), so a command line without one costs a regex.
    """
    from ctxtui.engine.sources.conninfo import is_db_url

    values = [arg.split("=", 1)[1] if arg.startswith("--db=") else arg for arg in argv]
    urls = [value for value in values if is_db_url(value)]
    if not urls:
        return False
    from ctxtui.engine.sources.memory.shared.urls import secrets_in

    found = [secret for url in urls for secret in secrets_in(url)]
    _HIDDEN[:] = sorted({*_HIDDEN, *found}, key=len, reverse=True)
    return bool(found)


def hide_secrets(text: str) -> str:
    """`text` without any secret `note_secrets` found (3 characters or more), each as `***`."""
    for secret in _HIDDEN:
        if len(secret) >= 3:
            text = text.replace(secret, "***")
    return text
