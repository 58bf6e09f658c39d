"""The headless commands' names and one-line descriptions, the tokenizers' names, and `PackOptions`.

Apart from `parser.py` (argparse), so that `main` can tell a command from a
project, and `pack_args` read a plain `pack` command line, without
importing argparse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from typing import Any

COMMANDS = {
    "pack": "print the packet, byte for byte what the tool prints",
    "explain": "why an entry got its fate: the numbers, its score, its thresholds, and advice",
    "sweep": "tokens used and entries per fate over a range of budgets",
    "coverage": "per section: what is in now, what can ever be in full, which budget buys what",
    "diff": "which entries change fate between two budgets, settings or packers, and the tokens",
    "check": "a budget guard for CI: exit 1 when the rendered packet costs more than --max-tokens",
    "log": "the packet through git history: per commit, what its edit and the clock changed",
    "tune": "save settings to .ctxrc: shows the change as a diff, writes it only with --write",
    "turns": "nous: list the logged turns, or show one (--turn)",
    "memory": "create or fill a ctxtui memory database (the only commands that write)",
    "demo": "open the TUI on a built-in demo project (rewritten in the cache folder on each launch)",
}
SUBCOMMANDS = tuple(COMMANDS)
TOKENIZERS = ("ctx", "o200k_base", "cl100k_base")


class PackOptions:
    """The options as attributes, as `argparse.Namespace` (and `types.SimpleNamespace`: not imported, ~0.15 ms
    of a cold `pack`) hold them; `vars()` gives them all."""

    def __init__(self, **values: object) -> None:
        self.__dict__.update(values)

    def __repr__(self) -> str:
        return f"PackOptions({', '.join(f'{name}={value!r}' for name, value in vars(self).items())})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PackOptions) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable, like argparse's

    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any: ...  # any option, as argparse.Namespace types it


if TYPE_CHECKING:
    Options = argparse.Namespace | PackOptions  # parsed options: argparse's, or `pack_args`'s
