"""Value classes without `dataclasses`: the base of the engine's small records on the cold `pack` path.

`@dataclass` costs a cold `ctxtui pack` twice: importing `dataclasses` pulls
in `inspect` (with `ast`, `dis`, `tokenize`: ~6 ms on an unoptimised build),
and each slotted dataclass is made at import time by generating, compiling
and running its methods' source and building the class twice (0.2–1 ms each;
the pack path had 22). So the records `pack` imports are plain slotted
classes with an explicit `__init__`, and these bases give them what the
decorator generated, read from `__slots__` (the fields, in order): equality
with a record of the same class, the same `repr`, and for `Frozen` ones
hashing, no assignment and copying. `replace` stands in for
`dataclasses.replace`.

`typing` costs a cold start ~2 ms more, and its `NamedTuple` does more per
class than `collections.namedtuple` (a forward reference for every field), so
at run time the engine's NamedTuples (the numbers behind reasons, built by
the thousand per slider step) come from `NamedTuple` here: the same class
syntax and the same behaviour, made without `namedtuple`'s `eval` (see
`_named_tuple`). Type checkers see typing's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, TypeVar
    from typing import NamedTuple as NamedTuple

    R = TypeVar("R", bound="Record")

    def _tuplegetter(index: int, doc: str | None) -> Any: ...

else:
    try:
        from _collections import _tuplegetter  # what collections.namedtuple makes its fields with
    except ImportError:  # pragma: no cover - CPython has it
        from operator import itemgetter as _itemgetter

        def _tuplegetter(index, doc):
            return property(_itemgetter(index), doc=doc)

    class _NamedTupleMeta(type):
        """`class X(NamedTuple): a: int; b: str = ""` made as typing makes it, without checking annotations."""

        _FROM_CLASS = frozenset({"__module__", "__qualname__", "__annotations__"})

        def __new__(cls, name, bases, namespace):
            if "__annotations__" not in namespace:  # lazily evaluated annotations (3.14) would leave no fields
                raise TypeError(f"{name}: the engine's NamedTuple needs `from __future__ import annotations`")
            fields = list(namespace["__annotations__"])
            defaults = [namespace[field] for field in fields if field in namespace]
            if any(field not in namespace for field in fields[len(fields) - len(defaults) :]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            own = {key: value for key, value in namespace.items() if key not in cls._FROM_CLASS and key not in fields}
            made = _named_tuple(name, fields, defaults, namespace["__module__"], own)
            made.__annotations__ = dict(namespace["__annotations__"])
            made.__qualname__ = namespace.get("__qualname__", name)
            return made

    def NamedTuple(typename, fields=None, /):
        raise TypeError("the engine's NamedTuple takes the class syntax only")

    _NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})
    NamedTuple.__mro_entries__ = lambda bases: (_NamedTuple,)

__all__ = ["Frozen", "FrozenInstanceError", "NamedTuple", "Record", "replace", "slot_setters"]

_tuple_new = tuple.__new__
_function: Any = type(lambda: None)  # types.FunctionType, without importing `types` on a cold `pack`


# `__new__` for 1 to 14 fields: `collections.namedtuple` compiles one like these for every class (`eval`,
# ~20 of its ~55 µs a class, cold). Each class's is one of these with the fields' names put in its code
# (`_named_tuple`): the same function, keyword arguments and speed, without compiling anything.
def _new1(_cls, a0):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0,))


def _new2(_cls, a0, a1):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1))


def _new3(_cls, a0, a1, a2):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2))


def _new4(_cls, a0, a1, a2, a3):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3))


def _new5(_cls, a0, a1, a2, a3, a4):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3, a4))


def _new6(_cls, a0, a1, a2, a3, a4, a5):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5))


def _new7(_cls, a0, a1, a2, a3, a4, a5, a6):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6))


def _new8(_cls, a0, a1, a2, a3, a4, a5, a6, a7):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7))


def _new9(_cls, a0, a1, a2, a3, a4, a5, a6, a7, a8):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8))


def _new10(_cls, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9))


def _new11(_cls, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10))


def _new12(_cls, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11))


def _new13(_cls, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12))


def _new14(_cls, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13):  # type: ignore[no-untyped-def]
    return _tuple_new(_cls, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13))


_NEW = (_new1, _new2, _new3, _new4, _new5, _new6, _new7, _new8, _new9, _new10, _new11, _new12, _new13, _new14)


def _new_for(name: str, fields: list[str], defaults: list[Any]) -> Any:
    """`__new__(_cls, <fields>)` with the fields' defaults, as `collections.namedtuple` makes it."""
    if 1 <= len(fields) <= len(_NEW):
        template = _NEW[len(fields) - 1]
        code = template.__code__.replace(
            co_varnames=("_cls", *fields), co_name="__new__", co_qualname=f"{name}.__new__"
        )
        new = _function(code, template.__globals__, "__new__", tuple(defaults) or None)
    else:  # more fields (or none): compiled, as namedtuple does
        parameters, items = ", ".join(["_cls", *fields]), "".join(f"{field}, " for field in fields)
        new = eval(f"lambda {parameters}: _tuple_new(_cls, ({items}))", {"_tuple_new": _tuple_new})
        new.__name__, new.__qualname__, new.__defaults__ = "__new__", f"{name}.__new__", tuple(defaults) or None
    new.__doc__ = f"Create new instance of {name}({_listed(fields)})"  # namedtuple's
    return new


