"""`Record` and `Frozen` behave as the dataclasses they replace: equality, repr, hashing, no assignment, copies."""

from __future__ import annotations

import copy
import inspect
import pickle

import pytest
from ctxtui.engine.model import Bucket, Entry
from ctxtui.engine.record import FrozenInstanceError, replace
from ctxtui.engine.sources.steering import SteeringRead


def _entry(**changes) -> Entry:
    return replace(Entry("tasks:1", "tasks", "Do it", "- [ ] Do it", 3, ".context/TASKS.md:1"), **changes)


def test_equality_and_hash_follow_the_fields():
    assert _entry() == _entry()
    assert hash(_entry()) == hash(_entry())
    assert _entry() != _entry(tokens=4)
    assert _entry() != ("tasks:1",)  # another class is never equal
    assert len({_entry(), _entry(), _entry(date="2026-01-01")}) == 2


def test_repr_is_the_dataclass_repr():
    assert repr(Bucket(1, "tier 1", None, 10)) == (
        "Bucket(tier=1, name='tier 1', cap=None, used=10, summarized=0, overrun=0, reached=True, "
        "full_limit=None, unbudgeted=0)"
    )


def test_frozen_records_refuse_assignment():
    entry = _entry()
    with pytest.raises(FrozenInstanceError):
        entry.tokens = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del entry.title
    assert entry.tokens == 3


def test_copies_and_pickles_are_equal():
    entry = _entry(extra=(("priority", 5),))
    assert copy.copy(entry) == entry
    assert copy.deepcopy(entry) == entry
    assert pickle.loads(pickle.dumps(entry)) == entry


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


def _records() -> list[type]:
    """Every Record subclass the engine and the openers define (imported so they exist)."""
    import importlib
    import pkgutil

    import ctxtui

    for module in pkgutil.walk_packages(ctxtui.__path__, "ctxtui."):
        if not module.name.startswith(("ctxtui.tui", "ctxtui.cli.tui", "ctxtui.demo")) and not module.name.endswith(
            "__main__"
        ):
            importlib.import_module(module.name)
    from ctxtui.engine.record import Record

    found, todo = [], [Record]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    own = ("ctxtui.engine.record",)  # the bases themselves
    return [
        c for c in found if c.__module__.startswith("ctxtui.") and c.__module__ not in own and "__slots__" in c.__dict__
    ]


def test_every_record_spells_its_fields_once_in_the_same_order():
    """A hand-made record lists its fields three times (slots, annotations, __init__): they must agree, or
    `replace`, equality and repr silently drop or misplace a field."""

    records = _records()
    assert len(records) >= 15
    for cls in records:
        slots = cls.__dict__["__slots__"]
        assert tuple(inspect.get_annotations(cls)) == tuple(slots), cls
        if "__init__" in cls.__dict__:
            assert tuple(inspect.signature(cls.__init__).parameters)[1:] == tuple(slots), cls
