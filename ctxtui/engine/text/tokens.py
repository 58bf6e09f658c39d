"""Token estimates, one definition each: what a packer charges for a piece of text.

ctx (and Shabka, before its +20 per memory) charge ceil(UTF-8 bytes / 4). A
list costs the sum over its items, not the estimate of the joined text. Real
BPE counts live in `tokenizers`; both are "token counters" to the packers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine.text.go import utf8_len

if TYPE_CHECKING:
    from collections.abc import Sequence


def estimate(text: str) -> int:
    """ctx's token estimate: ceil(UTF-8 bytes / 4); 0 for the empty string."""
    return (utf8_len(text) + 3) // 4


def estimate_list(items: Sequence[str]) -> int:
    """A list costs the sum of its items, not the estimate of the joined text."""
    return sum(estimate(item) for item in items)
