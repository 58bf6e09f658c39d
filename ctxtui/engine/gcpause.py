"""Pause the cyclic garbage collector around a burst of allocations.

Loads and outcome lists allocate hundreds of thousands of acyclic objects;
each burst triggers collections that traverse every live object (a 50,000
memory workspace included) and find nothing. Pausing them cuts that work out.

A class rather than `contextlib.contextmanager`: a cold `ctxtui pack` passes
through here, and importing contextlib costs it ~0.4 ms.
"""

from __future__ import annotations

import gc
from threading import Lock

# One pause for the whole process, however many threads pause at once (a load on a worker while
# the thresholds scan and a step assemble): the first in turns the collector off if it was on, the
# last out turns it back on. Each thread keeping its own "was it on?" could read "off" while another
# paused, and leave the collector off for good.
_lock = Lock()
_depth = 0
_restore = False


def pause() -> None:
    """Stop automatic collection until the matching `resume()` (nested and threaded pauses count up)."""
    global _depth, _restore
    with _lock:
        if _depth == 0:
            _restore = gc.isenabled()
            gc.disable()
        _depth += 1


def resume() -> None:
    """End a `pause()`: the last one to end turns the collector back on if the first found it on."""
    global _depth
    with _lock:
        _depth -= 1
        if _depth == 0 and _restore:
            gc.enable()


class gc_paused:
    """Pause automatic collection (if it was on) for the duration of the block."""

    __slots__ = ()

    def __enter__(self) -> None:
        pause()

    def __exit__(self, *exc_info: object) -> None:
        resume()
