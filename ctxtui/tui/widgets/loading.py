"""Loading a project: a progress bar for the first load, a banner for what could not be read, and one for
what ctx would refuse to read at all."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Label, ProgressBar, Static

from ctxtui.safe_text import clean_line
from ctxtui.tui.widgets.layout import forget_height


class LoadingBar(Vertical):
    """ "Loading <project>: <stage>…" and a bar; shown (class `shown`) only while nothing else is on screen."""

    def compose(self) -> ComposeResult:
        yield Label("Loading…", id="loading-label", markup=False)
        yield ProgressBar(total=None, show_eta=False, id="progress")

    def show_stage(self, text: str, step: int, total: int, *, visible: bool) -> None:
        if visible:  # reloads stay quiet: the old screen stays up until the new one is ready
            self.add_class("shown")
        self.query_one("#loading-label", Label).update(text)
        self.query_one("#progress", ProgressBar).update(total=total, progress=step)

    def hide(self) -> None:
        self.remove_class("shown")


class ProblemBanner(Static):
    """Problems reading the inputs, in at most 4 rows; shown (class `shown`) while there are any."""

    problems: reactive[tuple[str, ...]] = reactive((), init=False, always_update=True, repaint=False)

    def watch_problems(self, lines: tuple[str, ...]) -> None:
        if not lines:
            self.remove_class("shown")
            return
        # At most 4 rows (the banner's max-height): the heading, then up to 3 one-row lines, the
        # last of them saying how many more there are; a longer line ends in "…" instead of wrapping.
        # Content, not Text, and spaces instead of CSS padding: Textual 8.2.8 puts the "…" only there.
        parts: list = [(f" ⚠ {len(lines)} problem{'s' if len(lines) != 1 else ''} reading the inputs:", "bold")]
        shown = lines if len(lines) <= 3 else lines[:2]
        parts += ["\n   " + clean_line(line) for line in shown]
        if len(lines) > len(shown):
            parts.append(f"\n   … and {len(lines) - len(shown)} more (see `ctxtui pack` stderr)")
        forget_height(self)
        self.update(Content.assemble(*parts))
        self.add_class("shown")


class RefusalBanner(Static):
    """Where ctx would refuse this workspace (no .git, a missing file, a link...): said above the packet.

    ctxtui still computes the packet ctx would build otherwise; `ctxtui pack`
    fails as ctx does (--ignore-refusal or $CTXTUI_IGNORE_REFUSAL=1 hides this).
    """

    reason: reactive[str | None] = reactive(None, init=False, repaint=False)

    def watch_reason(self, reason: str | None) -> None:
        if not reason:
            self.remove_class("shown")
            return
        forget_height(self)
        self.update(
            Content.assemble(
                (" ⊘  ", "bold"),  # "no entry", in a glyph every monospace font draws one cell wide (⛔ is an emoji)
                (clean_line(reason), "bold"),
                "\n    ctx prints this instead of a packet; below is the packet it would build otherwise "
                "(`ctxtui pack` fails as ctx does; --ignore-refusal hides this)",
            )
        )
        self.add_class("shown")
