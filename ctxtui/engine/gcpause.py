"""Pause the cyclic garbage collector around a burst of allocations.

Loads and outcome lists allocate hundreds of thousands of acyclic objects;
each burst triggers collections that traverse every live object (a 50,000
memory workspace included) and find nothing. Pausing them cuts that work out.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause automatic collection (if it was on) for the duration of the block."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
