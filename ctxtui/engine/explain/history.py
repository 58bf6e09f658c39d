"""What a commit did to the packet: the entries whose fate changed, each with its cause, the edit or the clock.

A commit's packet is packed at the commit's own time; its parent's at the
parent's. Between the two, two things moved: the files (the commit's edit)
and the clock (recency brackets, ages). The parent's files packed at the
commit's time separate them: an entry whose fate the clock alone changed
(parent then → parent now) moved with *time*; one the files changed (parent
now → commit now) moved with the *edit*; some move with both. Every
comparison joins on the entry's key, never its line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ctxtui.engine.fate import FATE_OF_CODE, Fate

if TYPE_CHECKING:
    from ctxtui.engine.model import Entry, Plan

EDIT, TIME, BOTH = "edit", "time", "edit and time"
_RANK = {Fate.DROPPED: 0, Fate.SUMMARIZED: 1, Fate.INCLUDED: 2}


@dataclass(frozen=True, slots=True)
class Fates:
    """One packet's fate per entry key, with the entries (for titles and sections)."""

    by_key: dict[str, Fate]
    entries: dict[str, Entry]
    tokens: int
    counts: dict[str, int]
    budget: int


EMPTY = Fates({}, {}, 0, {"included": 0, "summarized": 0, "dropped": 0}, 0)


def fates_of(plan: Plan) -> Fates:
    """The plan's fate per key, read from its fate vector (no outcome is built; one pass at C speed)."""
    candidates = plan.packer.candidates()
    vector = bytes(plan.fates)
    keys = [entry.key for entry in candidates]
    by_key = dict(zip(keys, map(FATE_OF_CODE.__getitem__, vector), strict=True))
    entries = dict(zip(keys, candidates, strict=True))
    counts = {fate.value: vector.count(code) for code, fate in FATE_OF_CODE.items()}
    counts = {"included": counts["included"], "summarized": counts["summarized"], "dropped": counts["dropped"]}
    return Fates(by_key, entries, plan.tokens_used, counts, plan.budget)


@dataclass(frozen=True, slots=True)
class Change:
    """One entry whose fate a commit changed; `before`/`after` None where it was not a candidate."""

    entry: Entry
    before: Fate | None
    after: Fate | None
    cause: str  # EDIT, TIME or BOTH

    @property
    def up(self) -> bool:
        return _RANK.get(self.after, -1) > _RANK.get(self.before, -1)  # type: ignore[arg-type]


def changes(parent_then: Fates, parent_now: Fates, commit_now: Fates) -> list[Change]:
    """The entries whose fate differs between the parent's packet and the commit's, each with its cause.

    Order: the commit's candidates in its packer's order, then the entries it no longer has.
    """
    found: list[Change] = []
    then, mid, now = parent_then.by_key, parent_now.by_key, commit_now.by_key
    for key, after in now.items():
        before = then.get(key)
        if before is after:
            continue
        found.append(Change(commit_now.entries[key], before, after, _cause(before, mid.get(key), after)))
    for key, before in then.items():
        if key not in now:
            found.append(Change(parent_then.entries[key], before, None, _cause(before, mid.get(key), None)))
    return found


def _cause(then: Fate | None, mid: Fate | None, now: Fate | None) -> str:
    if then is mid:
        return EDIT
    if mid is now:
        return TIME
    return BOTH


def plain_changes(before: Fates, after: Fates) -> list[Change]:
    """Fate differences between two packets, by key, without a cause (the diff of two revisions)."""
    return changes(before, before, after)
