"""`Record` and `Frozen` behave as the dataclasses they replace: equality, repr, hashing, no assignment, copies."""

from __future__ import annotations

import collections
import copy
import inspect
import keyword
import pickle
import typing

import pytest
from ctxtui.engine.model import Bucket, Entry
from ctxtui.engine.record import FrozenInstanceError, NamedTuple, replace
from ctxtui.engine.sources.steering import SteeringRead
from hypothesis import given, settings
from hypothesis import strategies as st


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


class Light(NamedTuple):
    """A doc."""

    a: int
    b: str | None = None

    @property
    def twice(self) -> int:
        return self.a * 2


class Typed(typing.NamedTuple):
    """A doc."""

    a: int
    b: str | None = None

    @property
    def twice(self) -> int:
        return self.a * 2


def test_named_tuples_are_typings():
    for made in (Light, Typed):
        value = made(2)
        assert value == (2, None) and value.twice == 4 and value.b is None
        assert made._fields == ("a", "b") and made._field_defaults == {"b": None}
        assert value._replace(b="x")._asdict() == {"a": 2, "b": "x"}
        assert made.__doc__ == "A doc." and made.__module__ == __name__
        assert pickle.loads(pickle.dumps(value)) == value
    assert repr(Light(1, "x")) == repr(Typed(1, "x")).replace("Typed", "Light")
    assert Light.__qualname__ == "Light" and list(Light.__annotations__) == ["a", "b"]


def test_a_named_tuple_field_without_default_cannot_follow_one_with():
    with pytest.raises(TypeError):

        class Bad(NamedTuple):
            a: int = 0
            b: int


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
    import inspect

    records = _records()
    assert len(records) >= 15
    for cls in records:
        slots = cls.__dict__["__slots__"]
        assert tuple(inspect.get_annotations(cls)) == tuple(slots), cls
        if "__init__" in cls.__dict__:
            assert tuple(inspect.signature(cls.__init__).parameters)[1:] == tuple(slots), cls


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True), min_size=0, max_size=20, unique=True).filter(
        lambda names: not any(keyword.iskeyword(name) for name in names)
    ),
    st.data(),
)
def test_the_engines_named_tuples_behave_as_collections_namedtuple(fields, data):
    """Made without `eval` (a `__new__` template per field count, renamed): what namedtuple makes, as it makes it."""
    from ctxtui.engine.record import _named_tuple

    defaults = data.draw(st.lists(st.integers(), max_size=len(fields)))
    ours = _named_tuple("Made", fields, defaults, __name__, {})
    theirs = collections.namedtuple("Made", fields, defaults=defaults, module=__name__)
    values = data.draw(st.lists(st.integers(), min_size=len(fields) - len(defaults), max_size=len(fields)))
    mine, other = ours(*values), theirs(*values)
    assert mine == other and tuple(mine) == tuple(other) and hash(mine) == hash(other)
    assert repr(mine) == repr(other) and mine._asdict() == other._asdict()
    assert ours(**dict(zip(fields, values, strict=False))) == mine
    assert [getattr(mine, name) for name in fields] == list(mine)
    assert inspect.signature(ours) == inspect.signature(theirs)
    assert ours._fields == theirs._fields and ours._field_defaults == theirs._field_defaults
    assert ours.__match_args__ == theirs.__match_args__ and ours.__doc__ == theirs.__doc__
    assert ours.__new__.__doc__ == theirs.__new__.__doc__
    changed = {fields[-1]: "new"} if fields else {}
    assert mine._replace(**changed) == other._replace(**changed)
    assert ours._make(list(mine)) == mine
    for bad in (
        lambda: ours(*values, *range(len(fields) + 1)),
        lambda: ours._make([0] * (len(fields) + 1)),
        lambda: ours(nope=1),
    ):
        with pytest.raises(TypeError):
            bad()
    with pytest.raises(ValueError, match="unexpected field names"):
        mine._replace(nope=1)
    with pytest.raises(AttributeError):
        mine.other = 1  # type: ignore[attr-defined]  # no __dict__: slots only, as namedtuple's


def test_named_tuple_names_namedtuple_refuses_are_refused():
    from ctxtui.engine.record import _named_tuple

    for fields in (["a", "a"], ["_a"]):
        with pytest.raises(ValueError):
            _named_tuple("Bad", fields, [], __name__, {})
