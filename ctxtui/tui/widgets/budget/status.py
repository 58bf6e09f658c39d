"""The status line: the project, the budget, what the packet uses (the packer's count and a real tokenizer's), fates.

It follows a `View` (data-bound by the main screen) and draws from it alone:
the real-token count is the view's too, filled in by a worker (`…` until
then). Totals are honest: what the budget governs is compared with it, and
what the packer adds after the budget (ctx's "Also Noted" titles) is shown
apart, so "over budget" appears only when the governed part exceeds it.
Below the width of the full line it switches to a compact form, so the
counts stay visible at 80 columns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.reactive import reactive

from ctxtui.engine.fate import Fate
from ctxtui.safe_text import clean_line
from ctxtui.tui.host import services
from ctxtui.tui.themes import fate_colors
from ctxtui.tui.widgets.budget.memory_note import MemoryNote
from ctxtui.tui.widgets.text_lines import TextLines

if TYPE_CHECKING:
    from ctxtui.session import View


class StatusLine(TextLines):
    """One line about the view's packet; `refresh()` after the view's real-token count arrives."""

    view: reactive[View | None] = reactive(None, init=False)
    memory_note: reactive[MemoryNote] = reactive(MemoryNote, init=False)
    """Whose packet it is, or a memory database waiting to be joined (`memory_note.py`)."""

    def __init__(self, project: str, tokenizer: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._project = clean_line(project)
        self._tokenizer = tokenizer

    def on_mount(self) -> None:
        # The over-budget colour is baked into the Text: a theme switch redraws it.
        self.app.theme_changed_signal.subscribe(self, lambda theme: self.refresh())

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text()
        text = self._text(view, compact=False)
        if text.cell_len > self.size.width:
            text = self._text(view, compact=True)
        return text

    def _subject(self, view: View) -> str:
        """The project, or for nous the logged turn rebuilt (its project is the database)."""
        turn = getattr(view.loaded.packer, "turn", None)
        if turn is None:
            return self._project
        summary = turn.summary
        number = summary.turn_number if summary.turn_number is not None else "?"
        return clean_line(f"nous turn {summary.session_id or '?'}#{number} ({summary.key})")

    def _text(self, view: View, compact: bool) -> Text:
        counts = view.counts
        colors = fate_colors(services(self).theme_colors())
        tokenizer = self._tokenizer.removesuffix("_base") if compact else self._tokenizer
        gap = " · " if compact else "  ·  "
        text = Text()
        plan = view.plan
        over = plan.budgeted > view.budget
        warn = f"bold {colors[Fate.DROPPED]}"
        text.append(f"{self._subject(view)}  ", style="bold")
        text.append(f"budget {view.budget:,} · used ~{plan.tokens_used:,}")
        if not compact:
            text.append(" tokens")
        extra = plan.unbudgeted
        if extra and not compact:
            text.append(f" ({plan.budgeted:,} within the budget + {extra:,} after it)")
        if over:
            text.append(" ⚠ over" if compact else " ⚠ over budget", style=warn)
        text.append(" · ")
        real = view.real_tokens
        if real is not None:
            text.append(f"{real:,} {tokenizer}")
        else:
            text.append(f"… {tokenizer}", style="dim")
        text.append(f"{gap}● {counts['included']:,} ◐ {counts['summarized']:,} ✕ {counts['dropped']:,}")
        text.append_text(self.memory_note.text(compact, style=f"bold {colors[Fate.SUMMARIZED]}"))
        return text
