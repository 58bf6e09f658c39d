"""Time bounds for the engine's long scans, with the clock on this side of the engine.

The engine is deterministic given its inputs: it never reads the clock. A
scan that must stop in time (thresholds, coverage) takes a `should_stop`
callable instead, and the CLI, the session and the TUI build one here from
their bound in seconds, joined with their own reason to stop (a stale load,
a cancelled worker).
"""

from __future__ import annotations

import time
from collections.abc import Callable


def stop_after(seconds: float, also: Callable[[], bool] | None = None) -> Callable[[], bool]:
    """A `should_stop` that turns true `seconds` from now (a monotonic clock), or when `also` does."""
    deadline = time.perf_counter() + seconds

    def should_stop() -> bool:
        return time.perf_counter() > deadline or bool(also and also())

    return should_stop
