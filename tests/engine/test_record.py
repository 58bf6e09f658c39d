"""The engine's records are dataclasses: equality, repr, hashing, no assignment, copies, `replace`.

They were hand-made slotted classes over `engine/record.py` until issue 24
(bought for a few milliseconds of a cold `pack`); these tests held those to
the dataclasses they imitated and now hold the dataclasses to the same
behaviour, so nothing that relied on it moved.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import FrozenInstanceError, replace

import pytest
from ctxtui.engine.model import Bucket, Entry, Problem
from ctxtui.engine.packers.ctx.knobs import CtxKnobs
from ctxtui.engine.sources.steering import SteeringRead


def _entry(**changes) -> Entry:
    return replace(Entry("tasks:1", "tasks", "Do it", "- [ ] Do it", 3, ".context/TASKS.md:1"), **changes)


def test_equality_and_hash_follow_the_fields():
    assert _entry() == _entry()
    assert hash(_entry()) == hash(_entry())
    assert _entry() != _entry(tokens=4)
    assert _entry() != ("tasks:1",)  # another class is never equal
    assert len({_entry(), _entry(), _entry(date="2026-01-01")}) == 2
    assert hash(Problem("p", "m")) == hash(("p", "m", None))


def test_repr_is_the_dataclass_repr():
    assert repr(Bucket(1, "tier 1", None, 10)) == (
        "Bucket(tier=1, name='tier 1', cap=None, used=10, summarized=0, overrun=0, reached=True, "
        "full_limit=None, unbudgeted=0)"
    )
    assert str(Problem("TASKS.md", "too big", 3)) == "TASKS.md:3: too big"  # its own __str__ stays


def test_frozen_records_refuse_assignment():
    bucket, knobs = Bucket(1, "tier 1", None, 10), CtxKnobs()
    with pytest.raises(FrozenInstanceError):
        bucket.used = 5  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        knobs.tool = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del bucket.name  # type: ignore[misc]
    assert bucket.used == 10


def test_copies_and_pickles_are_equal():
    for record in (_entry(extra=(("priority", 5),)), Bucket(2, "tasks", 40, 30), Problem("p", "m", 1), CtxKnobs()):
        assert copy.copy(record) == record
        assert copy.deepcopy(record) == record
        assert pickle.loads(pickle.dumps(record)) == record


def test_mutable_records_change_and_are_unhashable():
    read = SteeringRead("steering", [])
    read.files.append("x")  # type: ignore[arg-type]
    assert read.problems == [] and read.error is None
    assert SteeringRead("steering", []).problems is not SteeringRead("steering", []).problems
    with pytest.raises(TypeError):
        hash(read)


def test_replace_keeps_the_rest_and_refuses_unknown_fields():
    assert replace(_entry(), title="Other").text == "- [ ] Do it"
    with pytest.raises(TypeError):
        replace(_entry(), nope=1)


def _classes() -> list[type]:
    """Every class the engine and the openers define (their modules imported)."""
    import importlib
    import pkgutil

    import ctxtui

    found = []
    for module in pkgutil.walk_packages(ctxtui.__path__, "ctxtui."):
        if module.name.startswith(("ctxtui.tui", "ctxtui.cli.tui", "ctxtui.demo")) or module.name.endswith("__main__"):
            continue
        loaded = importlib.import_module(module.name)
        found += [c for c in vars(loaded).values() if isinstance(c, type) and c.__module__ == module.name]
    return found


def test_no_hand_made_record_comes_back():
    """A class with fields (annotations) and `__slots__` is a dataclass or a NamedTuple, not a hand-made record
    that lists its fields three times (slots, annotations, `__init__`)."""
    classes = _classes()
    records = [c for c in classes if dataclasses.is_dataclass(c)]
    assert len(records) >= 40
    hand_made = [
        c
        for c in classes
        if c.__dict__.get("__slots__")  # fields of its own
        and inspect.get_annotations(c)
        and not dataclasses.is_dataclass(c)
        and not issubclass(c, tuple)
    ]
    assert hand_made == []


@pytest.mark.parametrize(
    "name",
    [
        "ctxtui.engine.model.Bucket",
        "ctxtui.engine.model.Problem",
        "ctxtui.engine.packers.base.Knob",
        "ctxtui.engine.packers.ctx.state.CtxPacket",
        "ctxtui.engine.packers.ctx.versions.CtxVersion",
        "ctxtui.engine.sources.ctxrc.CtxConfig",
        "ctxtui.opening.request.PackRequest",
    ],
)
def test_the_values_are_frozen_slotted_dataclasses(name):
    import importlib

    module, _, attr = name.rpartition(".")
    cls = getattr(importlib.import_module(module), attr)
    assert cls.__dataclass_params__.frozen and "__slots__" in cls.__dict__
