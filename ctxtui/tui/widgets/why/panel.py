"""The "why" panel: one entry's fate, the numbers behind it, what would get it in, its score and its text.

Everything shown is read from the engine's `Outcome`, `Threshold` and
`Advice`; the panel formats, it never computes (the advice, which re-assembles
the packet to verify each move, is computed in a worker and kept with the
view). The score lines are the packer's own components (ctx's recency and
relevance, Shabka's seven signals, Cortex's five factors...). It follows a
`View` and the selected entry's key (both data-bound by the main screen).
Entry text is untrusted: it goes into Rich `Text` objects (never markup)
after control characters are neutralised.
"""

from __future__ import annotations

import re
import weakref
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import var

from ctxtui.engine.explain.components import matched_keywords, score_lines
from ctxtui.engine.explain.reasons import describe, describe_threshold
from ctxtui.engine.explain.thresholds import Threshold
from ctxtui.engine.fate import Fate
from ctxtui.engine.model import Outcome, ScoreBreakdown
from ctxtui.engine.packers.ctx.versions import VERSIONS
from ctxtui.safe_text import clean_block, clean_line
from ctxtui.tui.host import services
from ctxtui.tui.themes import FATE_SYMBOL, fate_colors, fate_symbols, muted_color
from ctxtui.tui.widgets.layout import forget_height
from ctxtui.tui.widgets.why.body import WhyBody

if TYPE_CHECKING:
    from ctxtui.session import View

MAX_TEXT_LINES = 80
ADVICE_SECONDS = 3.0  # one entry's advice search: at 50,000 memories each move verified costs ~0.4 s


def render_why(
    outcome: Outcome | None,
    threshold: Threshold | None,
    *,
    thresholds_ready: bool,
    blocker_title: str | None,
    colors: dict[Fate, str],
    muted: str = "grey50",
    symbols: dict[Fate, str] | None = None,
    packer_name: str = "ctx-0.8.1",
    advice: str | None = None,
    history: Text | None = None,
) -> Text:
    """The panel's content for one outcome; `symbols` are the theme's fate glyphs (the table's).

    `advice`: "To get it in full: …" (verified moves), "" when there is none, None while it is computed.
    `history`: the entry followed through git (`y`), or None when it was not asked for.
    """
    if outcome is None:
        return Text("Select an entry to see why it landed where it did.", style=muted)
    entry = outcome.entry
    color = colors[outcome.fate]
    out = Text()
    out.append(f"{(symbols or FATE_SYMBOL)[outcome.fate]} {outcome.fate.value}", style=f"bold {color}")
    tier = f" (tier {outcome.tier})" if packer_name in VERSIONS else ""  # ctx agent's tiers; others have steps
    out.append(f"  ·  {entry.section}{tier}  ·  {entry.tokens:,} tokens\n", style=muted)
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
        out.append(describe_threshold(threshold) + "\n")
    elif not thresholds_ready:
        out.append("computing…\n", style=muted)
    else:
        out.append("n/a\n", style=muted)
    if outcome.fate is not Fate.INCLUDED:
        if advice is None:
            out.append("To get it in: computing…\n", style=muted)
        elif advice.startswith("To get it"):
            out.append(clean_line(advice) + "\n", style=f"bold {colors[Fate.INCLUDED]}")
        elif advice:  # no move verified before the search's time bound
            out.append(clean_line(advice) + "\n", style=muted)
        elif thresholds_ready:
            out.append("To get it in: no single change found that does it\n", style=muted)
    out.append("\n")

    if history is not None:
        out.append("History", style="bold underline")
        out.append("  (y: in a dialog)\n", style=muted)
        out.append_text(history)
        out.append("\n")

    keywords = matched_keywords(outcome)
    score = outcome.score
    if isinstance(score, ScoreBreakdown) and packer_name.startswith("ctx"):
        _ctx_score(out, score, keywords, colors, muted)
    else:
        lines = score_lines(packer_name, outcome)
        if lines:
            out.append("Score\n", style="bold underline")
            width = max(len(label) for label, _ in lines)
            for label, value in lines:
                out.append(f"  {label:<{width}}  {clean_line(value)}\n")
            out.append("\n")
    details = [(name, value) for name, value in entry.extra if value is not None and value != ""]
    if details and not packer_name.startswith("ctx"):
        out.append("Details\n", style="bold underline")
        for name, value in details:
            shown = f"{value:.4g}" if isinstance(value, float) else str(value)
            out.append(f"  {clean_line(name.replace('_', ' '))}: {clean_line(shown)}\n")
        out.append("\n")

    out.append("Text\n", style="bold underline")
    out.append_text(highlighted(entry.text, keywords, colors[Fate.SUMMARIZED]))
    return out


