"""`shabka context-pack`'s reasons in words: the 50 nearest, the filters, the seven fused signals, the packing."""

from __future__ import annotations

from enum import Enum
from typing import Any

from ctxtui.engine.explain.reasons.shared import num
from ctxtui.engine.model import Outcome
from ctxtui.engine.packers.shabka.fates import KNN_SIZE, ShabkaReason
from ctxtui.engine.packers.shabka.floats import rust_display
from ctxtui.engine.reason_numbers import PrefixFit

SHABKA_TEXT: dict[Enum, str] = {
    ShabkaReason.PACKED: "packed: fits what is left of the budget",
    ShabkaReason.MISFIT: "stopped at the first misfit: it does not fit what is left",
    ShabkaReason.AFTER_MISFIT: "ranked below the first misfit: the pack had stopped",
    ShabkaReason.KIND: "filtered out by the kind filter (-k; the MCP tool's kind)",
    ShabkaReason.TAG: "filtered out by the tag filter (-t; the MCP tool's tags)",
    ShabkaReason.PROJECT: "filtered out by the project filter (-p; the MCP tool's project_id)",
    ShabkaReason.PRIVATE: "hidden by privacy: a private memory of another user",
    ShabkaReason.PENDING: "pending: Shabka's search leaves pending memories out",
    ShabkaReason.ORPHAN: "a stored vector without a memory row",
    ShabkaReason.OUTSIDE_KNN: f"not among the {KNN_SIZE} nearest vectors to the query",
    ShabkaReason.NO_EMBEDDING: "no stored vector: Shabka's search never sees it",
    ShabkaReason.OTHER_DIMS: "its vector has another dimension than the store's: skipped",
    ShabkaReason.NOT_SEARCHED: "the store is not 128-dimensional: the hash query finds nothing",
    ShabkaReason.UNREADABLE: "Shabka cannot read this row: the whole command fails",
    ShabkaReason.FAILED: "the command failed (exit 1): nothing is packed",
}

SHABKA_SHORT: dict[Enum, str] = {
    ShabkaReason.PACKED: "packed",
    ShabkaReason.MISFIT: "misfit",
    ShabkaReason.AFTER_MISFIT: "after misfit",
    ShabkaReason.KIND: "kind filter",
    ShabkaReason.TAG: "tag filter",
    ShabkaReason.PROJECT: "project filter",
    ShabkaReason.PRIVATE: "private",
    ShabkaReason.PENDING: "pending",
    ShabkaReason.ORPHAN: "orphan vector",
    ShabkaReason.OUTSIDE_KNN: f"not in {KNN_SIZE} nearest",
    ShabkaReason.NO_EMBEDDING: "no vector",
    ShabkaReason.OTHER_DIMS: "other dims",
    ShabkaReason.NOT_SEARCHED: "not searched",
    ShabkaReason.UNREADABLE: "unreadable",
    ShabkaReason.FAILED: "failed",
}

_SIGNALS = (
    ("similarity", "0.25"),
    ("keyword", "0.15"),
    ("recency", "0.15"),
    ("importance", "0.15"),
    ("access", "0.10"),
    ("graph", "0.05"),
    ("trust", "0.15"),
)


def _g(value: float) -> str:
    """A Shabka number (an f32) as Rust prints it: the shortest digits that read back the same."""
    return rust_display(value)


def shabka_cell(outcome: Outcome, label: str) -> str:
    """The reason column for a Shabka outcome: the cost against what was left, where the packing decided."""
    numbers = outcome.numbers
    if isinstance(numbers, PrefixFit) and numbers.needs is not None and numbers.remaining is not None:
        if outcome.reason is ShabkaReason.PACKED:
            return f"{label} {num(numbers.needs)}≤{num(numbers.remaining)}"
        if outcome.reason is ShabkaReason.MISFIT:
            return f"{label} {num(numbers.needs)}>{num(numbers.remaining)}"
    return label


