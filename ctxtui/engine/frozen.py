"""`frozen_record`: a dataclass that type checkers hold frozen, built at the speed of a plain one.

A frozen dataclass's `__init__` sets each field through `object.__setattr__`
(its own `__setattr__` refuses): with 21 fields that is ~2 µs an object,
against ~0.25 µs for the same slotted dataclass unfrozen. 50,000 memories
make a record each (`MemoryRecord`, 21 fields) at start-up: frozen, that was
~0.1 s (issues 11 and 24; figures in docs/performance.md, "The engine's
records"). Classes made with this decorator are slotted, compare and hash by
their fields exactly as `@dataclass(frozen=True, slots=True)` would, and mypy
treats them as frozen (PEP 681's `frozen_default`), so assigning a field is a
type error everywhere it is checked; at run time nothing stops it, and
nothing in ctxtui does it. The records a cold `pack` makes (`Entry` among
them) are `typing.NamedTuple`s, off that path records are dataclasses,
frozen where they are values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def frozen_record(cls: type[T]) -> type[T]:
    """`@dataclass(frozen=True, slots=True)` for type checkers; eq, hash and slots alike at run time."""
    return dataclass(slots=True, unsafe_hash=True)(cls)
