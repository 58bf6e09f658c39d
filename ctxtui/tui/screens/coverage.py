"""The `g` view: coverage curves — per section, how many entries are in full at every budget.

Answers "which budget should my agent get so the entries that matter are in
full?": a curve per section over the budget (exact: read off the budgets
where fates change), the current budget marked, a click on the chart jumps
there. Below, per section: in full / title only / dropped now, how many can
ever be in full, how many never are and why, the budgets for 50 %, 90 % and
100 % of what can be in full, and the budget past which the packet stops
changing. The numbers come from `engine.explain.coverage`; this only draws.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Label, Static

from ctxtui.engine.explain.coverage import SHARES, Coverage, SectionCoverage, never_full_summary
from ctxtui.safe_text import clean_line
from ctxtui.tui.actions import COVERAGE, bindings

# One glyph per curve, so the chart reads without colour too.
GLYPHS = ("●", "■", "▲", "◆", "✚", "○", "□", "△")
COLORS = ("#4fc3f7", "#ffb74d", "#81c784", "#e57373", "#ba68c8", "#fff176", "#a1887f", "#90a4ae")
_AXIS_WIDTH = 6  # "100% ┤"


def full_at(section: SectionCoverage, budget: int) -> int:
    """How many of the section's entries are in full at `budget` (the curve is a step function)."""
    full = 0
    for point in section.curve:
        if point.budget > budget:
            break
        full = point.full
    return full


def chart_maximum(found: Coverage) -> int:
    """The budget at the chart's right edge: a little past where the packet stops changing (or the budget)."""
    last = max((p.budget for s in found.sections for p in s.curve), default=0)
    end = found.settles_at if found.settles_at is not None else (found.scanned_to or last)
    return max(1000, int(max(end, found.budget, last) * 1.1))