def describe_signals(extra: dict[str, Any]) -> str:
    """ "score 0.526 = 0.25×similarity 0.431 + …" from a ranked memory's signals."""
    if "score" not in extra:
        return ""
    parts = " + ".join(f"{weight}×{name} {_g(extra[name])}" for name, weight in _SIGNALS)
    return f"score {_g(extra['score'])} = {parts}"


def describe_shabka(outcome: Outcome) -> str:
    reason, n = outcome.reason, outcome.numbers
    extra = dict(outcome.entry.extra)
    place = extra.get("knn_place")
    nearest = f" (#{place} of the {KNN_SIZE} nearest, distance {_g(extra['distance'])})" if place is not None else ""
    why = extra.get("why", "")
    if reason in (ShabkaReason.PACKED, ShabkaReason.MISFIT, ShabkaReason.AFTER_MISFIT) and isinstance(n, PrefixFit):
        needs, left, budget = n.needs or 0, n.remaining or 0, n.budget or 0
        rank = extra.get("rank")
        signals = describe_signals(extra)
        tail = f"; rank {rank}, {signals}" if signals else ""
        if reason is ShabkaReason.PACKED:
            return (
                f"packed: needs {num(needs)} tokens, {num(left)} left of {num(budget)} "
                f"({num(budget - left + needs)} used with it){tail}"
            )
        if reason is ShabkaReason.MISFIT:
            return (
                f"stopped at the first misfit: needs {num(needs)} tokens, {num(left)} left; Shabka's pack "
                f"stops here, so nothing ranked below it is tried{tail}"
            )
        blocker = outcome.blocked_by.split(":", 1)[1] if outcome.blocked_by else "an earlier memory"
        return (
            f"ranked below the first misfit ({blocker}): the pack had stopped there, so it was never tried "
            f"(needs {num(needs)} tokens){tail}"
        )
    if reason is ShabkaReason.KIND:
        return f"filtered out by the kind filter: {why}{nearest}"
    if reason is ShabkaReason.TAG:
        return f"filtered out by the tag filter: {why}{nearest}"
    if reason is ShabkaReason.PROJECT:
        return f"filtered out by the project filter: {why}{nearest}"
    if reason is ShabkaReason.PRIVATE:
        return f"hidden by privacy: {why}{nearest}"
    if reason is ShabkaReason.PENDING:
        return (
            f"left out by Shabka's search query (status != 'pending'): {why}, yet it took a place among the "
            f"nearest{nearest}"
        )
    if reason is ShabkaReason.ORPHAN:
        return f"a stored vector whose memory row is gone: it took a place among the nearest{nearest}, then the join dropped it"
    if reason is ShabkaReason.OUTSIDE_KNN:
        return (
            f"not among the {KNN_SIZE} nearest stored vectors to the query: Shabka takes those {KNN_SIZE} "
            "before any filter, and looks no further"
        )
    if reason is ShabkaReason.NO_EMBEDDING:
        return "has no stored vector (no embeddings row): Shabka's search never sees it"
    if reason is ShabkaReason.OTHER_DIMS:
        return (
            f"its vector has {extra.get('dimensions')} dimensions, the store's most common is "
            f"{extra.get('store_dimensions')}: Shabka skips it when it rebuilds its vector index"
        )
    if reason is ShabkaReason.NOT_SEARCHED:
        return (
            f"this store's vectors are {extra.get('store_dimensions')}-dimensional, not the hash embedder's 128: "
            "Shabka's query finds nothing, and the provider that made them cannot be reproduced here"
        )
    if reason is ShabkaReason.UNREADABLE:
        return f"{why}: reading it fails the whole command (exit 1), so nothing is packed{nearest}"
    if reason is ShabkaReason.FAILED:
        failure = extra.get("failure", "Error")
        blame = outcome.blocked_by.split(":", 1)[1] if outcome.blocked_by else None
        return f"Shabka exits 1 before packing anything ({failure}" + (f", on {blame}" if blame else "") + ")"
    return SHABKA_TEXT.get(reason, str(reason.value))
