"""Two plans compared: which entries changed fate, how the tokens moved, and the packet text as a diff.

The tuning loop's memory: a pinned state against the current one, or the
last slider step against this one. Plans of the same packer are compared on
their fate vectors (a byte per candidate) and only the entries that moved
are looked at, so a step at 50,000 candidates costs a byte comparison.
Plans of different packers (ctx 0.8.0 against 0.8.1, say) are compared by
entry key.
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

    def counts(self) -> dict[str, int]:
        """How many moved into full, to a title, out: "in", "title", "out" (and "up"/"down" by direction)."""
        rank = {Fate.DROPPED: 0, Fate.SUMMARIZED: 1, Fate.INCLUDED: 2, None: -1}
        result = {"in": 0, "title": 0, "out": 0, "up": 0, "down": 0}
        for change in self.changed:
            if change.after is Fate.INCLUDED:
                result["in"] += 1
            elif change.after is Fate.SUMMARIZED:
                result["title"] += 1
            else:
                result["out"] += 1
            result["up" if rank[change.after] > rank[change.before] else "down"] += 1
        return result


def diff_plans(before: Plan, after: Plan) -> PlanDiff:
    """What changed from `before` to `after`."""
    if before.packer is after.packer:
        changed = _same_packer(before, after)
    else:
        changed = _by_key(before, after)
    buckets: dict[str, TokenShift] = {}
    old = {b.name: b.used + b.summarized for b in before.buckets}
    new = {b.name: b.used + b.summarized for b in after.buckets}
    for name in [*new, *(n for n in old if n not in new)]:
        buckets[name] = TokenShift(old.get(name, 0), new.get(name, 0))
    return PlanDiff(changed, TokenShift(before.tokens_used, after.tokens_used), buckets)


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


def _by_key(before: Plan, after: Plan) -> list[FateChange]:
    old = {o.entry.key: o.fate for o in before.outcomes}
    changed = []
    seen = set()
    for outcome in after.outcomes:
        seen.add(outcome.entry.key)
        was = old.get(outcome.entry.key)
        if was is not outcome.fate:
            changed.append(FateChange(outcome.entry, was, outcome.fate))
    changed += [FateChange(o.entry, o.fate, None) for o in before.outcomes if o.entry.key not in seen]
    return changed


_WORDS = {Fate.INCLUDED: "in full", Fate.SUMMARIZED: "summarized", Fate.DROPPED: "dropped", None: "gone"}


def step_summary(diff: PlanDiff, names: int = 3) -> str:
    """One line: "+3 in full, −1 summarized: Use SQLite; Cap webhooks; … 1 more (+140 tokens)"; "" when nothing moved."""
    if not diff.changed:
        return ""
    groups: dict[str, list[FateChange]] = {}
    for change in diff.changed:
        groups.setdefault(_WORDS[change.after], []).append(change)
    rank = {Fate.DROPPED: 0, Fate.SUMMARIZED: 1, Fate.INCLUDED: 2, None: -1}
    parts = []
    for word, members in groups.items():
        ups = sum(1 for c in members if rank[c.after] > rank[c.before])
        downs = len(members) - ups
        if ups:
            parts.append(f"+{ups} {word}")
        if downs:
            parts.append(f"−{downs} {word}")
    titles = [_short(c.entry.title) for c in diff.changed[:names]]
    more = f"; … {len(diff.changed) - names} more" if len(diff.changed) > names else ""
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
