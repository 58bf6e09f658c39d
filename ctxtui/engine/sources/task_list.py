"""The pending tasks of one TASKS.md, held as positions in the file's text: each `Entry` is made when asked for.

As an `Entry`, a task costs about 530 bytes (the object and four strings:
text, title, key, location) for a 40-byte line, so a TASKS.md of a million
tasks held 14 to 19 times the file (issue 20, medium 17). A `TaskList`
keeps, per task, where its title lies in the text, its line, its tokens and
its occurrence number (five numbers in arrays, 28 bytes) and the text it
came from; `tasks[i]` makes the very `Entry` that `parse_tasks` used to make
(key, title, text, tokens, location), every time it is asked. It is an
immutable sequence: shared, never copied.

Reading the tasks' tokens (`tokens`) or their packet lines (`lines()`)
makes no entry at all, which is all a packet needs of the tasks it leaves
out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from itertools import accumulate
from typing import Any, overload

from ctxtui.engine.model import Entry
from ctxtui.engine.sources.identity import normalised

TASK_PREFIX = "- [ ] "
# Past this many tasks the columns become arrays of 8-byte numbers; below it they stay lists, so that a cold
# `pack` of an ordinary project does not load the `array` extension (tests/test_pack_imports.py).
COMPACT_AT = 4096


def _compact(values: Iterable[int]) -> MutableSequence[int]:
    from array import array

    return array("q", values)


def cumulative(tokens: Sequence[int]) -> Sequence[int]:
    """[0, t0, t0 + t1, …]: a list, or for many tasks an array (8 bytes a task, not a list's 40)."""
    if len(tokens) < COMPACT_AT:
        return [0, *accumulate(tokens)]
    sums = _compact((0,))
    sums.extend(accumulate(tokens))
    return sums


class TaskList(Sequence[Entry]):
    """Pending tasks of one file, in file order (see the module docstring)."""

    __slots__ = ("_text", "_path", "_key_prefix", "_starts", "_ends", "_lines", "tokens", "_nth")

    def __init__(self, text: str, path: str) -> None:
        self._text = text
        self._path = path
        self._key_prefix = f"tasks:{path}:"
        self._starts: MutableSequence[int] = []
        self._ends: MutableSequence[int] = []
        self._lines: MutableSequence[int] = []
        self.tokens: MutableSequence[int] = []  # each task's cost, as `Entry.tokens`
        self._nth: MutableSequence[int] = []  # the key's occurrence number

    def add(self, start: int, end: int, line: int, tokens: int, nth: int) -> None:
        """One more task, its title `text[start:end]` (parse_tasks builds the list; it is not changed after)."""
        self._starts.append(start)
        self._ends.append(end)
        self._lines.append(line)
        self.tokens.append(tokens)
        self._nth.append(nth)
        if len(self._starts) == COMPACT_AT:
            self._starts, self._ends, self._lines = map(_compact, (self._starts, self._ends, self._lines))
            self.tokens, self._nth = _compact(self.tokens), _compact(self._nth)

    def title(self, index: int) -> str:
        return self._text[self._starts[index] : self._ends[index]]

    def _entry(self, index: int) -> Entry:
        title = self.title(index)
        line = TASK_PREFIX + title
        return Entry(
            key=f"{self._key_prefix}{normalised(title)}#{self._nth[index]}",
            section="tasks",
            title=title,
            text=line,
            tokens=self.tokens[index],
            source=f"{self._path}:{self._lines[index]}",
        )

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | list[Entry]:
        if isinstance(index, slice):
            return [self._entry(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("task index out of range")
        return self._entry(index)

    def __iter__(self) -> Iterator[Entry]:
        return map(self._entry, range(len(self)))

    def lines(self) -> TaskLines:
        """Each task's packet line (`Entry.text`), made when read."""
        return TaskLines(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TaskList) and other._path == self._path and other._text == self._text:
            return True  # the same text parsed the same way
        if not isinstance(other, Sequence) or isinstance(other, str) or len(other) != len(self):
            return NotImplemented if not isinstance(other, Sequence) else False
        return all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # compared by value, as a list is

    def __repr__(self) -> str:
        return f"TaskList({self._path!r}, {len(self)} tasks)"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt, (list(self),))


def _rebuilt(entries: list[Entry]) -> list[Entry]:
    """A pickled TaskList comes back as the list of its entries (no caller relies on the class)."""
    return entries


class TaskLines(Sequence[str]):
    """The packet lines of a `TaskList`'s tasks ("- [ ] title"), each made when read."""

    __slots__ = ("_tasks",)

    def __init__(self, tasks: TaskList) -> None:
        self._tasks = tasks

    def __len__(self) -> int:
        return len(self._tasks)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [TASK_PREFIX + self._tasks.title(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("task index out of range")
        return TASK_PREFIX + self._tasks.title(index)

    def __iter__(self) -> Iterator[str]:
        title = self._tasks.title
        return (TASK_PREFIX + title(i) for i in range(len(self)))


class Occurrences:
    """How many times each identity was seen so far, exactly, keeping only a hash for an identity seen once.

    `nth(ident, at, ident_at)`: the occurrence number (from 1) of `ident`,
    the identity of item `at`; `ident_at(i)` gives item i's identity again.
    Most identities are seen once: for those only (hash → first item) is
    kept, not the text (a `Keys` dict of a million titles costs three times
    the file). An identity met again, or another with the same hash, is
    counted by its text.
    """

    __slots__ = ("_first", "_counts")
    hash_of = staticmethod(hash)  # a test sets a colliding one

    def __init__(self) -> None:
        self._first: dict[int, int] = {}
        self._counts: dict[str, int] = {}

    def nth(self, ident: str, at: int, ident_at: Callable[[int], str]) -> int:
        earlier = self._first.setdefault(self.hash_of(ident), at)
        if earlier == at:
            return 1
        counts = self._counts
        known = counts.get(ident)
        if known is None:
            # The item that had this hash first is not counted yet only if it has been seen once.
            counts.setdefault(ident_at(earlier), 1)
            known = counts.get(ident, 0)
        counts[ident] = known + 1
        return known + 1
