"""Two plans compared: which entries changed fate, how the tokens moved, and the packet text as a diff.

The tuning loop's memory: a pinned state against the current one, or the
last slider step against this one. Plans of the same packer are compared on
their fate vectors (a byte per candidate) and only the entries that moved
are looked at, so a step at 50,000 candidates costs a byte comparison.
Plans of different packers (ctx 0.8.0 against 0.8.1, say, or one load
against the next) are compared by entry key: what the entry is, never where
it sits (sources/identity.py), so a line inserted above moves no entry. An
entry with the same key whose own text changed (a decision whose body grew)
is *edited*: listed apart from the fate changes.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from ctxtui.engine.fate import FATE_OF_CODE, Fate
from ctxtui.engine.model import Entry, Plan


@dataclass(frozen=True, slots=True)
class FateChange:
    """One entry whose fate differs; None: not a candidate of that plan at all."""

    entry: Entry
    before: Fate | None
    after: Fate | None


@dataclass(frozen=True, slots=True)
class TokenShift:
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class PlanDiff:
    """`before` → `after`: the fate changes in candidate order, and tokens per bucket and in all."""

    changed: list[FateChange]
    tokens_used: TokenShift
    buckets: dict[str, TokenShift] = field(default_factory=dict)
    edited: list[Entry] = field(default_factory=list)  # the same key, its own text changed (the new entry)

    def counts(self) -> dict[str, int]:
        """How many moved into full, to a title, out: "in", "title", "out"; by direction "up"/"down" (an entry
        in both plans), "new" (only in the later) and "gone" (only in the earlier)."""
        rank = {Fate.DROPPED: 0, Fate.SUMMARIZED: 1, Fate.INCLUDED: 2, None: -1}
        result = {"in": 0, "title": 0, "out": 0, "up": 0, "down": 0, "new": 0, "gone": 0}
        for change in self.changed:
            if change.after is Fate.INCLUDED:
                result["in"] += 1
            elif change.after is Fate.SUMMARIZED:
                result["title"] += 1
            else:
                result["out"] += 1
            if change.before is None:
                result["new"] += 1
            elif change.after is None:
                result["gone"] += 1
            else:
                result["up" if rank[change.after] > rank[change.before] else "down"] += 1
        return result


def diff_plans(before: Plan, after: Plan) -> PlanDiff:
    """What changed from `before` to `after`."""
    edited: list[Entry] = []
    if before.packer is after.packer:
        changed = _same_packer(before, after)
    else:
        changed = _by_key(before, after, edited)
    buckets: dict[str, TokenShift] = {}
    old = {b.name: b.used + b.summarized for b in before.buckets}
    new = {b.name: b.used + b.summarized for b in after.buckets}
    for name in [*new, *(n for n in old if n not in new)]:
        buckets[name] = TokenShift(old.get(name, 0), new.get(name, 0))
    return PlanDiff(changed, TokenShift(before.tokens_used, after.tokens_used), buckets, edited)


def _same_packer(before: Plan, after: Plan) -> list[FateChange]:
    a, b = before.fates, after.fates
    if a == b:
        return []
    entries = before.packer.candidates()
    return [FateChange(entries[i], FATE_OF_CODE[a[i]], FATE_OF_CODE[b[i]]) for i in differing(a, b)]


CHUNK = 512  # bytes compared at C speed before any is looked at one by one


def differing(a: bytes | bytearray, b: bytes | bytearray) -> list[int]:
    """The indices where two equal-length fate vectors differ, in order.

    A slider step moves a few of 50,000 fates: comparing 512-byte slices
    first skips the unchanged stretches without a Python loop over them.
    """
    found = []
    for start in range(0, len(a), CHUNK):
        stop = start + CHUNK
        if a[start:stop] != b[start:stop]:
            found += [i for i in range(start, min(stop, len(a))) if a[i] != b[i]]
    return found


def _by_key(before: Plan, after: Plan, edited: list[Entry]) -> list[FateChange]:
    """Fate changes joined on the key, in `after`'s packet order, then the entries gone; fills `edited`."""
    old = {o.entry.key: o for o in before.outcomes}
    changed = []
    seen = set()
    for outcome in after.outcomes:
        entry = outcome.entry
        seen.add(entry.key)
        was = old.get(entry.key)
        if was is None:
            changed.append(FateChange(entry, None, outcome.fate))
            continue
        if was.fate is not outcome.fate:
            changed.append(FateChange(entry, was.fate, outcome.fate))
        if was.entry is not entry and was.entry.text != entry.text:
            edited.append(entry)
    changed += [FateChange(o.entry, o.fate, None) for o in before.outcomes if o.entry.key not in seen]
    return changed


_TO = {Fate.INCLUDED: "full", Fate.SUMMARIZED: "summarized", Fate.DROPPED: "dropped"}


def step_summary(diff: PlanDiff, names: int = 3) -> str:
    """One line in words: "3 moved to full, 1 to dropped, 1 new, 1 edited: Use SQLite; Cap webhooks; … 3 more
    (+140 tokens)"; "" when nothing moved or changed.

    A count says how many entries went *to* a fate (a minus sign read as "fewer"); entries new to this
    load, gone from it and edited in place are counted apart (their key says they are the same entry).
    """
    if not diff.changed and not diff.edited:
        return ""
    moved = dict.fromkeys(_TO, 0)
    new = gone = 0
    for change in diff.changed:
        if change.before is None:
            new += 1
        elif change.after is None:
            gone += 1
        else:
            moved[change.after] += 1
    parts: list[str] = []
    for fate, count in moved.items():
        if count:
            parts.append(f"{count:,} {'' if parts else 'moved '}to {_TO[fate]}")
    parts += [
        f"{count:,} {word}" for count, word in ((new, "new"), (gone, "gone"), (len(diff.edited), "edited")) if count
    ]
    moved_keys = {change.entry.key for change in diff.changed} if diff.edited else set()
    edited_alone = [entry for entry in diff.edited if entry.key not in moved_keys]
    named = [c.entry for c in diff.changed[:names]]
    named += edited_alone[: names - len(named)]
    total = len(diff.changed) + len(edited_alone)
    titles = [_short(entry.title) for entry in named]
    more = f"; … {total - len(named)} more" if total > len(named) else ""
    delta = diff.tokens_used.delta
    tokens = f" ({'+' if delta >= 0 else '−'}{abs(delta):,} tokens)" if delta else ""
    return f"{', '.join(parts)}: {'; '.join(titles)}{more}{tokens}"


def _short(title: str, limit: int = 40) -> str:
    """A title cut to `limit` characters (titles can be whole sentences; the summary is one line)."""
    title = " ".join(title.split())
    return title if len(title) <= limit else title[: limit - 1].rstrip() + "…"


def packet_diff(before: Plan, after: Plan, fmt: str = "md", names: tuple[str, str] = ("pinned", "now")) -> str:
    """The rendered packets as a unified diff ("" when identical)."""
    return "".join(
        difflib.unified_diff(
            before.render(fmt).splitlines(keepends=True),
            after.render(fmt).splitlines(keepends=True),
            fromfile=names[0],
            tofile=names[1],
        )
    )
