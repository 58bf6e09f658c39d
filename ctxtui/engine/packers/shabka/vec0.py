"""Opening a Shabka store: what sqlite-vec's vec0 table makes of the `embeddings` rows, or why opening fails.

Shabka rebuilds vec0 from `embeddings` every time it opens the store
(`core/storage/sqlite.rs:237-296`): a blob of the wrong length, a text that
is not a JSON array, or a dimension vec0 cannot take fails the command with
vec0's own message, which the packer prints as Shabka does.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ctxtui.engine.packers.shabka.embed import DIMS

MAX_DIMS = 8192  # SQLITE_VEC_VEC0_MAX_DIMENSIONS


def vec0_rows(dims: Any, memory_ids: list[Any], vectors: list[Any]) -> tuple[np.ndarray, str | None]:
    """The vectors vec0 would hold (n × dims float32), or the message with which Shabka's open fails."""
    empty = np.zeros((0, DIMS), dtype=np.float32)
    if not memory_ids:
        return empty, None
    prefix = "failed to create storage backend\n\nCaused by:\n    Storage error: "
    if dims <= 0:
        return empty, (
            f"{prefix}failed to create vec_memories: vec0 constructor error: could not parse vector "
            f"column 'embedding float[{dims}]'"
        )
    if dims > MAX_DIMS:
        return empty, (
            f"{prefix}failed to create vec_memories: vec0 constructor error: Dimension on vector "
            f"column too large, provided {dims}, maximum {MAX_DIMS}"
        )
    size = 4 * dims
    sound = all(type(v) is bytes and len(v) == size for v in vectors) and all(type(m) is str for m in memory_ids)
    if not sound:  # find the first row vec0 refuses, as its INSERT ... SELECT meets them in rowid order
        fixed = []
        for memory_id, vector in zip(memory_ids, vectors, strict=True):
            vector, refusal = vec0_value(memory_id, vector, dims)
            if refusal is not None:
                return empty, f"{prefix}failed to populate vec_memories: {refusal}"
            fixed.append(vector)
        vectors = fixed
    return np.frombuffer(b"".join(vectors), dtype="<f4").reshape(len(vectors), dims), None


def vec0_value(memory_id: Any, vector: Any, dims: int) -> tuple[bytes, str | None]:
    """One row as vec0 takes it (a JSON text vector becomes f32 bytes), or its refusal."""
    column = 'the "embedding" column'
    if not isinstance(memory_id, str):
        return b"", (
            "The vec_memories virtual table was declared with a TEXT primary key, but a non-TEXT value "
            "was provided in an INSERT."
        )
    if isinstance(vector, str):
        try:
            values = json.loads(vector)
            if not isinstance(values, list) or not all(type(v) in (int, float) for v in values):
                raise ValueError
            vector = np.array(values, dtype=np.float32).astype("<f4").tobytes()
        except (ValueError, OverflowError):
            return b"", f"Inserted vector for {column} is invalid: it is text but not a JSON array of numbers"
    if not isinstance(vector, bytes):
        return b"", f"Inserted vector for {column} is invalid: it is neither a BLOB nor JSON text"
    if len(vector) == 0:
        return b"", f"Inserted vector for {column} is invalid: zero-length vectors are not supported."
    if len(vector) % 4:
        return b"", (
            f"Inserted vector for {column} is invalid: invalid float32 vector BLOB length. Must be "
            f"divisible by 4, found {len(vector)}"
        )
    if len(vector) // 4 != dims:
        return b"", (
            f"Dimension mismatch for inserted vector for {column}. Expected {dims} dimensions but "
            f"received {len(vector) // 4}."
        )
    return bytes(vector), None
