"""Pause the cyclic garbage collector around a burst of allocations.

Loads and outcome lists allocate hundreds of thousands of acyclic objects;
each burst triggers collections that traverse every live object (a 50,000
memory workspace included) and find nothing. Pausing them cuts that work out.

A class rather than `contextlib.contextmanager`: a cold `ctxtui pack` passes
through here, and importing contextlib costs it ~0.4 ms.
"""

from __future__ import annotations

import gc


class gc_paused:
    """Pause automatic collection (if it was on) for the duration of the block."""

    __slots__ = ("was_enabled",)

    def __enter__(self) -> None:
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info: object) -> None:
        if self.was_enabled:
            gc.enable()
