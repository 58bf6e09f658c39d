"""Where nous's budget-cut items sit in a mid-text section, and which items nous logs as cut.

nous marks an item `budget_truncated` when the first 40 characters of its
stripped content (`_tr_content`: content, summary, description or name) are
not in the section's cut text (`_tr_budget`, context.py:315-331), and
`rendered` otherwise (`finalize`, retrieval_trace.py: `final_rank` is the
item's place among the rendered ones). That is an approximation of what the
cut removed: an item with empty content is never marked, whatever the cut;
a fact whose content was cut at a word boundary inside its first 40
characters is marked though its line shows; an abandoned episode (printed as
nothing) is marked. So a cut item need not come after the rendered ones.

The log orders the rendered items (`final_rank`) but not the cut ones. The
rebuild keeps the rendered order and places each cut item by nous's pre-cut
order as `pipeline` estimates it (exact for decisions: their pipeline never
re-sorts), where the 40-character rule allows it: an item whose
probe its own line shows must come after the last rendered item with a
probe; one whose probe its line never shows may sit anywhere.
`logged_split` then applies nous's rule to the rebuilt text, so the rebuild
can say where it disagrees with the log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

PROBE_CHARS = 40


@dataclass(frozen=True, slots=True)
class Item:
    """One candidate of a mid-text section, as the ordering needs it."""

    index: int  # the candidate's index in the log
    rendered: bool  # logged rendered (else budget_truncated)
    final_rank: int | None
    key: tuple[float, int]  # nous's pre-cut order, estimated (`pipeline.order_key`): ascending
    probe: str  # `_tr_budget`'s probe ("" never marks)
    text: str | None  # its formatted line(s); None prints nothing

    @property
    def shows_probe(self) -> bool:
        """Its own line contains its probe: only a cut can hide it."""
        return bool(self.probe) and self.text is not None and self.probe in self.text


def _rank(value: int | None) -> int:
    return value if value is not None else 10**9


def section_order(items: Sequence[Item]) -> list[Item]:
    """The items in the order nous printed them, as far as the log tells (see the module's docstring)."""
    ordered = sorted((i for i in items if i.rendered), key=lambda i: (_rank(i.final_rank), i.index))
    cut = sorted((i for i in items if not i.rendered), key=lambda i: (i.key, i.index))
    last_probed = max((pos for pos, i in enumerate(ordered) if i.probe), default=-1)
    for item in cut:
        start = last_probed + 1 if item.shows_probe else 0
        pos = len(ordered)
        for at in range(start, len(ordered)):
            if ordered[at].key > item.key:
                pos = at
                break
        ordered.insert(pos, item)
        if pos <= last_probed:
            last_probed += 1
    return ordered


def logged_split(probes: Sequence[str], cut_text: str | None) -> list[bool]:
    """nous's `_tr_budget` on a section's cut text: for each item, True when it would be logged rendered.

    `cut_text` None: the section was not built, so nothing in it is marked
    (nous logs such items by the gate that skipped the type, not here).
    """
    if cut_text is None:
        return [True] * len(probes)
    return [not probe or probe in cut_text for probe in probes]


def disagreements(items: Sequence[Item], cut_text: str | None, label: str, problem: Callable[[str], None]) -> int:
    """Report (through `problem`) the items whose rebuilt split differs from the logged one; their count."""
    split = logged_split([i.probe for i in items], cut_text)
    wrong = [i for i, rendered in zip(items, split, strict=True) if rendered != i.rendered]
    if wrong:
        problem(
            f"{label}: nous's 40-character check on the rebuilt text disagrees with the log for "
            f"{len(wrong)} item{'s' if len(wrong) != 1 else ''} (the order of items the budget cut is not "
            "logged, or a row changed since the turn)"
        )
    return len(wrong)
