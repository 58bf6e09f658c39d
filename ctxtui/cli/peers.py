"""The shabka, cortex and nous packers from the command line: each reads its store (--db) alone.

Each packer's own module (`peer_<name>.py`) turns the parsed options into a
packer and a budget; this module only dispatches, importing just the one asked for.
"""

from __future__ import annotations

import argparse
import importlib

from ctxtui.cli.failures import UsageError
from ctxtui.engine.packers.base import Packer

MODULES = {"shabka": "ctxtui.cli.peer_shabka", "cortex": "ctxtui.cli.peer_cortex", "nous": "ctxtui.cli.peer_nous"}


def load_peer(name: str, args: argparse.Namespace) -> tuple[Packer, int]:
    """The `name` packer over `--db`, and the budget to pack at."""
    if not getattr(args, "db", None):
        raise UsageError(f"--packer {name} reads a memory store: give it with --db")
    try:
        module = importlib.import_module(MODULES[name])
    except ModuleNotFoundError:
        raise UsageError(f"the {name} packer is not available in this build") from None
    packer, budget = module.load(args)
    return packer, budget
