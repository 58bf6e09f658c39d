"""The app's model: one project, the packer the user chose, and a `View` per budget that owns what derives from it.

`session` holds `Session` (loading, reloads, intents), `view` the `Loaded`
sources and the `View` at one budget, `constants` the limits and names both
share. Everything is re-exported here, so callers write `from ctxtui.session
import Session, View`.
"""

from __future__ import annotations

from ctxtui.session.constants import (
    LARGE_FOR_THRESHOLDS,
    LOAD_STEPS,
    MAX_BUDGET,
    MIN_BUDGET,
    NOUS,
    OWN_BUDGET,
    PROJECT_MEMORY_DB,
    SET_HERE,
    THRESHOLD_SECONDS,
    THRESHOLD_SECONDS_LARGE,
)
from ctxtui.session.session import Session
from ctxtui.session.view import Loaded, View

__all__ = [
    "LARGE_FOR_THRESHOLDS",
    "LOAD_STEPS",
    "MAX_BUDGET",
    "MIN_BUDGET",
    "NOUS",
    "OWN_BUDGET",
    "PROJECT_MEMORY_DB",
    "SET_HERE",
    "THRESHOLD_SECONDS",
    "THRESHOLD_SECONDS_LARGE",
    "Loaded",
    "Session",
    "View",
]
