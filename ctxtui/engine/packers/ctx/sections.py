"""ctx's packet layout: sections in packet order, the tier that fills each, the reasons a fill gives.

One definition, read by the packer, the renderer, the explanations and the
TUI (filters, bars), so a section or a reason is named in exactly one place.
"""

from __future__ import annotations

from enum import Enum

# Sections in packet order. "memories" exists only when a memory database joins.
SECTIONS = (
    "constitution",
    "tasks",
    "conventions",
    "decisions",
    "learnings",
    "memories",
    "steering",
    "skill",
)
SCORED_SECTIONS = ("decisions", "learnings", "memories")

# The tier ctx fills each section in.
TIER_OF_SECTION = {
    "constitution": 1,
    "tasks": 2,
    "conventions": 3,
    "decisions": 4,
    "learnings": 5,
    "memories": 5,
    "steering": 6,
    "skill": 7,
}

TIER_NAMES = {
    1: "Tier 1 · always",
    2: "Tier 2 · tasks",
    3: "Tier 3 · conventions",
    4: "Tier 4 · decisions",
    5: "Tier 5 · learnings",
    6: "Tier 6 · steering",
    7: "Tier 7 · skill",
}
MEMORIES_BUCKET = "Tier 5 · memories"

INSTRUCTION = (
    'Before starting work, confirm to the user: "I have read the required '
    "context files and I'm following project conventions.\""
)


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
