"""Shabka's `context-pack` (v0.5.2 at 1a194cdf, default hash embedder), reproduced byte for byte.

`packer.ShabkaPacker` is the packer; the other modules are the pieces of
Shabka it has to match bit for bit: `embed` (the hash embedder and glibc's
logf), `knn` (sqlite-vec's L2 and its order), `memory` (reading a row as
Shabka does), `rank` (the seven signals in f32), `dates` (chrono), `floats`
(f32 and its two printed forms) and `render` (text and JSON).
"""
