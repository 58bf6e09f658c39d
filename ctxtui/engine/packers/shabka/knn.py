"""The 50 nearest stored vectors, in the order sqlite-vec 0.1.7-alpha.10 returns them to Shabka.

Shabka rebuilds its `vec0` table from `embeddings` on every start
(`core/storage/sqlite.rs:237-296`): only the rows of the most common
dimension, in rowid order, get vec0 rowids 1, 2, 3… and slots in chunks of
1,024. A KNN query (`sqlite.rs:939-947`, k = 50) then:

- measures each stored vector `a` against the query `b` as
  `sqrt(Σ (a[i] - b[i])²)` — an f32 sum in index order without fused
  multiply-add, the square root taken in double and rounded back to f32
  (`sqlite-vec.c:361-375`, the scalar path: Shabka's build enables no SIMD);
- keeps each chunk's k smallest by repeatedly taking the slot with
  `distances[i] <= distances[min]` (`sqlite-vec.c:5867-5897`), so on equal
  distances the higher slot (the later-inserted row) wins inside a chunk;
- merges chunk lists with `a <= b` (`sqlite-vec.c:5771-5806`), so on equal
  distances an earlier chunk comes first.

Without NaN that is one sort by (distance, chunk, −slot). A NaN distance
(possible only from a crafted blob) breaks those comparisons, so chunks
holding one are walked exactly as the C code walks them.
"""

from __future__ import annotations

import numpy as np

K = 50
CHUNK = 1024


def l2_distances(vectors: np.ndarray, query: np.ndarray) -> np.ndarray:
    """sqlite-vec's scalar L2 distance from every row of `vectors` (n × d, float32) to `query`, as float32."""
    if len(vectors) == 0:
        return np.zeros(0, dtype=np.float32)
    squares = vectors - query
    np.multiply(squares, squares, out=squares)
    # A running sum along each row is the C loop's `res += t * t` in index order (a plain sum would pair up).
    total = np.cumsum(squares, axis=1, dtype=np.float32)[:, -1]
    return np.sqrt(total.astype(np.float64)).astype(np.float32)


def nearest(distances: np.ndarray, k: int = K) -> list[int]:
    """Indexes (vec0 order from 0) of the k nearest, in the order vec0 emits them."""
    n = len(distances)
    if n == 0:
        return []
    if np.isnan(distances).any():
        return _nearest_walked(distances, k)
    positions = np.arange(n)
    if n > 4 * k:
        # Only rows at or below the k-th smallest distance can be in the answer.
        kth = np.partition(distances, k - 1)[k - 1]
        positions = np.flatnonzero(distances <= kth)
    chosen = distances[positions]
    order = np.lexsort((-(positions % CHUNK), positions // CHUNK, chosen))
    return [int(i) for i in positions[order][:k]]


def _chunk_top(distances: list[float], k: int) -> list[int]:
    """`min_idx` over one chunk: the k picks, in order, NaN comparisons and all."""
    taken = [False] * len(distances)
    picks = []
    for _ in range(min(k, len(distances))):
        best = 0
        while best < len(distances) and taken[best]:
            best += 1
        if best >= len(distances):
            break
        for i, value in enumerate(distances):
            if not taken[i] and value <= distances[best]:
                best = i
        taken[best] = True
        picks.append(best)
    return picks


def _nearest_walked(distances: np.ndarray, k: int) -> list[int]:
    values = [float(x) for x in distances]
    top: list[int] = []
    for start in range(0, len(values), CHUNK):
        picks = [start + i for i in _chunk_top(values[start : start + CHUNK], k)]
        merged: list[int] = []
        a = b = 0
        while len(merged) < k and (a < len(top) or b < len(picks)):
            if b >= len(picks) or (a < len(top) and values[top[a]] <= values[picks[b]]):
                merged.append(top[a])
                a += 1
            else:
                merged.append(picks[b])
                b += 1
        top = merged
    return top
