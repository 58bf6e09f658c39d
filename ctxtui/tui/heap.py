"""Keeping Python's cyclic garbage collector out of the frames a slider step paints.

With 50,000 memories loaded there are ~300,000 tracked objects, and a full
collection walks them all: 200 ms on the machines measured, and it came in the
middle of a step's paint (118 ms of a 162 ms frame; younger collections cost
5-8 ms per step). Nearly all of it is data that lives as long as the load. So:

- a load runs with the collector off (`loading`), and what it made is
  frozen (`gc.freeze`, O(1)) before the collector is on again: moved where
  no automatic collection looks. Not collected first: a full collection
  then cost 180 ms of the first screen. With the collector on, a load of
  50,000 memories paid ~130 ms of young collections that found nothing,
  and the first allocation after each engine-level pause (`gc_paused`)
  paid one more over everything the pause had made (~100 ms in all);
- when a load's thresholds arrive, everything is frozen again;
- after each step what it made is frozen too, so automatic collections only
  ever look at a step's own young objects;
- what became cyclic garbage meanwhile is collected when the user pauses
  (`IDLE_SECONDS` without a step), or after `MAX_STEPS` steps without a pause,
  so a long session does not accumulate it. Acyclic garbage (most of it: old
  views, plans, rows) is freed by reference counting at once, frozen or not.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from ctxtui.engine.gcpause import pause, resume

IDLE_SECONDS = 3.0
MAX_STEPS = 400


def freeze() -> None:
    """Freeze everything now tracked (after a load): its garbage waits for the next pause's collection."""
    gc.freeze()


@contextmanager
def loading() -> Iterator[None]:
    """The collector off for a load (see above); call `freeze()` inside when the load made something.

    Freezing also empties the youngest generation's count, so the first
    allocation after the load does not start a collection of all it made.
    Only a load that made something is frozen: a reload that found nothing
    new (a checkpoint) or failed leaves garbage (its worker, a traceback)
    that the next automatic collection should see. Process-wide, and shared
    with the engine's own pauses (`gcpause`): the UI thread's few allocations
    meanwhile wait too.
    """
    pause()
    try:
        yield
    finally:
        resume()


def thaw() -> None:
    """Unfreeze everything (the app is closing): later automatic collections see it all again."""
    gc.unfreeze()


def settle() -> None:
    """Collect everything, then freeze what is left (after a load: it lives as long as the load)."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class StepHeap:
    """Counts steps since the last full collection; `step()` freezes what the step made."""

    def __init__(self, max_steps: int = MAX_STEPS) -> None:
        self.max_steps = max_steps
        self.steps = 0

    def step(self) -> bool:
        """Freeze this step's objects; True when it is time to collect even without a pause."""
        gc.freeze()
        self.steps += 1
        return self.steps >= self.max_steps

    def collect(self) -> None:
        """Collect the cyclic garbage of the steps so far (`settle`), if there were any."""
        if self.steps:
            settle()
            self.steps = 0
