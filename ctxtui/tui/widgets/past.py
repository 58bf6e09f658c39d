"""The banner over a packet from the past: which commit, that it is read-only, and the way back."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from ctxtui.safe_text import clean_line
from ctxtui.tui.widgets.layout import forget_height


class PastBanner(Static):
    """Shown (class `shown`) while the packet on screen is a commit's: `label` names it; None hides it."""

    label: reactive[str | None] = reactive(None, init=False, repaint=False)

    def watch_label(self, label: str | None) -> None:
        if not label:
            self.remove_class("shown")
            return
        forget_height(self)
        self.update(
            Content.assemble(
                (" ↶ THE PAST: ", "bold"),
                (clean_line(label), "bold"),
                "\n    read-only: .context/ and .ctxrc as committed, packed at the commit's date (nothing is "
                "saved into the project) · h: history · H: back to the working tree",
            )
        )
        self.add_class("shown")