class _Tuple(tuple):  # type: ignore[type-arg]
    """What `collections.namedtuple` gives each class, written once: repr, `_asdict`, `_replace`, `_make`."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True)])
        return f"{self.__class__.__name__}({shown})"

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self, strict=True))

    @classmethod
    def _make(cls, iterable: Any) -> Any:
        made = _tuple_new(cls, iterable)
        if len(made) != len(cls._fields):
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(made)}")
        return made

    def _replace(self, /, **changes: Any) -> Any:
        made = self._make(map(changes.pop, self._fields, self))
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return made

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)


def _listed(fields: list[str]) -> str:
    """The fields as namedtuple writes them in its docstrings: "a," for one, "a, b" for two."""
    return repr(tuple(fields)).replace("'", "")[1:-1]


def _named_tuple(name: str, fields: list[str], defaults: list[Any], module: str, own: dict[str, Any]) -> type:
    """A class as `collections.namedtuple(name, fields, defaults=defaults, module=module)` makes it, with `own`
    (the class body's methods, properties and docstring) added. Field names come from annotations, so
    they are identifiers; like namedtuple, names with a leading underscore or repeated are refused."""
    if len(set(fields)) != len(fields) or any(field.startswith("_") for field in fields):
        raise ValueError(f"{name}: field names must be distinct and not start with an underscore: {fields}")
    namespace: dict[str, Any] = {
        "__doc__": f"{name}({_listed(fields)})",  # namedtuple's
        "__slots__": (),
        "_fields": tuple(fields),
        "_field_defaults": dict(zip(fields[len(fields) - len(defaults) :], defaults, strict=True)),
        "__new__": _new_for(name, fields, defaults),
        "__match_args__": tuple(fields),
        "__module__": module,
    }
    for index, field in enumerate(fields):
        namespace[field] = _tuplegetter(index, f"Alias for field number {index}")
    namespace.update(own)
    return type(name, (_Tuple,), namespace)


class FrozenInstanceError(AttributeError):
    """An assignment to a field of a frozen record (as `dataclasses.FrozenInstanceError`)."""


class Record:
    """Fields are `__slots__`; equal when of the same class with equal fields (unhashable: it can change)."""

    __slots__: tuple[str, ...] = ()

    def _fields(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__slots__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._fields() == other._fields()
        return NotImplemented

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{self.__class__.__qualname__}({shown})"


class Frozen(Record):
    """A record that cannot change after `__init__` (which sets fields with `object.__setattr__`)."""

    __slots__: tuple[str, ...] = ()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> tuple[Any, ...]:
        return self._fields()

    def __setstate__(self, state: tuple[Any, ...]) -> None:  # copy and pickle
        for name, value in zip(self.__slots__, state, strict=True):
            object.__setattr__(self, name, value)


def replace(record: R, /, **changes: Any) -> R:
    """A new record of the same class with some fields changed (an unknown name raises TypeError)."""
    values = {name: getattr(record, name) for name in record.__slots__}
    values.update(changes)
    return record.__class__(**values)


def slot_setters(cls: type[Record]) -> tuple[Any, ...]:
    """Each field's slot setter, in `__slots__` order: `setter(record, value)` sets the field even on a
    `Frozen` record, a C call without `object.__setattr__`'s name lookup (for records made by the 50,000)."""
    return tuple(cls.__dict__[name].__set__ for name in cls.__slots__)
