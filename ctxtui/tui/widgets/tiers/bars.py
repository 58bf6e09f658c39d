"""Tier bars: how each tier's slice of the budget was used, one bar per tier.

A bar shows tokens included in full (solid), "Also Noted" titles (a second
shade), tokens forced in past the cap (warning colour) and capacity left
(dim), each with its own glyph so the bar reads without colour. The numbers
follow in words. The widget only scales the engine's numbers to cells. It
follows a `View` (`view`, data-bound by the main screen) or takes buckets
directly (`update_tiers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive, var

from ctxtui.engine.model import Bucket
from ctxtui.tui.safe_text import clean_line, fit
from ctxtui.tui.widgets.layout import forget_height
from ctxtui.tui.widgets.text_lines import TextLines

if TYPE_CHECKING:
    from ctxtui.session import View

GLYPH_USED = "█"
GLYPH_SUMMARIZED = "▒"
GLYPH_OVERRUN = "▓"
GLYPH_FREE = "░"

_NAME_WIDTH = 22
_WIDE = 72  # below this many cells the numbers go on their own line


def apportion(values: Sequence[int], cells: int) -> list[int]:
    """Split `cells` in proportion to `values` (largest remainder).

    Any non-zero value gets at least one cell (taken from the largest part),
    so a 40-token overrun stays visible next to a 20,000-token cap.
    """
    positive = [max(0, v) for v in values]
    total = sum(positive)
    if total == 0 or cells <= 0:
        return [0] * len(values)
    exact = [v * cells / total for v in positive]
    counts = [int(x) for x in exact]
    remaining = cells - sum(counts)
    by_remainder = sorted(range(len(values)), key=lambda j: exact[j] - counts[j], reverse=True)
    for j in by_remainder[:remaining]:
        counts[j] += 1
    for j, v in enumerate(positive):
        if v and not counts[j]:
            donor = max(range(len(counts)), key=lambda k: counts[k])
            if counts[donor] > 1:
                counts[donor] -= 1
                counts[j] = 1
    return counts


def describe_tier(
    tier: Bucket, budget: int | None = None, delta: int | None = None, percent: bool = True, *, compact: bool = False
) -> str:
    """The numbers of a bucket in words, e.g. "1,240 / 2,000 tokens cap (25%) · 300 summarized · +40 over".

    A scored section's limit is its *share* (with a full-entry limit); other
    tiers have a *cap*; tier 1 has none. The percentage (`percent`) is the
    limit's part of the whole budget; `delta` is the change in tokens against
    the pin ("+120 vs pin"). `compact` leaves out the unit and says "full ≤"
    for narrow terminals (the `?` help explains the words).
    """
    if not tier.reached:
        return "not reached" + (f" · {delta:+,} vs pin" if delta else "")
    unit = "" if compact else " tokens"
    # Summaries the budget pays for (Cortex's pass 1) are part of what the bucket uses.
    shortened = tier.summarized if tier.summarized and not tier.unbudgeted else 0
    if tier.cap is not None:
        share = f" ({tier.cap / budget:.0%})" if budget and percent else ""
        word = "share" if tier.full_limit is not None else "cap"
        parts = [f"{tier.used + shortened:,} / {tier.cap:,}{unit} {word}{share}"]
    elif budget is not None:
        share = f" ({tier.used / budget:.0%})" if budget and percent else ""
        parts = [f"{tier.used:,} of {budget:,}{unit} budget{share}", "no cap"]
    else:
        parts = [f"{tier.used:,}{unit}", "no cap"]
    if tier.full_limit is not None:
        parts.append(f"{'full ≤' if compact else 'full-entry limit'} {tier.full_limit:,}")
    if tier.summarized:
        unpaid = tier.unbudgeted
        parts.append(f"{tier.summarized:,} " + ("summarized after the budget" if unpaid else "of it as summaries"))
    if tier.overrun:
        parts.append(f"+{tier.overrun:,} over")
    if delta:
        parts.append(f"{delta:+,} vs pin")
    return " · ".join(parts)


class TierBars(TextLines):
    """One bar per `Bucket`; `tiers` is reactive (assign a new list to redraw)."""

    COMPONENT_CLASSES = {
        "tier-bars--name",
        "tier-bars--used",
        "tier-bars--summarized",
        "tier-bars--overrun",
        "tier-bars--free",
        "tier-bars--numbers",
        "tier-bars--over-text",
        "tier-bars--unreached",
    }

    DEFAULT_CSS = """
    TierBars { height: auto; width: 1fr; }
    TierBars > .tier-bars--name { text-style: bold; }
    TierBars > .tier-bars--used { color: $fate-included; }
    TierBars > .tier-bars--summarized { color: $fate-summarized; }
    TierBars > .tier-bars--overrun { color: $overrun; }
    TierBars > .tier-bars--free { color: $foreground 25%; }
    TierBars > .tier-bars--numbers { color: $foreground; }
    TierBars > .tier-bars--over-text { color: $overrun; text-style: bold; }
    TierBars > .tier-bars--unreached { color: $text-muted; }
    """

    # A new allocation repaints the bars; only a new number of bars (another packer) needs a layout.
    tiers: reactive[tuple[Bucket, ...]] = reactive(())
    view: var[View | None] = var(None, init=False)
    deltas: var[dict[str, int]] = var(dict, init=False)
    """Tokens per bucket against the pin (by bucket name), shown after each bar's numbers."""

    def __init__(
        self,
        tiers: Sequence[Bucket] = (),
        *,
        budget: int | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._styles: dict[str, Style] = {}
        self.budget = budget
        self.set_reactive(TierBars.tiers, tuple(tiers))

    def update_tiers(self, tiers: Sequence[Bucket], budget: int | None = None) -> None:
        """Show new allocations. `budget` scales an uncapped tier (tier 1) against the budget."""
        relayout = len(tiers) != len(self.tiers)
        if not relayout and budget == self.budget and tuple(tiers) == self.tiers:
            return  # the same bars: nothing to paint
        self.budget = budget
        if relayout:
            forget_height(self)  # one or two lines per tier
        self.tiers = tuple(tiers)
        self.refresh(layout=relayout)

    def watch_deltas(self) -> None:
        self.refresh()

    def watch_view(self, view: View | None) -> None:
        if view is not None:
            self.update_tiers(view.plan.buckets, budget=view.budget)

    def get_content_height(self, container, viewport, width: int) -> int:
        per_tier = 1 if width >= _WIDE else 2
        return max(1, len(self.tiers) * per_tier)

    def _s(self, name: str) -> Style:
        # Full styles: a partial style drops the alpha of "$foreground 25%". Kept until the styles change:
        # Textual resolves a component style through the whole stylesheet on every call (~2 ms a step).
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(name)
        return style

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda theme: self._restyle())

    def _restyle(self) -> None:
        self._styles.clear()
        self.refresh()

    def render(self) -> Text:
        width = self.size.width
        numbers = [self._numbers(tier) for tier in self.tiers]
        room = width // 2 if width >= _WIDE else width - _NAME_WIDTH  # beside the bar, or beside the name
        if max((n.cell_len for n in numbers), default=0) > room:
            numbers = [self._numbers(tier, compact=True) for tier in self.tiers]
        # One numbers width for all tiers, so the bars line up.
        numbers_width = min(max([24, *(n.cell_len for n in numbers)]), width // 2)
        out = Text(no_wrap=True, overflow="crop", end="")
        for index, tier in enumerate(self.tiers):
            if index:
                out.append("\n")
            out.append_text(self._render_tier(tier, numbers[index], width, numbers_width))
        return out

    def _bar(self, tier: Bucket, cells: int) -> Text:
        bar = Text(no_wrap=True)
        if cells <= 0:
            return bar
        if not tier.reached:
            bar.append(GLYPH_FREE * cells, self._s("tier-bars--unreached"))
            return bar
        solid = max(0, tier.used - tier.overrun)
        # Capacity left: under the cap, or (uncapped tier 1) the rest of the budget.
        room = tier.cap if tier.cap is not None else self.budget
        free = max(0, room - tier.used - tier.summarized) if room is not None else 0
        counts = apportion([solid, tier.overrun, tier.summarized, free], cells)
        if not any(counts):  # an empty tier with no cap: nothing used, nothing free
            bar.append(GLYPH_FREE * cells, self._s("tier-bars--free"))
            return bar
        for glyph, style, count in (
            (GLYPH_USED, "tier-bars--used", counts[0]),
            (GLYPH_OVERRUN, "tier-bars--overrun", counts[1]),
            (GLYPH_SUMMARIZED, "tier-bars--summarized", counts[2]),
            (GLYPH_FREE, "tier-bars--free", counts[3]),
        ):
            if count:
                bar.append(glyph * count, self._s(style))
        return bar

    def _numbers(self, tier: Bucket, compact: bool = False) -> Text:
        if not tier.reached:
            return Text("not reached", self._s("tier-bars--unreached"))
        wide = self.size.width >= _WIDE
        words = describe_tier(tier, self.budget, self.deltas.get(tier.name), percent=wide, compact=compact)
        text = Text(words, self._s("tier-bars--numbers"))
        if tier.overrun:
            text.highlight_words([f"+{tier.overrun:,} over"], self._s("tier-bars--over-text"))
        return text

    def _render_tier(self, tier: Bucket, numbers: Text, width: int, numbers_width: int) -> Text:
        dim = not tier.reached
        name_style = self._s("tier-bars--unreached" if dim else "tier-bars--name")
        name = clean_line(tier.name)
        line = Text(no_wrap=True, overflow="ellipsis")
        if width >= _WIDE:
            name_width = _NAME_WIDTH
            bar_width = max(4, width - name_width - numbers_width - 2)
            line.append(fit(name, name_width), name_style)
            line.append_text(self._bar(tier, bar_width))
            line.append("  ")
            numbers.truncate(max(0, width - name_width - bar_width - 2), overflow="ellipsis")
            line.append_text(numbers)
            return line
        head = Text(no_wrap=True, overflow="ellipsis")
        head.append(name, name_style)
        head.append("  ")
        head.append_text(numbers)
        head.truncate(width, overflow="ellipsis")
        line.append_text(head)
        line.append("\n")
        line.append_text(self._bar(tier, width))
        return line
