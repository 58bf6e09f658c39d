"""Cortex's candidates on the vector-less path: the 20 most recently accessed memories.

`RetrievalEngine.gatherCandidates` (`cortex/src/retrieval/engine.ts:155-186`)
unions six sources, but the CLI passes only intent, focus and budget, so five
are empty and the candidates are `searchByTopic(focus)` (191-210), deduplicated
by id. With an embedding model but no sqlite-vec, `similaritySearch` falls
back to `search({limit: 20, orderBy: 'last_accessed'})` (storage.ts:338-347):
the 20 most recently accessed memories, whatever the focus. Only when that
throws (a row whose JSON does not parse or is not an object), finds nothing,
or embedding itself fails does the substring fallback run (engine.ts:201-209):
the 100 newest memories by created_at whose "summary type knowledge topic"
text contains the focus, at most 20.

Each row becomes `JSON.parse(content)` with `id` set from the row
(storage.ts:328-332); that is all Cortex ever reads of a memory.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from ctxtui.engine.sources.memory.cortex.v1_store import CortexRow, CortexStore
from ctxtui.engine.text.js import (
    UNDEFINED,
    JSError,
    SameValueZeroKey,
    get,
    json_parse,
    number_to_string,
    to_lower,
    to_string,
    type_error,
)

RECENCY = "recency"  # similaritySearch's recency fallback: the vector-less path proper
FALLBACK = "substring"  # searchByTopic's text fallback

CANDIDATES = 20


class Candidate(NamedTuple):
    row: CortexRow
    memory: dict[str, Any]


class Gathering(NamedTuple):
    """What gathering found, and which way it went."""

    path: str  # RECENCY or FALLBACK
    candidates: list[Candidate]  # deduplicated, in Cortex's order
    duplicates: list[Candidate]  # rows dropped as repeated ids
    why_fallback: str | None = None  # why the recency query was abandoned
    pool: tuple[CortexRow, ...] = ()  # the fallback's 100 rows
    matched: frozenset[int] = frozenset()  # positions in `pool` whose text contains the focus
    error: JSError | None = None  # retrieval failed while gathering (the CLI prints only this)
    error_row: CortexRow | None = None


def row_value(value: Any) -> Any:
    """A cell as better-sqlite3 hands it to JavaScript (text; a BLOB read as UTF-8 text here)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def parse_memory(row: CortexRow) -> dict[str, Any]:
    """`const memory = JSON.parse(r.content); memory.id = r.id` (storage.ts:328-332), in strict mode."""
    content = row_value(row.content)
    text = content if isinstance(content, str) else to_string(content)
    memory = json_parse(text)
    row_id = row_value(row.id)
    if isinstance(memory, dict):
        memory["id"] = row_id
        return memory
    if isinstance(memory, list):
        return {"id": row_id}  # an array takes the id too, and has none of the fields Cortex reads
    if memory is None:
        raise type_error("Cannot set properties of null (setting 'id')")
    if isinstance(memory, str):
        raise type_error(f"Cannot create property 'id' on string '{memory}'")
    if isinstance(memory, bool):
        raise type_error(f"Cannot create property 'id' on boolean '{to_string(memory)}'")
    raise type_error(f"Cannot create property 'id' on number '{number_to_string(memory)}'")


def _parse_all(rows: Iterable[CortexRow]) -> list[Candidate]:
    return [Candidate(row, parse_memory(row)) for row in rows]


def _nullish_to_empty(value: Any) -> Any:
    return "" if value is None or value is UNDEFINED else value


def search_text(memory: dict[str, Any]) -> str:
    """`${m.summary} ${m.type} ${m.knowledge ?? ''} ${m.topic ?? ''}`.toLowerCase() (engine.ts:205)."""
    return to_lower(
        " ".join(
            (
                to_string(get(memory, "summary")),
                to_string(get(memory, "type")),
                to_string(_nullish_to_empty(get(memory, "knowledge"))),
                to_string(_nullish_to_empty(get(memory, "topic"))),
            )
        )
    )


def gather(store: CortexStore, focus: str, *, embedding_works: bool = True) -> Gathering:
    """searchByTopic then the dedupe of gatherCandidates, or the error they throw."""
    why_fallback = None
    if store.query_error is not None:
        return Gathering(FALLBACK, [], [], why_fallback=store.query_error, error=JSError(*_split(store.query_error)))
    if not embedding_works:
        why_fallback = "embedding the focus failed"
    else:
        try:
            found = _parse_all(store.recent)
        except JSError as error:
            why_fallback = f"a candidate row could not be read ({error}), so the recency query threw"
        else:
            if found:
                kept, dupes = _dedupe(found)
                return Gathering(RECENCY, kept, dupes)
            why_fallback = "the recency query found no active memory"
    pool = store.newest
    try:
        parsed = []
        for row in pool:
            parsed.append(Candidate(row, parse_memory(row)))
    except JSError as error:
        return Gathering(FALLBACK, [], [], why_fallback, pool, error=error, error_row=row)
    needle = to_lower(focus)
    matched = []
    positions = []
    for position, candidate in enumerate(parsed):
        try:
            text = search_text(candidate.memory)
        except JSError as error:
            return Gathering(FALLBACK, [], [], why_fallback, pool, error=error, error_row=candidate.row)
        if needle in text:
            matched.append(candidate)
            positions.append(position)
    kept, dupes = _dedupe(matched[:CANDIDATES])
    return Gathering(FALLBACK, kept, dupes, why_fallback, pool, frozenset(positions))


def _split(message: str) -> tuple[str, str]:
    name, _, rest = message.partition(": ")
    return name, rest


def _dedupe(found: list[Candidate]) -> tuple[list[Candidate], list[Candidate]]:
    """Keep the first memory of each id (a Set, so SameValueZero: ids are strings, or null)."""
    seen: set[tuple[Any, ...]] = set()
    kept, dupes = [], []
    for candidate in found:
        key = SameValueZeroKey.of(candidate.memory.get("id"))
        if key in seen:
            dupes.append(candidate)
        else:
            seen.add(key)
            kept.append(candidate)
    return kept, dupes
