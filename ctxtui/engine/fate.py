"""What happened to a candidate entry at one budget: included, summarized or dropped.

An enum in a module of its own, apart from the engine's records (`model.py`):
a cold `ctxtui pack` builds a packet, never an outcome, and importing `enum`
cost it ~1 ms with the modules `enum` pulls in (issue 11). Its values are
`model.FATE_VALUES`, the names the engine counts fates by.
"""

from __future__ import annotations

from enum import Enum


class Fate(str, Enum):
    """What happened to a candidate entry at one budget."""

    INCLUDED = "included"
    SUMMARIZED = "summarized"  # only part of it reached the packet: its title ("Also Noted")
    DROPPED = "dropped"


# A fate vector's codes (`Packer.fate_vector`: one byte per candidate; `packers.base`'s DROPPED,
# SUMMARIZED and INCLUDED, which this leaf module does not import) as fates.
FATE_OF_CODE = {0: Fate.DROPPED, 1: Fate.SUMMARIZED, 2: Fate.INCLUDED}
