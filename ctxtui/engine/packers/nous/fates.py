"""Why a candidate of a nous turn is in the rebuilt sections or not.

Kept apart from the packer so that `engine.explain.reasons` can name the
reasons without loading the rebuild.
"""

from __future__ import annotations

from enum import Enum


class NousReason(str, Enum):
    """Why a candidate of a nous turn is in the rebuilt sections or not."""

    FITS = "fits"  # its whole line is before the section's cut
    CUT = "cut-mid-text"  # the section is cut inside its line
    AFTER_CUT = "after-cut"  # its line starts after the cut
    BLOCK_FITS = "block-fits"  # Recommended Procedures: fits what is left
    FIRST_BLOCK = "first-block"  # the first block is always shown, even over the budget
    BLOCK_OVER = "block-over"  # does not fit what is left: the accumulation stops here
    AFTER_STOP = "after-stop"  # after the block that did not fit
    NOT_BUDGETED = "not-budgeted"  # Recent Conversations: no budget in nous
    SECTION_OFF = "section-off"  # the section's budget is 0, or the intent plan skipped the type
    ABANDONED = "abandoned"  # an abandoned episode: printed as nothing (nous logs it budget_truncated)
    POINTER = "pointer"  # named in the critic's one-line pointer (Procedure Catalog rendered)
    CATALOG = "catalog-on"  # a passive procedure slot: nous does not search them when the catalog renders
    GATE = "gate"  # dropped by a logged gate before the section was formatted
