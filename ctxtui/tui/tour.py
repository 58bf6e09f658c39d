"""The demo's first screen, set up to show what ctxtui is for: a pin, a step away from it, an entry explained.

`ctxtui demo` (without `--budget`) loads the demo at `pin_budget`, pins that
state, moves the budget to `budget`, and selects an entry the move left
summarized although the pin had it in full: the table marks it ◆ (differs
from the pin), and the why panel explains its fate, its thresholds and what
would bring it back in full. The memories are joined, so the entry may be a
database memory ranked beside the markdown ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ctxtui.engine.fate import Fate

if TYPE_CHECKING:
    from collections.abc import Callable

    from ctxtui.comparison import Comparison
    from ctxtui.session import View

# Scored sections first: their why panel has the most to say (score, keywords, thresholds, advice).
PREFERRED_SECTIONS = ("memories", "learnings", "decisions")


@dataclass(frozen=True)
class Tour:
    """Where the first screen starts: pinned at `pin_budget`, shown at `budget`, `select(view, against_pin)` selected."""

    pin_budget: int
    budget: int
    select: Callable[[View, Comparison | None], str | None]


def summarized_since_the_pin(view: View, against_pin: Comparison | None) -> str | None:
    """An entry summarized on screen that differs from the pin, from the scored sections first; else any summarized."""
    moved = against_pin.keys if against_pin is not None else frozenset()
    summarized = [o.entry for o in view.plan.outcomes if o.fate is Fate.SUMMARIZED]
    for section in PREFERRED_SECTIONS:
        for entry in summarized:
            if entry.section == section and entry.key in moved:
                return entry.key
    return summarized[0].key if summarized else None


DEMO_TOUR = Tour(pin_budget=10000, budget=8000, select=summarized_since_the_pin)
