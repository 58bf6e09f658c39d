"""The pending tasks of one TASKS.md, held as positions in the file's text: each `Entry` is made when asked for.

As an `Entry`, a task costs about 530 bytes (the object and four strings:
text, title, key, location) for a 40-byte line, so a TASKS.md of a million
tasks held 14 to 19 times the file (issue 20, medium 17). A `TaskList`
keeps, per task, where its title lies in the text, its line and its tokens
(four numbers, in arrays: 32 bytes) and the text it came from; `tasks[i]`
makes the very `Entry` that `parse_tasks` used to make (key, title, text,
tokens, location), every time it is asked. It is an immutable sequence:
shared, never copied.

A key's occurrence number ("#2" for a title's second task) depends only on
the tasks before it, so it is counted when first needed, up to the task
asked for: a packet asks only for the tasks it prints, a prefix, and never
pays for a dict of every title (three times the file for a million). The
app, which lists every task, counts them all once.

Reading the tasks' tokens (`tokens`) or their packet lines (`lines()`)
makes no entry at all, which is all a packet needs of the tasks it leaves
out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from itertools import accumulate
from threading import Lock
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

    __slots__ = ("_text", "_path", "_key_prefix", "_starts", "_ends", "_lines", "tokens", "_nth", "_seen", "_lock")

    def __init__(self, text: str, path: str) -> None:
        self._text = text
        self._path = path
        self._key_prefix = f"tasks:{path}:"
        self._starts: MutableSequence[int] = []
        self._ends: MutableSequence[int] = []
        self._lines: MutableSequence[int] = []
        self.tokens: MutableSequence[int] = []  # each task's cost, as `Entry.tokens`
        self._nth: list[int] = []  # the keys' occurrence numbers, of the first len(_nth) tasks
        self._seen: dict[str, int] = {}  # identity → tasks with it among those
        self._lock = Lock()  # the app's workers may ask for entries at once

    def add(self, start: int, end: int, line: int, tokens: int) -> None:
        """One more task, its title `text[start:end]` (parse_tasks builds the list; it is not changed after)."""
        self._starts.append(start)
        self._ends.append(end)
        self._lines.append(line)
        self.tokens.append(tokens)
        if len(self._starts) == COMPACT_AT:
            self._starts, self._ends, self._lines = map(_compact, (self._starts, self._ends, self._lines))
            self.tokens = _compact(self.tokens)

    def title(self, index: int) -> str:
        return self._text[self._starts[index] : self._ends[index]]

    def _nth_of(self, index: int, ident: str) -> int:
        """The occurrence number of task `index`'s identity, counting the tasks up to it if not yet done."""
        nth = self._nth
        if index < len(nth):
            return nth[index]
        with self._lock:
            seen = self._seen
            for i in range(len(nth), index + 1):  # from where the last count stopped (maybe another thread's)
                same = normalised(self.title(i)) if i != index else ident
                n = seen.get(same, 0) + 1
                seen[same] = n
                nth.append(n)
        return nth[index]

    def _entry(self, index: int) -> Entry:
        title = self.title(index)
        line = TASK_PREFIX + title
        ident = normalised(title)
        return Entry(
            key=f"{self._key_prefix}{ident}#{self._nth_of(index, ident)}",
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
