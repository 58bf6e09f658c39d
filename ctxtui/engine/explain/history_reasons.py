"""Why an entry's fate changed at a commit, in numbers: what the commit added and removed, how the tiers moved.

"left the packet at 3f2a1c0 on 2026-10-14: 12 tasks were added, the tasks
tier grew by 310 tokens, the decisions' share fell from 745 to 612". Built
from the two packets (the parent's and the commit's), joined on keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine.fate import Fate

if TYPE_CHECKING:
    from ctxtui.engine.model import Bucket, Outcome, Plan

_RANK = {Fate.DROPPED: 0, Fate.SUMMARIZED: 1, Fate.INCLUDED: 2, None: -1}
NOUNS = {
    "tasks": ("task", "tasks"),
    "decisions": ("decision", "decisions"),
    "learnings": ("learning", "learnings"),
    "conventions": ("convention", "conventions"),
    "constitution": ("rule", "rules"),
    "steering": ("steering file", "steering files"),
}


def move_words(before: Fate | None, after: Fate | None) -> str:
    """ "entered the packet in full", "left the packet", "was cut to a title"..."""
    if before is None:
        if after is Fate.INCLUDED:
            return "appeared, in full"
        return "appeared, as a title" if after is Fate.SUMMARIZED else "appeared, dropped"
    if after is None:
        return "was removed from the files" if before is Fate.DROPPED else "left the packet: removed from the files"
    if after is Fate.INCLUDED:
        return "came in full"
    if after is Fate.SUMMARIZED:
        return "was cut to a title" if before is Fate.INCLUDED else "came back as a title"
    return "left the packet"


def _plural(n: int, section: str) -> str:
    one, many = NOUNS.get(section, ("entry", "entries"))
    return f"{n:,} {one if n == 1 else many}"


def _outcome(plan: Plan | None, key: str) -> Outcome | None:
    if plan is None:
        return None
    index = plan.packer.index_of(key)
    return None if index is None else plan.packer.outcome_at(plan, index)


def _bucket(plan: Plan | None, tier: int) -> Bucket | None:
    if plan is None:
        return None
    return next((b for b in plan.buckets if b.tier == tier), None)


def reasons(key: str, before: Plan | None, after: Plan | None) -> list[str]:
    """The numbers behind one entry's move from `before` (the parent's packet) to `after` (the commit's)."""
    found: list[str] = []
    old = {e.key: e for e in before.packer.candidates()} if before is not None else {}
    new = {e.key: e for e in after.packer.candidates()} if after is not None else {}
    added: dict[str, int] = {}
    removed: dict[str, int] = {}
    for k, entry in new.items():
        if k not in old:
            added[entry.section] = added.get(entry.section, 0) + 1
    for k, entry in old.items():
        if k not in new:
            removed[entry.section] = removed.get(entry.section, 0) + 1
    for section, n in added.items():
        found.append(f"{_plural(n, section)} {'was' if n == 1 else 'were'} added")
    for section, n in removed.items():
        found.append(f"{_plural(n, section)} {'was' if n == 1 else 'were'} removed")
    was, now = _outcome(before, key), _outcome(after, key)
    if was is not None and now is not None and was.entry.tokens != now.entry.tokens:
        found.append(f"its own text went from {was.entry.tokens:,} to {now.entry.tokens:,} tokens")
    if before is not None and after is not None and before.budget != after.budget:
        found.append(f"the budget went from {before.budget:,} to {after.budget:,} tokens")
    for tier in sorted(
        {b.tier for b in (before.buckets if before else [])} | {b.tier for b in (after.buckets if after else [])}
    ):
        b, a = _bucket(before, tier), _bucket(after, tier)
        if b is None or a is None:
            continue
        grew = (a.used + a.summarized) - (b.used + b.summarized)
        mine = (now is not None and now.tier == tier) or (was is not None and was.tier == tier)
        if mine and b.cap is not None and a.cap is not None and a.cap != b.cap:
            found.append(
                f"the {_name(a)}' share {'fell' if a.cap < b.cap else 'rose'} from {b.cap:,} to {a.cap:,} tokens"
            )
        elif grew and abs(grew) >= 1:
            found.append(f"the {_name(a)} tier {'grew' if grew > 0 else 'shrank'} by {abs(grew):,} tokens")
    if was is not None and now is not None and was.score is not None and now.score is not None:
        if was.score.recency != now.score.recency:
            found.append(
                f"its age went from {was.score.age_days} to {now.score.age_days} days "
                f"(recency {was.score.recency} → {now.score.recency})"
            )
        if was.score.rank != now.score.rank:
            found.append(f"its rank went from {was.score.rank} to {now.score.rank}")
    return found


def _name(bucket: Bucket) -> str:
    return bucket.name.split("·")[-1].strip()
