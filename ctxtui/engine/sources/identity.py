"""What a `.context/` entry *is*, as a key that survives edits elsewhere in its file.

A key joins an entry across budgets, reloads, packers and commits: the step
marks, the pin, the diffs and the selection all compare by it. So it is made
from the entry itself, never from where it sits: a task, convention or rule
by its text with runs of whitespace made one space, a decision or learning by
its own header (`[YYYY-MM-DD-HHMMSS] Title`, ctx's identity for it: its body
may grow and it is the same decision). Two entries of one file that would get
the same key are told apart by an occurrence number counted from the top
(`#1`, `#2`...), always written so that no text can pose as another's number.
The line an entry sits on is its *location* (`Entry.source`), shown and
exported beside the key, never part of it. See docs/identity.md.
"""

from __future__ import annotations


def normalised(text: str) -> str:
    """The text with every run of whitespace one space and none at either end (a tab or two spaces is no edit)."""
    # Most texts are already so: every whitespace character but " " is unprintable to Python, and checking is
    # cheaper than splitting into words (ctx-large's 601 texts: 2.5 vs 3.1 ms, measured on a loaded machine).
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


class Keys:
    """Keys for the entries of one section of one file, in file order; a repeat gets the next occurrence."""

    __slots__ = ("_prefix", "_seen")

    def __init__(self, section: str, path: str) -> None:
        self._prefix = f"{section}:{path}:"
        self._seen: dict[str, int] = {}

    def __call__(self, identity: str) -> str:
        """`section:path:identity#n`, n the how-manieth entry of this identity in the file (from 1)."""
        ident = normalised(identity)
        n = self._seen.get(ident, 0) + 1
        self._seen[ident] = n
        return f"{self._prefix}{ident}#{n}"
