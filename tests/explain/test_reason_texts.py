"""Reason texts: each packer's reasons keep their own words, though some enum members compare equal.

The packers' reason enums are `str` enums, and members with the same name
and value in two enums (ctx's and Cortex's ARCHIVED, ctx's and nous's FITS,
the three AFTER_MISFITs...) are equal and hash alike: one dict keyed by all
of them keeps only one text per such pair. Each packer's table is its own.
"""

from __future__ import annotations

import pytest
from ctxtui.engine.explain.reasons import REASON_SHORT, describe, short_reason
from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Entry, Outcome
from ctxtui.engine.packers.cortex.outcomes import CortexReason
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.packers.nous.fates import NousReason
from ctxtui.engine.packers.shabka.fates import ShabkaReason

ENUMS = (Reason, CortexReason, ShabkaReason, NousReason)


def memory(key: str = "memory:1") -> Entry:
    return Entry(key=key, section="memories", title="an archived memory", text="body", tokens=3, source=key)


def test_an_archived_ctx_memory_is_described_as_ctx_skips_it():
    outcome = Outcome(memory(), 5, Fate.DROPPED, Reason.ARCHIVED)
    assert describe(outcome) == "archived memory: skipped"


def test_members_that_compare_equal_share_one_short_label():
    # The table's reason column reads one dict for every packer: equal members must agree there.
    for first in ENUMS:
        for second in ENUMS:
            for member in first:
                other = second.__members__.get(member.name)
                if other is not None and other == member:
                    assert short_reason(member) == short_reason(other), (member, other)


@pytest.mark.parametrize("enum", ENUMS)
def test_every_reason_has_a_short_label(enum):
    assert all(member in REASON_SHORT for member in enum)
