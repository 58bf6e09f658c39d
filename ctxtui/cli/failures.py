"""How a headless command fails or warns: one line on stderr, never a traceback.

`UsageError` is a failure the user can fix (exit status 2); `Refused` is ctx
refusing the workspace (`pack` prints what ctx prints and exits as ctx
does); `warn` prints a problem and goes on. Untrusted text goes through the
one sanitiser. Every command module, the peers' included, imports these from
here, below everything that loads a packer.
"""

from __future__ import annotations

import sys

from ctxtui.engine.sources.ctx_gates import Refusal
from ctxtui.safe_text import clean_line


class UsageError(Exception):
    """A failure the user can fix; printed as one line, exit status 2."""


class Refused(Exception):
    """ctx would not build a packet here: `pack` prints what ctx prints and exits as ctx does."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal


def warn(message: str) -> None:
    print(f"ctxtui: warning: {clean_line(message)}", file=sys.stderr)
