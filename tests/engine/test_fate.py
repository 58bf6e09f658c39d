"""The fate enum (its own module, off a cold pack's path) agrees with the names and codes the engine uses without it."""

from __future__ import annotations

from ctxtui.engine.fate import FATE_OF_CODE, Fate
from ctxtui.engine.model import FATE_VALUES
from ctxtui.engine.packers.base import DROPPED, INCLUDED, SUMMARIZED


def test_the_names_and_codes_are_the_enums():
    assert tuple(fate.value for fate in Fate) == FATE_VALUES
    assert FATE_OF_CODE == {DROPPED: Fate.DROPPED, SUMMARIZED: Fate.SUMMARIZED, INCLUDED: Fate.INCLUDED}
