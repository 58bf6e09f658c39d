"""Why a memory is in Shabka's pack or not: the reasons and the steps that decide them.

Kept apart from the packer (and its numpy) so that `engine.explain.reasons`
can name them without loading the packer.
"""

from __future__ import annotations

from enum import Enum


class ShabkaReason(str, Enum):
    """Why a memory is in Shabka's pack or not."""

    PACKED = "packed"  # fits what is left of the budget
    MISFIT = "misfit"  # the first that does not fit: the pack stops here
    AFTER_MISFIT = "after-misfit"  # ranked below the first misfit: never tried
    KIND = "kind-filter"  # -k names another kind
    TAG = "tag-filter"  # none of its tags is a -t
    PROJECT = "project-filter"  # -p names another project
    PRIVATE = "private"  # private, created by someone else
    PENDING = "pending"  # status 'pending': the KNN query leaves it out
    ORPHAN = "orphan"  # a stored vector with no memory row: it took one of the 50 places
    OUTSIDE_KNN = "outside-knn"  # not among the 50 nearest vectors
    NO_EMBEDDING = "no-embedding"  # no stored vector: the KNN never sees it
    OTHER_DIMS = "other-dims"  # its vector is of a minority dimension: skipped when vec0 is rebuilt
    NOT_SEARCHED = "not-searched"  # the store's vectors are not 128-d: the hash query finds nothing
    UNREADABLE = "unreadable"  # Shabka cannot read this row: the command fails
    FAILED = "failed"  # the command failed before packing anything


# Outcome.tier: the step of `cmd_context_pack` that decided.
STEP_OPEN, STEP_KNN, STEP_READ, STEP_PRIVACY, STEP_FILTER, STEP_PACK = 1, 2, 3, 4, 5, 6
STEP_NAMES = {
    STEP_OPEN: "opening the store",
    STEP_KNN: "the 50 nearest",
    STEP_READ: "reading the rows",
    STEP_PRIVACY: "privacy",
    STEP_FILTER: "kind/tag/project filters",
    STEP_PACK: "packing",
}
KNN_SIZE = 50
