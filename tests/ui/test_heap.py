"""The step heap policy (tui/heap.py): steps freeze what they made, garbage is collected on a pause."""

from __future__ import annotations

import gc
import threading

from ctxtui.engine.gcpause import gc_paused
from ctxtui.tui.heap import StepHeap, freeze, loading, settle


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_a_step_freezes_and_a_collection_frees_the_cycles_of_the_steps():
    settle()
    heap = StepHeap(max_steps=3)
    frozen = gc.get_freeze_count()
    Cycle()  # cyclic garbage made during a step
    assert heap.step() is False
    assert gc.get_freeze_count() > frozen  # the step's objects (the garbage too) are out of the collector's way
    assert heap.step() is False and heap.step() is True  # too many steps without a pause: time to collect
    heap.collect()
    assert heap.steps == 0
    gc.unfreeze()
    assert not any(type(o) is Cycle for o in gc.get_objects())  # the collection freed it
    gc.freeze()


def test_collect_without_steps_does_nothing():
    heap = StepHeap()
    frozen = gc.get_freeze_count()
    heap.collect()
    assert gc.get_freeze_count() == frozen and heap.steps == 0


def test_a_load_runs_without_the_collector_and_ends_frozen():
    settle()
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    with loading():
        assert not gc.isenabled()
        made = [Cycle() for _ in range(1000)]
        freeze()  # the load made something
    assert gc.isenabled() and gc.get_count()[0] < 100  # frozen, so no young collection of it all comes next
    assert gc.get_freeze_count() >= frozen + len(made)


def test_a_failed_or_empty_load_gives_the_collector_back_and_freezes_nothing():
    """Its garbage (a worker, a traceback) stays where the next automatic collection sees it."""
    settle()
    frozen = gc.get_freeze_count()
    try:
        with loading():
            garbage = [Cycle() for _ in range(100)]
            raise ValueError("unreadable")
    except ValueError:
        pass
    with loading():
        pass  # a reload that found nothing new
    assert gc.isenabled() and gc.get_freeze_count() == frozen and garbage


def _engine_pause(inside: threading.Event, done: threading.Event) -> None:
    with gc_paused():
        inside.set()
        done.wait()


def test_overlapping_pauses_on_two_threads_leave_the_collector_on():
    """A load on one thread and an engine pause on another, ending in either order: the collector comes back."""
    settle()
    for load_ends_first in (True, False):
        inside, done = threading.Event(), threading.Event()
        worker = threading.Thread(target=_engine_pause, args=(inside, done))
        with loading():
            worker.start()
            inside.wait()
            if not load_ends_first:
                done.set()
                worker.join()
                assert not gc.isenabled()  # the load still runs
        assert gc.isenabled() is not load_ends_first  # on only once both have ended
        done.set()
        worker.join()
        assert gc.isenabled()
