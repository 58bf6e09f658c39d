"""Shabka's candidates as entries: a ranked memory, one of the 50 nearest that fell out, or a row never reached.

Every row of the store is a candidate, so most entries are built for rows
Shabka never parses: `row_entry` reads them leniently and never fails,
while a ranked memory (`Ranked`) shows the block Shabka would print.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import numpy as np

from ctxtui.engine.model import Entry
from ctxtui.engine.packers.shabka import rank
from ctxtui.engine.packers.shabka.dates import format_date
from ctxtui.engine.packers.shabka.fates import ShabkaReason
from ctxtui.engine.packers.shabka.floats import f32
from ctxtui.engine.packers.shabka.memory import (
    CONTENT,
    CREATED_AT,
    ID,
    IMPORTANCE,
    KIND,
    PRIVACY,
    PROJECT_ID,
    STATUS,
    TAGS,
    TITLE,
    Memory,
)
from ctxtui.engine.packers.shabka.render import memory_block, memory_cost

ENTRY_SECTION = "memories"


class Ranked(NamedTuple):
    """A memory that reached the ranking: its place and everything that put it there."""

    memory: Memory
    key: str
    knn_index: int  # position among the nearest (0-based, after nothing was removed)
    distance: float
    signals: rank.Signals
    keyword: rank.KeywordMatch
    relations: int
    contradictions: int
    cost: int


class Hit(NamedTuple):
    """One of the 50 nearest, as it fared before the ranking."""

    key: str
    knn_index: int
    distance: float
    similarity: float
    reason: ShabkaReason | None  # None: it was ranked
    step: int
    detail: str = ""  # the deciding fact in words (a row error, the creator, the kind...)


def entry_key(row: tuple[Any, ...]) -> str:
    memory_id = row[ID]
    return f"shabka:{memory_id}" if isinstance(memory_id, str) else f"shabka:rowid={row[0]}"


def orphan_key(memory_id: Any) -> str:
    return f"shabka:vector:{memory_id}"


def id_of_key(key: str) -> str:
    return key.split(":", 1)[1]


_decode = json.JSONDecoder().raw_decode


def lenient_tags(value: Any) -> tuple[str, ...]:
    if value == "[]" or not isinstance(value, str):
        return ()
    try:
        parsed, end = _decode(value)
    except ValueError:
        return ()
    if not isinstance(parsed, list) or value[end:].strip():
        return ()
    return tuple(t for t in parsed if isinstance(t, str))


_IMPORTANCE_TEXT: dict[float, str] = {}


def _importance_text(value: float) -> str:
    """Rust's Display of the f32, near enough for memories that are never packed (numpy's shortest digits)."""
    text = _IMPORTANCE_TEXT.get(value)
    if text is None:
        if len(_IMPORTANCE_TEXT) > 4096:
            _IMPORTANCE_TEXT.clear()
        text = _IMPORTANCE_TEXT[value] = np.format_float_positional(np.float32(f32(value)), unique=True, trim="-")
    return text


def ranked_entry(ranked: Ranked, place: int) -> Entry:
    memory = ranked.memory
    sig = ranked.signals
    extra: tuple[tuple[str, Any], ...] = (
        ("rank", place),
        ("knn_place", ranked.knn_index + 1),
        ("distance", ranked.distance),
        *zip(rank.WEIGHT_NAMES, sig[:7], strict=True),
        ("score", sig.score),
        ("relations", ranked.relations),
        ("contradictions", ranked.contradictions),
    )
    return Entry(
        key=ranked.key,
        section=ENTRY_SECTION,
        title=memory.title,
        text=memory_block(memory),
        tokens=ranked.cost,
        source=ranked.key,
        date=format_date(memory.created_at),
        superseded=memory.status == "superseded",
        importance=memory.importance,
        status=memory.status,
        kind=memory.kind,
        extra=extra,
    )


def row_entry(row: tuple[Any, ...], extra: tuple[tuple[str, Any], ...]) -> Entry:
    """An entry for a row that never reaches the pack: read leniently, never failing."""
    title, content, kind, created, status, importance = (
        row[TITLE],
        row[CONTENT],
        row[KIND],
        row[CREATED_AT],
        row[STATUS],
        row[IMPORTANCE],
    )
    if type(title) is not str:
        title = ""
    if type(content) is not str:
        content = ""
    if type(kind) is not str:
        kind = ""
    if type(created) is not str:
        created = ""
    if type(status) is not str:
        status = None
    tags = lenient_tags(row[TAGS])
    if type(importance) is float or type(importance) is int:
        shown_importance = _importance_text(importance)
    else:
        importance, shown_importance = None, "?"
    shown_tags = f" | tags: {', '.join(tags)}" if tags else ""
    day = created[:10]
    key = entry_key(row)
    if row[PRIVACY] is not None:
        extra += (("privacy", row[PRIVACY]),)
    if row[PROJECT_ID] is not None:
        extra += (("project_id", row[PROJECT_ID]),)
    return Entry(
        key,
        ENTRY_SECTION,
        title,
        f"## [{kind}] {title}\n*{day} | importance: {shown_importance}{shown_tags}*\n\n{content}",
        memory_cost(title, content, tags),
        key,
        day or None,
        status == "superseded",
        importance,
        None,
        status,
        kind or None,
        extra,
    )
