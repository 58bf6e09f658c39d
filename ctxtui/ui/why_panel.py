"""The "why" panel: one entry's fate, the numbers behind it, its score and its text.

Everything shown is read from the engine's `Outcome` and `Threshold`; the
panel formats, it never computes. Entry text is untrusted: it goes into Rich
`Text` objects (never markup) after control characters are neutralised.
"""

from __future__ import annotations

from rich.text import Text
from textual.color import Color, ColorParseError
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ctxtui.engine.explain.reasons import describe, describe_threshold
from ctxtui.engine.explain.thresholds import Threshold
from ctxtui.engine.model import Fate, Outcome
from ctxtui.ui.rows import FATE_SYMBOL
from ctxtui.ui.safe_text import clean_block, clean_line
from ctxtui.ui.themes import THEME_VARIABLE_DEFAULTS

MAX_TEXT_LINES = 80


def fate_colors(variables: dict[str, str]) -> dict[Fate, str]:
    """The theme's fate colours (falling back to colour-blind-safe defaults)."""
    return {
        fate: variables.get(f"fate-{fate.value}", THEME_VARIABLE_DEFAULTS[f"fate-{fate.value}"]) for fate in Fate
    }


def muted_color(variables: dict[str, str]) -> str:
    """Secondary text for this theme: the foreground 35% of the way to the background.

    `$text-muted` is "auto 60%", which Rich cannot use; this keeps ≥ 4.5:1
    contrast on the dark, light and high-contrast themes alike.
    """
    try:
        background = Color.parse(variables.get("background", "#000000"))
        foreground = Color.parse(variables.get("foreground", "#ffffff"))
    except ColorParseError:
        return "grey50"
    return foreground.blend(background, 0.35).hex


def render_why(outcome: Outcome | None, threshold: Threshold | None, *, thresholds_ready: bool,
               blocker_title: str | None, colors: dict[Fate, str], muted: str = "grey50",
               symbols: dict[Fate, str] | None = None) -> Text:
    """The panel's content for one outcome; `symbols` are the theme's fate glyphs (the table's)."""
    if outcome is None:
        return Text("Select an entry to see why it landed where it did.", style=muted)
    entry = outcome.entry
    color = colors[outcome.fate]
    out = Text()
    out.append(f"{(symbols or FATE_SYMBOL)[outcome.fate]} {outcome.fate.value}", style=f"bold {color}")
    out.append(f"  ·  {entry.section} (tier {outcome.tier})  ·  {entry.tokens:,} tokens\n", style=muted)
    out.append(clean_line(entry.title) + "\n", style="bold")
    out.append(clean_line(entry.source) + "\n\n", style=muted)

    out.append("Why\n", style="bold underline")
    out.append(clean_line(describe(outcome)) + "\n")
    if blocker_title:
        out.append("Blocked by: ", style=muted)
        out.append(clean_line(blocker_title) + "\n")
    out.append("\n")

    out.append("Budgets\n", style="bold underline")
    if threshold is not None:
        out.append(describe_threshold(threshold) + "\n\n")
    elif not thresholds_ready:
        out.append("computing…\n\n", style=muted)
    else:
        out.append("n/a\n\n", style=muted)

    score = outcome.score
    if score is not None:
        out.append("Score", style="bold underline")
        out.append(f"  {score.total:.3f}" + (f"  (rank {score.rank})" if score.rank else "") + "\n")
        age = "date unparsable" if score.age_days is None else f"{score.age_days} days old"
        out.append(f"  recency     {score.recency:<6} ({age})\n")
        out.append(f"  relevance   {score.relevance:<6.3f} ")
        if score.matched_keywords:
            out.append("(")
            for n, keyword in enumerate(score.matched_keywords):
                out.append(keyword, style=f"bold {colors[Fate.SUMMARIZED]}")
                if n < len(score.matched_keywords) - 1:
                    out.append(", ")
            out.append(")\n")
        else:
            out.append("(no task keyword in it)\n", style=muted)
        if score.importance is not None:
            out.append(f"  importance  {score.importance:.2f}\n")
        if score.usage is not None:
            out.append(f"  usage       {score.usage:.2f}\n")
        if score.superseded:
            out.append("  superseded: score 0\n", style=colors[Fate.DROPPED])
        out.append("\n")

    out.append("Text\n", style="bold underline")
    out.append_text(highlighted(entry.text, score.matched_keywords if score else (), colors[Fate.SUMMARIZED]))
    return out


def highlighted(text: str, keywords, style: str) -> Text:
    """The entry's text (first lines) with each matched keyword highlighted where it occurs."""
    lines = text.split("\n")
    clipped = "\n".join(lines[:MAX_TEXT_LINES])
    shown = Text(clean_block(clipped))
    lowered = shown.plain.lower()
    if len(lowered) == len(shown.plain):
        for keyword in keywords:
            start = lowered.find(keyword)
            while start >= 0:
                shown.stylize(f"bold reverse {style}", start, start + len(keyword))
                start = lowered.find(keyword, start + len(keyword))
    if len(lines) > MAX_TEXT_LINES:
        shown.append(f"\n… {len(lines) - MAX_TEXT_LINES} more lines", style="italic")
    return shown


class WhyPanel(VerticalScroll):
    """Shows the selected entry's outcome; `show()` is called by the app."""

    DEFAULT_CSS = """
    WhyPanel { border-left: vkey $panel; padding: 0 1; }
    WhyPanel > Static { width: 1fr; }
    """

    def compose(self):
        yield Static(id="why-body")

    def show(self, content: Text) -> None:
        body = self.query_one("#why-body", Static)
        # Textual 8.2.8 caches a widget's box model by `_layout_updates`, which `refresh(layout=True)`
        # bumps only when no layout is pending. Two updates in one frame (thresholds arrive, then the
        # first selection) could keep the first text's height: a 12-line explanation cut to 1 line.
        body._layout_updates += 1
        body.update(content)


class WhyScreen(ModalScreen):
    """The why panel as a dialog, for terminals too narrow to show it beside the table."""

    BINDINGS = [Binding("escape,enter,q", "dismiss", "Close")]
    DEFAULT_CSS = """
    WhyScreen { align: center middle; }
    WhyScreen > VerticalScroll { width: 90%; height: 90%; padding: 0 1; border: round $primary; background: $panel; }
    """

    def __init__(self, content: Text) -> None:
        super().__init__()
        self._content = content

    def compose(self):
        with VerticalScroll():
            yield Static(self._content)
