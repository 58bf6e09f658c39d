"""Reasons in words: why an entry got its fate, with the numbers that decided it.

Every sentence a user reads about a fate is written here, from the outcome's
typed numbers; the packers only decide, the CLI and the TUI only show. The
short forms fill the table's "reason" column. One module per packer (`ctx`,
`shabka`, `cortex`, `nous`) holds that packer's words; `shared` what they
share; this module picks the packer's module for an outcome.

Each packer keeps its own table: the reason enums are `str` enums, and two
members with one name and value (ctx's and Cortex's ARCHIVED) are equal
keys, so one table for all would keep one text for both. `REASON_SHORT`,
the one table the TUI reads, joins the short labels, which such members share.
"""

from __future__ import annotations

from enum import Enum

from ctxtui.engine.explain.reasons.cortex import (
    CORTEX_PATH,
    CORTEX_REASONS,
    CORTEX_SHORT,
    cortex_cell,
    cortex_score_line,
    describe_cortex,
)
from ctxtui.engine.explain.reasons.ctx import CTX_SHORT, ctx_cell, describe_ctx
from ctxtui.engine.explain.reasons.nous import NOUS_GATES, NOUS_SHORT, describe_nous, nous_cell
from ctxtui.engine.explain.reasons.shabka import SHABKA_SHORT, describe_shabka, describe_signals, shabka_cell
from ctxtui.engine.explain.reasons.shared import describe_threshold
from ctxtui.engine.model import Outcome
from ctxtui.engine.packers.cortex.outcomes import CortexNumbers
from ctxtui.engine.packers.nous.fates import NousReason
from ctxtui.engine.packers.shabka.fates import ShabkaReason

__all__ = [
    "CORTEX_PATH",
    "CORTEX_REASONS",
    "NOUS_GATES",
    "REASON_SHORT",
    "cortex_score_line",
    "describe",
    "describe_cortex",
    "describe_nous",
    "describe_signals",
    "describe_threshold",
    "reason_cell",
    "short_reason",
]

# In this order the table sorts its reason column: ctx's tiers first, then Cortex, Shabka, nous.
REASON_SHORT: dict[Enum, str] = {**CTX_SHORT, **CORTEX_SHORT, **SHABKA_SHORT, **NOUS_SHORT}


def short_reason(reason: Enum) -> str:
    """A few words for the table's reason column."""
    return REASON_SHORT.get(reason, str(reason.value))


def reason_cell(outcome: Outcome) -> str:
    """The reason in a few words with its deciding numbers, e.g. "over cap 1,200+340>1,500".

    Only formatting: the sums are written out, never computed, so the cell
    shows exactly the numbers the packer compared.
    """
    reason, numbers = outcome.reason, outcome.numbers
    label = short_reason(reason)
    if isinstance(numbers, CortexNumbers):
        return cortex_cell(reason, numbers, label)
    if isinstance(reason, ShabkaReason):
        return shabka_cell(outcome, label)
    if isinstance(reason, NousReason):
        return nous_cell(outcome, label) or label
    return ctx_cell(outcome, label) or label


def describe(outcome: Outcome) -> str:
    """The reason for a fate, with the numbers that decided it."""
    if isinstance(outcome.numbers, CortexNumbers):
        return describe_cortex(outcome)
    if isinstance(outcome.reason, NousReason):
        return describe_nous(outcome)
    if isinstance(outcome.reason, ShabkaReason):
        return describe_shabka(outcome)
    return describe_ctx(outcome)