class CoverageChart(Widget):
    """The curves: x is the budget (0 to `maximum`), y the share of the section's entries in full."""

    DEFAULT_CSS = "CoverageChart { height: 14; }"

    class Jump(Message):
        """A click on the chart: show the packet at `budget`."""

        def __init__(self, budget: int) -> None:
            super().__init__()
            self.budget = budget

    def __init__(self, found: Coverage, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.found = found
        self.maximum = chart_maximum(found)
        self._shares: tuple[int, list[list[float]]] | None = None  # (plot width, per section a share per column)

    def shares(self, plot_width: int) -> list[list[float]]:
        """Per section, the share of its entries in full at each column's budget (one walk per curve)."""
        if self._shares is None or self._shares[0] != plot_width:
            table = []
            for section in self.found.sections:
                column_shares, point, full = [], 0, 0
                curve = section.curve
                for column in range(plot_width):
                    budget = int(column * self.maximum / max(1, plot_width - 1))
                    while point < len(curve) and curve[point].budget <= budget:
                        full = curve[point].full
                        point += 1
                    column_shares.append(full / section.total if section.total else 0.0)
                table.append(column_shares)
            self._shares = (plot_width, table)
        return self._shares[1]

    def _plot_width(self) -> int:
        return max(1, self.size.width - _AXIS_WIDTH)

    def budget_at(self, x: int) -> int:
        """The budget under column `x` of the widget, rounded to a round number."""
        width = self._plot_width()
        column = min(max(0, x - _AXIS_WIDTH), width - 1)
        raw = column * self.maximum / max(1, width - 1)
        step = 100 if self.maximum <= 20_000 else 1000
        return int(round(raw / step) * step)

    def render_line(self, y: int) -> Strip:
        width, height = self.size.width, self.size.height
        plot_rows = max(1, height - 2)
        plot_width = self._plot_width()
        axis = Style(dim=True)
        if y == plot_rows:  # the x axis
            return Strip([Segment(" " * (_AXIS_WIDTH - 1) + "└" + "─" * plot_width, axis)], width)
        if y == plot_rows + 1:  # budget labels
            labels = [" "] * width
            for fraction in (0.0, 0.25, 0.5, 0.75, 1.0):
                text = f"{int(self.maximum * fraction):,}"
                x = _AXIS_WIDTH + int(fraction * (plot_width - 1))
                x = min(max(0, x - len(text) // 2), width - len(text))
                labels[x : x + len(text)] = list(text)
            return Strip([Segment("".join(labels), axis)], width)
        share_top = 1 - y / plot_rows  # this row shows shares in (share_bottom, share_top]
        share_bottom = 1 - (y + 1) / plot_rows
        label = {0: "100% ┤", plot_rows // 2: " 50% ┤", plot_rows - 1: "  0% ┤"}.get(y, "     │")
        cells: list[tuple[str, Style]] = [(" ", Style())] * plot_width
        marker = round(self.found.budget / self.maximum * (plot_width - 1)) if self.maximum else 0
        if 0 <= marker < plot_width:
            cells[marker] = ("│", Style(color="#ffffff", bold=True))
        bottom_row = y == plot_rows - 1
        for index, (section, column_shares) in enumerate(
            zip(self.found.sections, self.shares(plot_width), strict=True)
        ):
            if section.can_be_full == 0:
                continue  # never in full at any budget: a flat line at 0 % would hide the others' curves
            glyph, style = GLYPHS[index % len(GLYPHS)], Style(color=COLORS[index % len(COLORS)])
            for column, share in enumerate(column_shares):
                if share_bottom < share <= share_top or (bottom_row and share == 0):
                    cells[column] = (glyph, style)
        segments = [Segment(label, axis)] + [Segment(char, style) for char, style in cells]
        return Strip(segments).adjust_cell_length(width)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and offset.x >= _AXIS_WIDTH:
            event.stop()
            self.post_message(self.Jump(self.budget_at(offset.x)))


def coverage_table(found: Coverage) -> Text:
    """Per section, in words and numbers; the legend of the chart's glyphs."""
    out = Text()
    if found.settles_at is not None:
        out.append(f"The packet stops changing at a budget of {found.settles_at:,} tokens.\n", style="bold")
    elif found.scanned_to is not None:
        out.append(
            f"Budgets were examined up to {found.scanned_to:,} tokens: the scan stopped at its time bound "
            "(too many change points to look at in that time), so the curves end there.\n",
            style="bold",
        )
    out.append(f"At {found.budget:,} tokens, per section (in full · title only · dropped):\n\n")
    for index, section in enumerate(found.sections):
        glyph, color = GLYPHS[index % len(GLYPHS)], COLORS[index % len(COLORS)]
        out.append(f"{glyph} ", style=color)
        out.append(clean_line(section.section), style="bold")
        out.append(
            f"  {section.full_now:,} · {section.title_now:,} · {section.dropped_now:,} of {section.total:,}"
            f"  ·  {section.can_be_full:,} can be in full\n"
        )
        if section.can_be_full:
            budgets = []
            for share in SHARES:
                value = section.budget_for.get(share)
                budgets.append(f"{share:.0%} of those from {value:,}" if value is not None else f"{share:.0%}: —")
            out.append("    " + " · ".join(budgets) + " tokens\n")
        never = never_full_summary(section)
        if never:
            out.append(f"    {clean_line(never)}\n", style="dim")
    return out


class CoverageScreen(ModalScreen[int | None]):
    """The chart and the table; dismisses with the clicked budget (None: Esc)."""

    BINDINGS = bindings(COVERAGE)
    DEFAULT_CSS = """
    CoverageScreen { align: center middle; }
    CoverageScreen > Vertical { width: 100%; height: 100%; padding: 0 1; background: $panel; }
    CoverageScreen #coverage-title { text-style: bold; }
    CoverageScreen #coverage-hint { color: $text-muted; }
    """

    def __init__(self, found: Coverage, packer_title: str) -> None:
        super().__init__()
        self._found = found
        self._title = packer_title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(
                clean_line(f"Coverage: {self._title} — entries in full by budget (│ marks the budget on screen)"),
                id="coverage-title",
                markup=False,
            )
            yield CoverageChart(self._found, id="chart")
            with VerticalScroll():
                yield Static(coverage_table(self._found), id="coverage-table")
            yield Label("Click the chart to show the packet at that budget · Esc closes", id="coverage-hint")

    def on_coverage_chart_jump(self, message: CoverageChart.Jump) -> None:
        self.dismiss(message.budget)

    def action_close(self) -> None:
        self.dismiss(None)
