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
    print(f"ctxtui: warning: {clean_line(message)}", file=sys.stderr)
