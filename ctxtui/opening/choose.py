"""Which packer by default: --packer, else $CTXTUI_PACKER, else the version of the `ctx` on PATH.

The chosen name comes with where it came from, for the status line ("ctx
0.8.0 on PATH") and with the detection's notice when it fell back.
"""

import os
from collections.abc import Mapping
from typing import NamedTuple

from ctxtui.engine.packers.registry import CTX_PACKERS, PACKERS
from ctxtui.opening.request import OpenError

PACKER_ENV = "CTXTUI_PACKER"


class Choice(NamedTuple):
    """A packer name, where the choice came from, and a notice when detection fell back."""

    name: str
    source: str  # "--packer", "$CTXTUI_PACKER", "ctx 0.8.0 on PATH", "no usable ctx on PATH", "switched"...
    notice: str | None = None


def choose_packer(given: str | None, env: Mapping[str, str] | None = None) -> Choice:
    """The packer to open: the one given, else $CTXTUI_PACKER, else the ctx on PATH (0.8.1 when none)."""
    env = os.environ if env is None else env
    if given:
        if given not in PACKERS:
            raise OpenError(f"unknown packer {given!r} (one of {', '.join(PACKERS)})")
        return Choice(given, "--packer")
    chosen = env.get(PACKER_ENV, "").strip()
    if chosen:
        if chosen not in CTX_PACKERS:
            raise OpenError(f"${PACKER_ENV}: unknown packer {chosen!r} (one of {', '.join(CTX_PACKERS)})")
        return Choice(chosen, f"${PACKER_ENV}")
    from ctxtui.detect import detect_ctx

    detected = detect_ctx(env)
    return Choice(detected.packer, detected.describe, detected.notice)
