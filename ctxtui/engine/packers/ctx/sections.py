"""ctx's packet layout: sections in packet order and the tier that fills each (the reasons: `reason.py`).

One definition, read by the packer, the renderer, the explanations and the
TUI (filters, bars), so a section or a reason is named in exactly one place.
"""

from __future__ import annotations

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
