"""The engine's records: equality, repr, hashing, no assignment, copies, `_replace`.

They were hand-made slotted classes over `engine/record.py` until issue 24,
then dataclasses; the records a cold `pack` makes are now `typing.NamedTuple`
(values) and plain classes with `__slots__` (filled in as they are built), so
that `pack` imports no `dataclasses` (docs/performance.md, "The engine's
records"); records off that path stay dataclasses. These tests hold each kind
to the behaviour the code relies on.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle

import pytest
from ctxtui.engine.model import Bucket, Entry, Problem
from ctxtui.engine.packers.ctx.knobs import CtxKnobs
from ctxtui.engine.sources.steering import SteeringRead

# Made by a cold `pack`: values as NamedTuples, records filled in as they are built as plain slotted classes.
PACK_PATH_VALUES = (
    "ctxtui.detect.Detected",
    "ctxtui.engine.model.Entry",
    "ctxtui.engine.model.Bucket",
    "ctxtui.engine.model.Problem",
    "ctxtui.engine.packers.base.Knob",
    "ctxtui.engine.packers.ctx.knobs.CtxKnobs",
    "ctxtui.engine.packers.ctx.prepared.CtxInputs",
    "ctxtui.engine.packers.ctx.state.CtxPacket",
    "ctxtui.engine.packers.ctx.versions.CtxVersion",
    "ctxtui.engine.sources.context.ParsedContext",
    "ctxtui.engine.sources.ctx_gates.Refusal",
    "ctxtui.engine.sources.ctxrc.CtxConfig",
    "ctxtui.engine.sources.steering.SteeringFile",
    "ctxtui.engine.sources.steering.SkillFile",
    "ctxtui.opening.choose.Choice",
    "ctxtui.opening.request.PackRequest",
)
PACK_PATH_FILLED = (
    "ctxtui.engine.packers.ctx.state.SectionFill",
    "ctxtui.engine.packers.ctx.state.CtxState",
    "ctxtui.engine.sources.context.ContextFiles",
    "ctxtui.engine.sources.steering.SteeringRead",
    "ctxtui.engine.sources.workspace.Workspace",
    "ctxtui.opening.request.Opened",
)


def _class(name: str) -> type:
    module, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def _entry(**changes) -> Entry:
    return Entry("tasks:1", "tasks", "Do it", "- [ ] Do it", 3, ".context/TASKS.md:1")._replace(**changes)


def test_equality_and_hash_follow_the_fields():
    assert _entry() == _entry()
    assert hash(_entry()) == hash(_entry())
    assert _entry() != _entry(tokens=4)
    assert _entry() != ("tasks:1",)
    assert len({_entry(), _entry(), _entry(date="2026-01-01")}) == 2
    assert hash(Problem("p", "m")) == hash(("p", "m", None))


def test_repr_names_the_fields():
    assert repr(Bucket(1, "tier 1", None, 10)) == (
        "Bucket(tier=1, name='tier 1', cap=None, used=10, summarized=0, overrun=0, reached=True, "
        "full_limit=None, unbudgeted=0)"
    )
    assert str(Problem("TASKS.md", "too big", 3)) == "TASKS.md:3: too big"  # its own __str__ stays


def test_frozen_records_refuse_assignment():
    bucket, knobs = Bucket(1, "tier 1", None, 10), CtxKnobs()
    with pytest.raises(AttributeError):
        bucket.used = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        knobs.tool = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del bucket.name  # type: ignore[misc]
    with pytest.raises(AttributeError):
        bucket.other = 1  # type: ignore[attr-defined]
    assert bucket.used == 10


def test_copies_and_pickles_are_equal():
    for record in (_entry(extra=(("priority", 5),)), Bucket(2, "tasks", 40, 30), Problem("p", "m", 1), CtxKnobs()):
        assert copy.copy(record) == record
        assert copy.deepcopy(record) == record
        assert pickle.loads(pickle.dumps(record)) == record
        assert type(pickle.loads(pickle.dumps(record))) is type(record)


def test_mutable_records_change_and_take_no_other_attribute():
    read = SteeringRead("steering", [])
    read.files.append("x")  # type: ignore[arg-type]
    read.error = Problem("steering/a.md", "bad")
    assert read.problems == [] and read.warnings is None
    assert SteeringRead("steering", []).problems is not SteeringRead("steering", []).problems
    with pytest.raises(AttributeError):
        read.other = 1  # type: ignore[attr-defined]


def test_replace_keeps_the_rest_and_refuses_unknown_fields():
    assert _entry()._replace(title="Other").text == "- [ ] Do it"
    with pytest.raises(ValueError):
        _entry()._replace(nope=1)


@pytest.mark.parametrize("name", PACK_PATH_VALUES)
def test_the_pack_paths_values_are_namedtuples(name):
    cls = _class(name)
    assert issubclass(cls, tuple) and cls._fields and not dataclasses.is_dataclass(cls)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", PACK_PATH_FILLED)
def test_the_pack_paths_filled_records_are_slotted_plain_classes(name):
    cls = _class(name)
    assert "__slots__" in cls.__dict__ and not dataclasses.is_dataclass(cls) and not issubclass(cls, tuple)
    # Every parameter of `__init__` is a slot (the others start empty or None).
    assert set(inspect.signature(cls.__init__).parameters) - {"self"} <= set(cls.__slots__)


def _classes() -> list[type]:
    """Every class the engine and the openers define (their modules imported)."""
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
    assert len(records) >= 20  # off the pack path: the TUI's session, memory stores, history, explanations
    hand_made = [
        c
        for c in classes
        if c.__dict__.get("__slots__")  # fields of its own
        and inspect.get_annotations(c)
        and not dataclasses.is_dataclass(c)
        and not issubclass(c, tuple)
    ]
    assert hand_made == []
