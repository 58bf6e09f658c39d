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
`dataclasses.replace`. (The engine's NamedTuples are typing's since issue 24;
these records are still to become `dataclasses`.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TypeVar

    R = TypeVar("R", bound="Record")

__all__ = ["Frozen", "FrozenInstanceError", "Record", "replace", "slot_setters"]


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
