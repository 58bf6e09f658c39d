"""The status line's memory segment: whose packet this is, and a memory database waiting to be joined.

ctx never reads `.context/memory.db`, so ctxtui does not join it unasked (the
default packet stays exactly ctx's); when it exists, this segment says so and
names the key that joins it. Once a store is joined (`--db` or that key), it
says the packet is ctx's plus the memories. Kept apart from the rest of the
status line so each part can change alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text


@dataclass(frozen=True, slots=True)
class MemoryNote:
    """What the segment says: `joined` memories (None: no store joined), or a `found` database and its `key`."""

    joined: int | None = None
    found: str | None = None  # the database's name as shown, e.g. ".context/memory.db"
    key: str = "m"

    def text(self, compact: bool, style: str = "bold") -> Text:
        """The segment (empty when there is nothing to say), with its separator."""
        gap = " · " if compact else "  ·  "
        if self.joined is not None:
            return Text(f"{gap}ctx + {self.joined:,} memories")
        if self.found is not None:
            words = f"{self.key}: join memory.db" if compact else f"{self.found} found — press {self.key} to join it"
            return Text(gap).append(words, style=style)
        return Text()
