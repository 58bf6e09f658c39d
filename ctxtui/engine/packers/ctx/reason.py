"""Why an entry met its fate in a ctx packet: the reason codes a fill gives (their words: `explain.reasons.ctx`).

Apart from the layout in `sections.py`: the reasons serve outcomes and
explanations, which a cold `ctxtui pack` never builds, and making an enum of
19 members cost it ~0.2 ms.
"""

from __future__ import annotations

from enum import Enum


class Reason(str, Enum):
    """Why an entry met its fate in a ctx packet. The numbers live in `Outcome.numbers`."""

    ALWAYS = "always"  # tier 1 content
    CONSTITUTION_PATTERN = "constitution-pattern"  # quirk 1: never parsed
    FITS = "fits"  # fit under its tier's cap
    FORCED_FIRST = "forced-first"  # first item forced in over the cap (quirk 4)
    OVER_CAP = "over-cap"  # the first misfit: stopped the fill
    AFTER_MISFIT = "after-misfit"  # a stop-at-first-misfit tier had already stopped
    BEYOND_SCAN_LIMIT = "beyond-scan-limit"  # conventions past the first 1000 bullets
    NOT_REACHED = "not-reached"  # an earlier tier used the whole budget
    NO_SHARE = "no-share"  # its section got a share of 0 tokens
    FULL = "full"  # whole entry within 80% of its section's share
    OVER_FULL_LIMIT = "over-full-limit"  # would pass 80% of the share: title only
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"  # database memory with status archived
    STEERING_DISABLED = "steering-disabled"  # a steering file failed to parse (quirk 9)
    NOT_ALWAYS = "not-always"  # steering inclusion is not "always"
    EMPTY_BODY = "empty-body"
    TEMPLATE_BODY = "template-body"  # untouched `ctx init` steering template
    NO_STEERING_TIER = "no-steering-tier"  # ctx 0.8.0 has no tier 6
    SKILL_TOO_BIG = "skill-too-big"  # tier 7 is all or nothing