def _ctx_score(
    out: Text, score: ScoreBreakdown, keywords: tuple[str, ...], colors: dict[Fate, str], muted: str
) -> None:
    """ctx's score: recency + relevance (× importance and usage for memories), with the matched keywords."""
    out.append("Score", style="bold underline")
    out.append(f"  {score.total:.3f}" + (f"  (rank {score.rank})" if score.rank else "") + "\n")
    age = "date unparsable" if score.age_days is None else f"{score.age_days} days old"
    out.append(f"  recency     {score.recency:<6} ({age})\n")
    out.append(f"  relevance   {score.relevance:<6.3f} ")
    if keywords:
        out.append("(")
        for n, keyword in enumerate(keywords):
            out.append(keyword, style=f"bold {colors[Fate.SUMMARIZED]}")
            if n < len(keywords) - 1:
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
    """The selected entry's outcome at the view's budget; says "computing…" until the thresholds are in."""

    DEFAULT_CSS = """
    WhyPanel { border-left: vkey $panel; padding: 0 1; }
    WhyPanel > Static { width: 1fr; }
    """

    view: var[View | None] = var(None, init=False)
    selected_key: var[str | None] = var(None, init=False)
    _content: Text | None = None  # the explanation on screen
    _shape: tuple[int, str] | None = None  # (width, its text with every digit 0) when its height was last measured

    def compose(self) -> ComposeResult:
        yield WhyBody(id="why-body")

    def on_mount(self) -> None:
        # Colours and glyphs are baked into the Text: a theme switch redraws it.
        self.app.theme_changed_signal.subscribe(self, lambda theme: self.refresh_explanation())

    def watch_view(self) -> None:
        self.refresh_explanation()

    def watch_selected_key(self) -> None:
        self.refresh_explanation()

    def explanation(self) -> Text | None:
        """The text for the selected entry (None before the first view)."""
        view, key = self.view, self.selected_key
        if view is None:
            return None
        outcome = view.plan.outcome(key) if key else None
        loaded = view.loaded
        threshold = loaded.thresholds().get(outcome.entry.key) if loaded.thresholds_ready and outcome else None
        blocker = view.plan.outcome(outcome.blocked_by) if outcome and outcome.blocked_by else None
        variables = services(self).theme_colors()
        advice = _advice_memo(view).get(key) if key else None
        if outcome is not None and outcome.fate is not Fate.INCLUDED and advice is None and loaded.thresholds_ready:
            self._ask_advice(view, outcome.entry.key, threshold)
        return render_why(
            outcome,
            threshold,
            history=self._history(view, key),
            thresholds_ready=loaded.thresholds_ready,
            blocker_title=blocker.entry.title if blocker else None,
            colors=fate_colors(variables),
            muted=muted_color(variables),
            symbols=fate_symbols(self.app.theme),
            packer_name=view.packer_name,
            advice=advice,
        )

    def _history(self, view: View, key: str | None) -> Text | None:
        """The History section's text once `y` asked for it at this budget (kept with the load)."""
        slot = (view.budget, key or "")
        if key is None or slot not in view.loaded.entry_histories:
            return None
        found = view.loaded.entry_histories[slot]
        if found is None:
            return Text("following it through the commits…\n", style=muted_color(services(self).theme_colors()))
        from ctxtui.tui.widgets.why.history_text import moves_text

        return moves_text(found, wrap=50)

    def _ask_advice(self, view: View, key: str, threshold: Threshold | None) -> None:
        """Compute the advice for `key` in a worker (each move is verified by re-assembling); redraw when in."""
        ref = weakref.ref(view)

        def job() -> None:
            from ctxtui.deadline import stop_after
            from ctxtui.engine.explain.advice import advise_bounded, describe_advice

            shown = ref()
            if shown is None:
                return

            def moved_on() -> bool:  # another entry selected, or the load replaced: nobody waits for this one
                return self.selected_key != key or shown.loaded.stale

            found, complete = advise_bounded(
                shown.loaded.packer, shown.budget, key, threshold, should_stop=stop_after(ADVICE_SECONDS, moved_on)
            )
            if not complete and moved_on():
                return  # not kept: asked again, in full, if the entry is selected again
            _advice_memo(shown)[key] = describe_advice(found, complete=complete)
            self.app.call_from_thread(self._advice_ready, ref, key)

        services(self).run_in_thread("advice", job)

    def _advice_ready(self, ref: weakref.ref[View], key: str) -> None:
        if ref() is self.view and key == self.selected_key:
            self.refresh_explanation()

    def refresh_explanation(self) -> None:
        """Draw the explanation again: the view, the selection, the theme or the view's thresholds changed."""
        content = self.explanation()
        if content is not None:
            self.show(content)

    def show(self, content: Text) -> None:
        """Draw `content`; a layout (the whole screen measured and repainted) only when its height changes.

        A slider step changes the numbers of an explanation far more often than
        its number of lines, and a layout costs a frame of its own (issue 11).
        """
        body = self.query_one("#why-body", WhyBody)
        if content == self._content:
            return  # the same explanation (a step that moved nothing this entry shows): nothing to repaint
        self._content = content
        width = body.content_size.width
        # A step mostly changes numbers: when only ASCII digits changed (one cell each), the words and so the
        # wrapped lines are the same: the lines that changed are drawn in place (`WhyBody.update_lines`), and
        # the height (Textual wraps the whole text to measure it) is not measured again.
        shape = (width, _DIGIT.sub("0", content.plain))
        if width > 0 and shape == self._shape and body.update_lines(content):
            return
        body.update(content, layout=False)
        if width > 0 and shape == self._shape:
            return
        self._shape = shape
        body.clear_cached_dimensions()
        if width <= 0 or body.get_content_height(self.content_size, self.app.size, width) != body.content_size.height:
            forget_height(body)
            body.refresh(layout=True)


_DIGIT = re.compile("[0-9]")


def _advice_memo(view: View) -> dict[str, str]:
    """The view's advice texts by entry key (filled by workers; a new view starts empty)."""
    memo: dict[str, str] = view.memo("why.advice", lambda v: {})
    return memo
