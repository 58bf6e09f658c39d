"""Cortex (drift v1, TypeScript): `drift memory why` on its vector-less path, byte for byte.

gather → score (five factors) → × intent weight → rank (diversity damping)
→ fit (two passes) → render (the CLI's text or JSON). `CortexPacker` ties
them together behind the Packer interface.
"""

from ctxtui.engine.packers.cortex.packer import CortexPacker

__all__ = ["CortexPacker"]
