"""Paths spelled as pathlib spells them, made from strings: the sources' joins without importing pathlib.

Importing pathlib costs a cold `ctxtui pack` ~2.5 ms (it pulls in
urllib.parse and ipaddress), and the sources only join paths, hand them to
`os` and print them in messages. `join(*parts)` is `str(PurePosixPath(*parts))`
and `absolute(path)` is `str(Path(path).absolute())`, so every printed path
is unchanged (property tests compare them with pathlib). They take `str` or
any `os.PathLike` (the TUI's `Path`s).
"""

from __future__ import annotations

import os
from typing import TypeAlias

PathText: TypeAlias = str | os.PathLike[str]


def join(*parts: PathText) -> str:
    """`str(PurePosixPath(*parts))`: an absolute part starts over; empty and "." names drop out; ".." stays."""
    root = ""
    names: list[str] = []
    for part in parts:
        text = os.fspath(part)
        if text.startswith("/"):
            root = "//" if text.startswith("//") and not text.startswith("///") else "/"  # POSIX keeps exactly two
            names = []
        names.extend(name for name in text.split("/") if name and name != ".")
    return root + "/".join(names) or "."


def absolute(path: PathText) -> str:
    """`str(Path(path).absolute())`: relative to the working directory, not resolved (".." and links stay)."""
    text = os.fspath(path)
    return join(text) if text.startswith("/") else join(os.getcwd(), text)
