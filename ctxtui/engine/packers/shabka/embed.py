"""Shabka's default `hash` embedder, bit for bit (`core/embedding/hash.rs:25-41`).

For byte i (from 0) of the UTF-8 text, dimension i mod 128 gains
`((byte as f32 - 128.0) * 0.01) * (ln(i + 1) + 1)`, every step an f32
operation in that order; then the vector is divided by its norm (an f32 sum
of squares in index order, `sqrtf`), unless the norm is 0 (the empty text).

`ln` is `f32::ln`, which Rust lowers to a call to glibc's `logf` — not
correctly rounded, so `f32(log(n))` is one ulp off for a few n. The 161 n up to
2^20 where glibc's `logf(n)` differs from the double `log(n)` rounded to f32
are listed below (found by calling glibc 2.36's `logf` for every n), so the
embedder needs no C library for any text up to 1 MiB; longer texts call
`logf` through ctypes where glibc is present.

numpy's float32 operations are IEEE single precision, one rounding each, so
the vectorised steps below give Rust's values; sums that Rust makes in order
are made in order (`add.accumulate`), never pairwise.
"""

from __future__ import annotations

import math

import numpy as np

DIMS = 128
_TABLE_LIMIT = 1 << 20

# n ≤ 2^20 where glibc's logf(n) is one ulp above, or below, f32(log(n)).
_LOGF_ONE_UP = (
    3100,
    4935,
    18627,
    47539,
    70211,
    74601,
    86450,
    86630,
    87173,
    98939,
    103900,
    111378,
    127729,
    132635,
    133744,
    148790,
    157535,
    158018,
    172955,
    174595,
    181685,
    191241,
    198278,
    206618,
    206883,
    232263,
    267444,
    279656,
    280874,
    329172,
    346090,
    365068,
    379983,
    398536,
    413509,
    413537,
    415688,
    431041,
    446237,
    478292,
    480191,
    495891,
    513014,
    530324,
    594701,
    595311,
    595445,
    595854,
    630950,
    660846,
    661828,
    691063,
    691150,
    691417,
    728124,
    729979,
    730261,
    731561,
    762199,
    790822,
    793022,
    818054,
    828753,
    859936,
    860260,
    863007,
    886719,
    892958,
    922728,
    929379,
    961506,
    990770,
)
_LOGF_ONE_DOWN = (
    1579,
    12014,
    56198,
    58259,
    62326,
    64341,
    70941,
    72376,
    76152,
    96621,
    129372,
    142136,
    142224,
    144029,
    159237,
    167049,
    183958,
    184966,
    200935,
    232460,
    270202,
    270409,
    300218,
    302857,
    302987,
    303889,
    304728,
    305662,
    318234,
    334676,
    337170,
    367644,
    369141,
    387141,
    402320,
    415941,
    432457,
    448793,
    449987,
    450721,
    453804,
    465580,
    498759,
    500607,
    515326,
    540362,
    541625,
    541904,
    544784,
    567301,
    567459,
    568621,
    568813,
    571998,
    572972,
    575988,
    576982,
    578260,
    578351,
    581636,
    601710,
    606050,
    606781,
    637377,
    637844,
    639580,
    641891,
    670510,
    673961,
    674855,
    675611,
    703265,
    705399,
    706892,
    738426,
    738638,
    770849,
    771636,
    801456,
    801602,
    803029,
    805435,
    833229,
    833923,
    909199,
    995668,
    1030226,
    1030452,
    1033159,
)

# _logs[i] = logf(i + 1) and _factors_cache[i] = logf(i + 1) + 1, in f32, grown on demand.
_logs = np.zeros(0, dtype=np.float32)
_factors_cache = np.zeros(0, dtype=np.float32)


def glibc_logf(n: int) -> float:
    """glibc's `logf(n)` for an integer n ≥ 1, as a Python float."""
    _grow(n)
    return float(_logs[n - 1])


def _logf_table(start: int, end: int) -> np.ndarray:
    """logf(start..end-1) as float32, for 1 ≤ start, end - 1 ≤ 2^20."""
    values = np.array([math.log(i) for i in range(start, end)], dtype=np.float64).astype(np.float32)
    for group, direction in ((_LOGF_ONE_UP, np.inf), (_LOGF_ONE_DOWN, -np.inf)):
        for k in group:
            if start <= k < end:
                values[k - start] = np.nextafter(values[k - start], np.float32(direction))
    return values


def _libm_logf(ns: np.ndarray) -> np.ndarray:
    import ctypes
    import ctypes.util

    libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    libm.logf.restype = ctypes.c_float
    libm.logf.argtypes = [ctypes.c_float]
    return np.array([libm.logf(float(k)) for k in ns], dtype=np.float32)


def _grow(n: int) -> None:
    """Make logf(1..n) available (at least)."""
    global _logs, _factors_cache
    have = len(_logs)
    if have >= n:
        return
    size = n if n > _TABLE_LIMIT else min(_TABLE_LIMIT, max(n, 4096, 2 * have))
    parts = [_logs]
    if have < _TABLE_LIMIT:
        parts.append(_logf_table(have + 1, min(size, _TABLE_LIMIT) + 1))
    if size > _TABLE_LIMIT:  # `i as f32` rounds past 2^24, as in Rust
        ns = (np.arange(max(have, _TABLE_LIMIT), size, dtype=np.float64) + 1).astype(np.float32)
        parts.append(_libm_logf(ns))
    _logs = np.concatenate(parts)
    _factors_cache = _logs + np.float32(1.0)


def _factors(n: int) -> np.ndarray:
    """(logf(i + 1) + 1) in f32 for i < n."""
    _grow(n)
    return _factors_cache[:n]


def hash_embed(text: str) -> np.ndarray:
    """The 128 float32 components Shabka's hash embedder gives `text`."""
    data = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    n = len(data)
    vec = np.zeros(DIMS, dtype=np.float32)
    if n == 0:
        return vec
    scaled = (data.astype(np.float32) - np.float32(128.0)) * np.float32(0.01)
    terms = scaled * _factors(n)
    rows = -(-n // DIMS)
    padded = np.zeros(rows * DIMS, dtype=np.float32)
    padded[:n] = terms
    # vec[i % 128] += term, in byte order: a running sum down each column (adding the zero padding changes nothing).
    vec = np.add.accumulate(padded.reshape(rows, DIMS), axis=0, dtype=np.float32)[-1]
    norm = np.sqrt(np.add.accumulate(vec * vec, dtype=np.float32)[-1])
    if norm > 0:
        vec = vec / norm
    out: np.ndarray = vec.astype(np.float32, copy=False)
    return out
