"""Cortex's candidates as entries: a gathered memory's (its JSON read) and a store row's (its columns only).

Apart from the packer, which builds them once per store and per settings.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, tzinfo
from typing import Any

from ctxtui.engine.model import Entry
from ctxtui.engine.packers.cortex.compression import Compressed
from ctxtui.engine.packers.cortex.gather import Candidate
from ctxtui.engine.sources.memory.cortex.v1_store import CortexListing
from ctxtui.engine.text.js import UNDEFINED, JSError, date_value, to_property_key, to_string


def _int(value: float) -> int:
    return int(value) if math.isfinite(value) else 0


def _key(row_id: Any, rowid: int | None) -> str:
    if isinstance(row_id, str):
        return f"cortex:{row_id}"
    return f"cortex:#{rowid}"


def _text(value: Any) -> str:
    try:
        return to_string(value)
    except JSError:
        return "[object Object]"


def _iso_date(value: Any, zone: tzinfo) -> str | None:
    try:
        ms = date_value(value, zone)
    except JSError:
        return None
    if ms != ms:
        return None
    try:
        return datetime.fromtimestamp(ms / 1000, tz=UTC).date().isoformat()
    except (OverflowError, OSError, ValueError):
        return None


def memory_entry(candidate: Candidate, compressed: Compressed | None, zone: tzinfo) -> Entry:
    memory = candidate.memory
    row = candidate.row
    try:
        section = to_property_key(memory.get("type", UNDEFINED))
    except JSError:
        section = "[object Object]"
    if compressed is not None and compressed.error is None:
        title = _text(compressed.summary)
        text = compressed.expanded
        tokens = _int(compressed.expanded_tokens)
        extra: tuple[tuple[str, Any], ...] = (
            ("summary tokens", compressed.summary_tokens),
            ("expanded tokens", compressed.expanded_tokens),
        )
    else:
        summary = memory.get("summary", UNDEFINED)
        title = _text(summary) if summary is not UNDEFINED else "(no summary)"
        text, tokens = "", 0
        extra = () if compressed is None else (("compress() throws", str(compressed.error)),)
    key = _key(memory.get("id"), row.rowid)
    importance = memory.get("importance", UNDEFINED)
    return Entry(
        key=key,
        section=section,
        title=title,
        text=text,
        tokens=tokens,
        source=key,
        date=_iso_date(memory.get("createdAt", UNDEFINED), zone),
        kind=section,
        importance={"critical": 1.0, "high": 0.8, "normal": 0.5, "low": 0.2}.get(importance, 0.5)
        if isinstance(importance, str)
        else 0.5,
        extra=(("rowid", row.rowid), *extra),
    )


def listing_entry(listing: CortexListing) -> Entry:
    key = _key(listing.id, listing.rowid)
    kind = listing.type if isinstance(listing.type, str) else "memory"
    summary = listing.summary if isinstance(listing.summary, str) and listing.summary else "(no summary)"
    status = "archived" if listing.archived != 0 else ("superseded" if listing.superseded_by else "active")
    created = listing.created_at if isinstance(listing.created_at, str) else None
    return Entry(
        key=key,
        section=kind,
        title=summary,
        text="",
        tokens=0,
        source=key,
        date=created[:10] if created and len(created) >= 10 else None,
        status=status,
        kind=kind,
        extra=(
            ("rowid", listing.rowid),
            ("last_accessed", listing.last_accessed),
            ("not gathered", "its JSON is not read: title and type are the row's columns"),
        ),
    )
