"""The numbers behind a reason: what an `Outcome` (model.py) carries to say why an entry got its fate.

They live apart from the rest of the engine's vocabulary because a packet
needs none of them: a cold `ctxtui pack` does not import this module, so it
makes none of these six NamedTuple classes (a `typing.NamedTuple` costs a
cold start ~0.1-0.4 ms a class: docs/performance.md, "The engine's
records"), as the fate and reason enums live off that path too (`fate.py`,
`packers/ctx/reason.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any, Protocol


# -- the numbers behind a reason ---------------------------------------------
# NamedTuples, not dataclasses: the slider builds thousands per step. Fields a
# reason does not use stay None and are left out of JSON.


class PrefixFit(NamedTuple):
    """A stop-at-first-misfit fill (ctx's tasks, conventions and steering).

    The cap is min(pct × budget, remaining) when `pct` is set, else what was
    left; an entry goes in while used_before + needs ≤ cap.
    """

    cap: int | None = None
    used_before: int | None = None
    needs: int | None = None
    budget: int | None = None
    pct: float | None = None
    pct_cap: int | None = None
    remaining: int | None = None


class ShareFit(NamedTuple):
    """A scored section's fill: whole entries in score order up to 80% of the section's share."""

    rank: int
    needs: int
    share: int
    full_limit: int | None = None
    used_before: int | None = None
    title_tokens: int | None = None
    remaining: int | None = None


class AlwaysIn(NamedTuple):
    """Tier 1: always in, whatever it costs."""

    tier1: int


class PatternMiss(NamedTuple):
    """Rules a reader sees in CONSTITUTION.md that ctx's pattern does not."""

    rules_in_file: int


class ScanLimit(NamedTuple):
    """Bullets past the number ctx looks at."""

    limit: int


class SectionFit(NamedTuple):
    """One item of a nous section at one budget (packers/nous): where it sits and where the section is cut.

    `budget` is the section's budget in tokens as nous cuts it (after the
    model scale); `base` the unscaled budget and `factor` the scale. For a
    mid-text section, `start`/`end` are the item's character span in the
    section text, `text_chars` the whole text's length and `kept` how many
    characters survive before "..." (None: no cut). For whole blocks,
    `used_before` and `needs` are tokens.
    """

    section: str
    budget: int
    base: int | None = None
    factor: float | None = None
    max_chars: int | None = None
    start: int | None = None
    end: int | None = None
    text_chars: int | None = None
    kept: int | None = None
    used_before: int | None = None
    needs: int | None = None
    rank: int | None = None
    full: int | None = None  # the section's budget at the turn's own total (`budget` differs on another total)
    total: int | None = None  # the total budget this plan shares out


if TYPE_CHECKING:  # only named in annotations: no Protocol class is made at run time

    class PackerNumbers(Protocol):
        """Numbers a packer defines for itself, as a NamedTuple (Cortex's `CortexNumbers`).

        So a new packer's numbers need no change here; the reason texts and the
        JSON output read them through `isinstance` and `_asdict`.
        """

        def _asdict(self) -> dict[str, Any]: ...

    Numbers = PrefixFit | ShareFit | AlwaysIn | PatternMiss | ScanLimit | SectionFit | PackerNumbers | None


def numbers_dict(numbers: Numbers) -> dict[str, Any]:
    """The numbers as JSON-ready fields (those the reason does not use left out)."""
    if numbers is None:
        return {}
    return {name: value for name, value in numbers._asdict().items() if value is not None}
