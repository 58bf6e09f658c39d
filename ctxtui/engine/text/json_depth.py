"""How deeply a JSON text nests, counted without parsing it (and without recursion).

Python's json decoder recurses once per `[` or `{` and raises RecursionError
near 1,000 levels, at a depth that depends on how deep the caller already
is (a worker thread differs from the CLI). A row holding `[[[[…]]]]` must
give one clear problem, the same everywhere, and readers that model another
tool must fail where that tool fails (serde_json stops at 128 levels). So
the depth is measured first, in linear time: brackets inside strings do not
count, and counting stops as soon as the limit is passed.
"""

from __future__ import annotations

import re

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def deeper_than(text: str, limit: int) -> bool:
    """True when brackets outside strings nest more than `limit` levels deep (a malformed text counts as written)."""
    if text.count("[") + text.count("{") <= limit:
        return False  # cheap, and the common case: too few openers to get that deep
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        elif depth:
            depth -= 1
    return False


class NestedTooDeeply(ValueError):
    """A JSON text deeper than a reader goes: a ValueError, so callers treat it as unreadable JSON."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"nested more than {limit} levels deep")
        self.limit = limit
