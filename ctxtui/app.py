"""The ctxtui application: drag the budget, watch every entry move.

The app is a thin layer over `Session`: widgets show what the engine
produced and send intents (budget changed, entry selected, copy) back as
messages. Slow work (the first load, thresholds, real-tokenizer counts, reloads)
runs in workers; the slider path is one engine assembly and a repaint.
"""

from __future__ import annotations

import asyncio
import gc
import os
from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Footer, Label, ProgressBar, Static
from textual.worker import Worker, WorkerState, get_current_worker

from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import Fate
from ctxtui.engine.sources.context import ContextMissing
from ctxtui.session import LOAD_STEPS, MAX_BUDGET, MIN_BUDGET, Session, View
from ctxtui.ui.budget_input import BudgetEntered, BudgetInputScreen
from ctxtui.ui.commands import CtxtuiCommands
from ctxtui.ui.entries_table import EntriesTable
from ctxtui.ui.help_screen import HelpScreen
from ctxtui.ui.preview import PreviewScreen
from ctxtui.ui.rows import RowFilter, rows_from_outcomes
from ctxtui.safe_text import clean_block, clean_line
from ctxtui.ui.slider import BudgetSlider
from ctxtui.ui.themes import ThemeVariablesMixin
from ctxtui.ui.tier_bars import TierBars
from ctxtui.ui.why_panel import WhyPanel, fate_colors, muted_color, render_why

REAL_TOKENIZER = "o200k_base"
NARROW = 110  # columns below which the why panel becomes a dialog (Enter)
LARGE_WORKSPACE = 5000  # entries; above this, recompute off the UI thread
FATE_CYCLE = (None, Fate.INCLUDED, Fate.SUMMARIZED, Fate.DROPPED)


class CtxtuiApp(ThemeVariablesMixin, App):
    """One project, live."""

    TITLE = "ctxtui"
    COMMANDS = App.COMMANDS | {CtxtuiCommands}
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; padding: 0 1; background: $panel; }
    #budget-row { height: 1; padding: 0 1; }
    #budget-row > Label { width: auto; padding-right: 1; }
    #budget-row > BudgetSlider { width: 1fr; }
    #banner { height: auto; max-height: 4; background: $warning 20%; color: $text; display: none;
              width: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
    #banner.shown { display: block; }
    #loading { height: 3; padding: 1 2; display: none; }
    #loading.shown { display: block; }
    TierBars { height: auto; padding: 0 1; }
    #main { height: 1fr; }
    EntriesTable { width: 2fr; }
    WhyPanel { width: 1fr; min-width: 40; }
    Screen.narrow WhyPanel { display: none; }
    """
    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark", "help", "Help", key_display="?", id="app.help"),
        Binding("b", "type_budget", "Budget…", id="app.type_budget"),
        Binding("left_square_bracket", "nudge(-100)", "−100", key_display="[", id="app.budget_down"),
        Binding("right_square_bracket", "nudge(100)", "+100", key_display="]", id="app.budget_up"),
        Binding("left_curly_bracket", "nudge(-1000)", "−1000", key_display="{", show=False, id="app.budget_down_coarse"),
        Binding("right_curly_bracket", "nudge(1000)", "+1000", key_display="}", show=False, id="app.budget_up_coarse"),
        Binding("slash", "filter_text", "Filter", key_display="/", id="app.filter"),
        Binding("f", "cycle_fate", "Fate", id="app.cycle_fate"),
        Binding("e", "cycle_section", "Section", show=False, id="app.cycle_section"),
        Binding("s", "cycle_sort", "Sort", id="app.cycle_sort"),
        Binding("p", "preview('md')", "Preview", id="app.preview"),
        Binding("c", "copy('md')", "Copy", id="app.copy"),
        Binding("C", "copy('json')", "Copy JSON", show=False, id="app.copy_json"),
        Binding("w", "save('md')", "Save", show=False, id="app.save"),
        Binding("r", "reload", "Reload", show=False, id="app.reload"),
        Binding("escape", "clear_filters", "Clear filters", key_display="Esc", show=False, id="app.clear_filters"),
        Binding("exclamation_mark", "quirks", "Quirks", key_display="!", show=False, id="app.quirks"),
    ]

    def __init__(self, session: Session, *, budget: int | None = None, theme_name: str | None = None,
                 watch: bool = True, real_tokens: bool = True, keymap: dict[str, str] | None = None,
                 notices: list[str] | None = None) -> None:
        super().__init__()
        self._keymap = keymap or {}
        self._notices = notices or []
        self.session = session
        self._initial_budget = budget
        self._theme_name = theme_name
        self._watch = watch
        self._real_tokens = real_tokens
        self.view: View | None = None
        self.selected_key: str | None = None
        self.row_filter = RowFilter()
        self._pending_budget: int | None = None
        self._real_count: tuple[int, int, int] | None = None  # (generation, budget, tokens)
        self._stop_watch = asyncio.Event()
        self._thresholds_for: int | None = None
        self._missed_changes: set[Path] = set()
        self._theme_variables: tuple[str, dict[str, str]] | None = None

    # -- layout ---------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="budget-row"):
            yield Label("Budget")
            yield BudgetSlider(8000, minimum=MIN_BUDGET, maximum=MAX_BUDGET, id="slider")
        yield Static(id="banner")
        with Vertical(id="loading"):
            yield Label("Loading…", id="loading-label", markup=False)
            yield ProgressBar(total=None, show_eta=False, id="progress")
        yield TierBars(id="tiers")
        with Horizontal(id="main"):
            yield EntriesTable(id="entries")
            yield WhyPanel(id="why")
        yield Footer()

    def on_mount(self) -> None:
        from ctxtui.ui.themes import apply_theme

        for notice in [*self._notices, *apply_theme(self, self._theme_name)]:
            self.notify(notice, severity="warning", markup=False, timeout=8)
        self._theme_changed()
        self.theme_changed_signal.subscribe(self, lambda theme: self._theme_changed())
        if self._keymap:
            self.set_keymap(self._keymap)
        self.load_project(first=True)
        if self._watch:
            self.watch_files()

    def notify(self, message: str, *, title: str = "", severity="information", timeout: float | None = None,
               markup: bool = False) -> None:
        """Every toast goes through the sanitiser and is never parsed as markup: messages quote paths and titles."""
        super().notify(clean_block(message), title=clean_line(title), severity=severity, timeout=timeout, markup=False)

    def theme_colors(self) -> dict[str, str]:
        """The theme's CSS variables, resolved once per theme (the slider path asks every step)."""
        cached = self._theme_variables
        if cached is None or cached[0] != self.theme:
            cached = self._theme_variables = (self.theme, self.get_css_variables())
        return cached[1]

    def _theme_changed(self) -> None:
        """The theme's fate symbols, and the colours baked into Text (status line, why panel), follow a switch."""
        from ctxtui.ui.themes import fate_symbols

        self.query_one(EntriesTable).fate_symbols = fate_symbols(self.theme)
        self._update_status()
        self._show_why()

    # -- loading --------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def load_project(self, first: bool = False, changed: set[Path] | None = None) -> None:
        """Read and parse off the UI thread; a reload keeps budget, selection and scroll."""
        def progress(stage: str, step: int) -> None:
            self.call_from_thread(self._progress, stage, step)

        try:
            if first:
                problems = self.session.load(self._initial_budget, progress=progress)
            else:
                problems = self.session.reload(changed, progress=progress)
                if problems is None:  # e.g. a checkpoint touched the -wal, no new commit
                    return
        except ContextMissing as exc:
            self.call_from_thread(self._load_failed, str(exc))
            return
        except OSError as exc:  # a file vanishing mid-read, a permission flip
            self.call_from_thread(self._load_failed, f"reload failed: {exc}")
            return
        if get_current_worker().is_cancelled:
            return
        # What was just loaded lives as long as the session: move it out of the
        # collector's way, or every few slider steps a full collection walks it
        # all again (100-200 ms pauses measured at 10,000 entries).
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.call_from_thread(self._loaded, problems, first)

    def _progress(self, stage: str, step: int) -> None:
        if self.view is None:  # reloads stay quiet: the old screen stays up until the new one is ready
            self.query_one("#loading").add_class("shown")
        self.query_one("#loading-label", Label).update(f"Loading {clean_line(self.session.project.name)}: {stage}…")
        self.query_one("#progress", ProgressBar).update(total=LOAD_STEPS, progress=step)

    def _load_failed(self, message: str) -> None:
        self.query_one("#loading").remove_class("shown")
        self._show_banner([f"{message} — the last good state stays on screen"] if self.view else [message])

    def _loaded(self, problems: list, first: bool) -> None:
        self.query_one("#loading").remove_class("shown")
        self._show_banner([str(p) for p in problems])
        slider = self.query_one(BudgetSlider)
        slider.set_value(self.session.budget)
        if first:
            slider.focus()
        self.refresh_view()
        if self._missed_changes:
            missed, self._missed_changes = self._missed_changes, set()
            self.load_project(changed=missed)

    def _show_banner(self, lines: list[str]) -> None:
        banner = self.query_one("#banner", Static)
        if not lines:
            banner.remove_class("shown")
            return
        # At most 4 rows (the banner's max-height): the heading, then up to 3 one-row lines, the
        # last of them saying how many more there are; a longer line ends in "…" instead of wrapping.
        # Content, not Text, and spaces instead of CSS padding: Textual 8.2.8 puts the "…" only there.
        parts: list = [(f" ⚠ {len(lines)} problem{'s' if len(lines) != 1 else ''} reading the inputs:", "bold")]
        shown = lines if len(lines) <= 3 else lines[:2]
        parts += ["\n   " + clean_line(line) for line in shown]
        if len(lines) > len(shown):
            parts.append(f"\n   … and {len(lines) - len(shown)} more (see `ctxtui pack` stderr)")
        text = Content.assemble(*parts)
        banner.update(text)
        banner.add_class("shown")

    @work(thread=True, exclusive=True, group="thresholds", exit_on_error=False)
    def compute_thresholds(self) -> None:
        loaded = self.session.loaded
        if loaded is None:
            return
        loaded.thresholds()
        if not loaded.stale:
            self.call_from_thread(self._show_why)

    # -- the slider path ------------------------------------------------------

    @on(BudgetSlider.Changed)
    def _slider_moved(self, event: BudgetSlider.Changed) -> None:
        self.request_budget(event.value)

    @on(BudgetEntered)
    def _budget_typed(self, event: BudgetEntered) -> None:
        self.request_budget(event.value)

    def request_budget(self, budget: int) -> None:
        """Coalesce: however many events arrive before the next refresh, recompute once."""
        first = self._pending_budget is None
        self._pending_budget = budget
        if first:
            self.call_after_refresh(self._apply_pending_budget)

    def _apply_pending_budget(self) -> None:
        budget, self._pending_budget = self._pending_budget, None
        if budget is None or self.session.loaded is None:
            return
        self.session.set_budget(budget)
        slider = self.query_one(BudgetSlider)
        if slider.value != self.session.budget:
            slider.set_value(self.session.budget)
        view = self.view
        if view is not None and (view.budget, view.generation) == (self.session.budget, self.session.generation):
            return  # e.g. `[` at budget 0, or a drag's last Changed after a typed value: nothing to redo
        self.refresh_view()

    def refresh_view(self) -> None:
        """Recompute for the session's budget and repaint every widget from the result.

        Up to LARGE_WORKSPACE entries this runs right here (a few milliseconds);
        beyond, in a worker, so 50,000 memories never freeze the screen.
        """
        if self.session.loaded is None:
            return
        if self.session.entry_count > LARGE_WORKSPACE:
            self._recompute_in_worker(self.session.budget, self.session.generation)
            return
        view = self.session.view()
        self._show_view(view, rows_from_outcomes(view.plan.outcomes))

    @work(thread=True, exclusive=True, group="recompute", exit_on_error=False)
    def _recompute_in_worker(self, budget: int, generation: int) -> None:
        with gc_paused():
            view = self.session.view()
            rows = rows_from_outcomes(view.plan.outcomes)
        if not get_current_worker().is_cancelled and (self.session.budget, self.session.generation) == (budget, generation):
            self.call_from_thread(self._show_view, view, rows)

    def _show_view(self, view: View, rows) -> None:
        self.view = view
        self.query_one(TierBars).update_tiers(view.plan.buckets, budget=view.budget)
        self.query_one(EntriesTable).set_rows(rows, version=(view.generation, view.budget))
        self._update_status()
        self._show_why()
        # `[`/`]` and live reload work under an open preview too: keep it showing what `c` would copy.
        for screen in self.screen_stack:
            if isinstance(screen, PreviewScreen):
                screen.update_texts(*self._texts(), self._preview_title())
        if self._thresholds_for != view.generation:
            # After the first frame of a load: the scan competes for the GIL with everything else.
            self._thresholds_for = view.generation
            self.compute_thresholds()
        if self._real_tokens:
            self.count_real_tokens(view.generation, view.budget)

    def _update_status(self, width: int | None = None) -> None:
        view = self.view
        if view is None:
            return
        text = self._status_text(view, compact=False)
        width = self.size.width if width is None else width
        if text.cell_len > width - 2:  # 2: the status line's padding. At 80 columns: keep the counts visible
            text = self._status_text(view, compact=True)
        self.query_one("#status", Static).update(text)

    def _status_text(self, view: View, compact: bool) -> Text:
        counts = view.counts
        colors = fate_colors(self.theme_colors())
        tokenizer = "o200k" if compact else REAL_TOKENIZER
        gap = " · " if compact else "  ·  "
        text = Text()
        text.append(f"{clean_line(self.session.project.name)}  ", style="bold")
        text.append(f"budget {view.budget:,} · used ~{view.plan.tokens_used:,}{'' if compact else ' ctx'} · ")
        real = self._real_count
        if real and real[:2] == (view.generation, view.budget):
            over = real[2] > view.budget
            text.append(f"{real[2]:,} {tokenizer}", style=f"bold {colors[Fate.DROPPED]}" if over else "")
            if over:
                text.append(" ⚠ over" if compact else " ⚠ over budget", style=f"bold {colors[Fate.DROPPED]}")
        else:
            text.append(f"… {tokenizer}", style="dim")
        text.append(f"{gap}● {counts['included']:,} ◐ {counts['summarized']:,} ✕ {counts['dropped']:,}")
        return text

    def on_resize(self, event: events.Resize) -> None:
        # Runs before App._on_resize records the new size: the status line's form follows the event's width.
        self._update_status(event.size.width)
        # Below NARROW columns the table needs the whole width; Enter shows the why panel as a dialog.
        self.screen.set_class(event.size.width < NARROW, "narrow")

    @work(thread=True, exclusive=True, group="tokens", exit_on_error=False)
    def count_real_tokens(self, generation: int, budget: int) -> None:
        """The real tokenizer's count of the rendered packet (cached by content)."""
        from ctxtui.engine.text.tokenizers import get_tokenizer

        view = self.view
        if view is None or (view.generation, view.budget) != (generation, budget):
            return
        markdown = view.markdown
        try:
            tokens = get_tokenizer(REAL_TOKENIZER).count(markdown)
        except Exception as exc:  # a missing vocabulary must not take the app down
            self.call_from_thread(self.notify, f"{REAL_TOKENIZER} unavailable: {exc}", severity="warning",
                                  markup=False)
            self._real_tokens = False
            return
        if get_current_worker().is_cancelled:
            return
        self.call_from_thread(self._real_counted, generation, budget, tokens)

    def _real_counted(self, generation: int, budget: int, tokens: int) -> None:
        self._real_count = (generation, budget, tokens)
        self._update_status()

    # -- selection and the why panel -----------------------------------------

    @on(EntriesTable.Selected)
    def _selected(self, event: EntriesTable.Selected) -> None:
        self.selected_key = event.key
        self._show_why()

    def _show_why(self) -> None:
        content = self._why_content()
        if content is not None:
            self.query_one(WhyPanel).show(content)

    def _why_content(self) -> Text | None:
        """The why panel's text for the selected entry (None before the first packet)."""
        view = self.view
        if view is None:
            return None
        outcome = view.plan.outcome(self.selected_key) if self.selected_key else None
        loaded = view.loaded
        threshold = loaded.thresholds().get(self.selected_key) if loaded.thresholds_ready and outcome else None
        blocker = view.plan.outcome(outcome.blocked_by) if outcome and outcome.blocked_by else None
        variables = self.theme_colors()
        return render_why(outcome, threshold, thresholds_ready=loaded.thresholds_ready,
                          blocker_title=blocker.entry.title if blocker else None,
                          colors=fate_colors(variables), muted=muted_color(variables),
                          symbols=self.query_one(EntriesTable).fate_symbols)

    @on(EntriesTable.Activated)
    def _activated(self, event: EntriesTable.Activated) -> None:
        """Enter on an entry: in a narrow terminal the why panel is hidden, so show it as a dialog."""
        self.selected_key = event.key
        if self.screen.has_class("narrow"):
            from ctxtui.ui.why_panel import WhyScreen

            content = self._why_content()
            if content is not None:
                self.push_screen(WhyScreen(content))

    # -- actions ----------------------------------------------------------------

    def action_nudge(self, delta: int) -> None:
        self.request_budget(self.session.budget + delta)

    def action_set_budget(self, budget: int) -> None:
        self.request_budget(budget)

    def action_type_budget(self) -> None:
        self.push_screen(BudgetInputScreen(self.session.budget, minimum=MIN_BUDGET, maximum=MAX_BUDGET))

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.active_bindings_for_help()))

    def active_bindings_for_help(self) -> list[tuple[str, str]]:
        keys = []
        for b in self.BINDINGS:
            if not isinstance(b, Binding):
                continue
            remapped = self._keymap.get(b.id) if b.id else None  # the user's keys, not the defaults
            display = (", ".join(self.get_key_display(Binding(key.strip(), b.action)) for key in remapped.split(","))
                       if remapped else b.key_display or b.key)
            keys.append((display, b.description))
        keys += [("← →", "budget fine step (slider focused)"), ("PgUp PgDn", "budget coarse step (slider focused)"),
                 ("Home End", "budget minimum / maximum (slider focused)"), ("Tab", "move focus"),
                 ("↑ ↓", "select entry (table focused)"), ("Enter", "the why panel as a dialog (narrow terminals)"), ("ctrl+p", "command palette")]
        return keys

    def action_filter_text(self) -> None:
        from ctxtui.ui.filter_input import FilterScreen

        def apply(text: str | None) -> None:
            if text is not None:
                self.set_filter(RowFilter(self.row_filter.fates, self.row_filter.sections, text))

        self.push_screen(FilterScreen(self.row_filter.text), apply)

    def set_filter(self, row_filter: RowFilter) -> None:
        self.row_filter = row_filter
        self.query_one(EntriesTable).set_filter(row_filter)

    def action_cycle_fate(self) -> None:
        current = next(iter(self.row_filter.fates)) if len(self.row_filter.fates) == 1 else None
        following = FATE_CYCLE[(FATE_CYCLE.index(current) + 1) % len(FATE_CYCLE)]
        self.set_filter(RowFilter(frozenset({following}) if following else frozenset(),
                                  self.row_filter.sections, self.row_filter.text))
        self.notify(f"showing {following.value if following else 'every fate'}", timeout=2)

    def action_cycle_section(self) -> None:
        sections = [None, "tasks", "conventions", "decisions", "learnings", "memories", "steering", "constitution"]
        current = next(iter(self.row_filter.sections)) if len(self.row_filter.sections) == 1 else None
        following = sections[(sections.index(current) + 1) % len(sections)]
        self.set_filter(RowFilter(self.row_filter.fates, frozenset({following}) if following else frozenset(),
                                  self.row_filter.text))
        self.notify(f"showing {following or 'every section'}", timeout=2)

    def action_clear_filters(self) -> None:
        self.set_filter(RowFilter())

    def action_cycle_sort(self) -> None:
        self.query_one(EntriesTable).cycle_sort()

    def action_sort(self, column: str) -> None:
        self.query_one(EntriesTable).sort_by(column)

    def _texts(self) -> tuple[str, str]:
        assert self.view is not None
        return self.view.markdown, self.view.json

    def _preview_title(self) -> str:
        view = self.view
        return (f"Packet at budget {view.budget:,} · used ~{view.plan.tokens_used:,} tokens · "
                "exactly what `ctxtui pack` prints") if view else ""

    def action_preview(self, fmt: str = "md") -> None:
        if self.view is None:
            return
        markdown, json_text = self._texts()
        self.push_screen(PreviewScreen(markdown, json_text, self._preview_title(), initial=fmt))

    @on(PreviewScreen.CopyRequested)
    def _copy_requested(self, event: PreviewScreen.CopyRequested) -> None:
        self.action_copy(event.fmt)

    @on(PreviewScreen.SaveRequested)
    def _save_requested(self, event: PreviewScreen.SaveRequested) -> None:
        self.action_save(event.fmt)

    def action_copy(self, fmt: str = "md") -> None:
        from ctxtui.ui.clipboard import copy_text

        if self.view is None:
            return
        markdown, json_text = self._texts()
        text = json_text if fmt == "json" else markdown
        result = copy_text(self, text)
        real = self._real_count
        real_part = (f", {real[2]:,} {REAL_TOKENIZER}" if real and real[:2] == (self.view.generation, self.view.budget)
                     and fmt == "md" else "")
        self.notify(f"Copied the {('JSON' if fmt == 'json' else 'Markdown')} packet: ~{self.view.plan.tokens_used:,} "
                    f"tokens (ctx estimate{real_part}) via {result.describe()}", markup=False, timeout=4)

    def action_save(self, fmt: str = "md") -> None:
        from ctxtui.ui.save_screen import SaveScreen

        if self.view is None:
            return
        default = Path.cwd() / f"context-packet-{self.view.budget}.{'json' if fmt == 'json' else 'md'}"

        def save(path: str | None) -> None:
            from ctxtui.safe_write import WriteRefused, write_atomically

            if not path:
                return
            markdown, json_text = self._texts()
            text = json_text if fmt == "json" else markdown
            try:
                # Bytes as `ctxtui pack` writes them: invalid UTF-8 from the inputs passes through unchanged.
                written = write_atomically(path, text.encode("utf-8", "surrogateescape"),
                                           context_dirs=[self.session.project / ".context"])
            except WriteRefused as exc:
                self.notify(f"Not saved: {exc}", severity="error")
                return
            given = Path(os.path.abspath(Path(path).expanduser()))
            self.notify(f"Saved {path}" if given == written else f"Saved {path} → {written}", timeout=4)

        self.push_screen(SaveScreen(str(default)), save)

    def action_quirks(self) -> None:
        from ctxtui.ui.quirks_screen import QuirksScreen

        if self.view is not None:
            self.push_screen(QuirksScreen(self.view.quirks(), self.view.budget))

    def action_reload(self) -> None:
        self.load_project(changed=None)

    # -- live reload ----------------------------------------------------------

    def watch_files(self) -> None:
        """Reload within a second of any change to `.context/` or the memory database."""
        self._watch_folder(self.session.project / ".context", recursive=True, names=None)
        db = self.session.db
        if db is not None:
            # A commit in WAL mode touches only NAME-wal; never watch -shm, readers write it too.
            self._watch_folder(db.parent, recursive=False, names={db.name, db.name + "-wal"})

    @work(exclusive=False, group="watch", exit_on_error=False)
    async def _watch_folder(self, folder: Path, recursive: bool, names: set[str] | None) -> None:
        from watchfiles import awatch

        if not folder.is_dir():
            return

        def relevant(change, path: str) -> bool:
            return names is None or Path(path).name in names

        while True:
            async for changes in awatch(folder, watch_filter=relevant, debounce=400, step=50, recursive=recursive,
                                        stop_event=self._stop_watch, ignore_permission_denied=True):
                self.on_files_changed({Path(path) for _, path in changes})
                if not folder.is_dir():
                    break  # the watch dies with its folder (`rm -rf .context; ctx init`)
            # Wait for the folder to come back, give its writer a moment, then read it and watch the new one.
            while not self._stop_watch.is_set() and not folder.is_dir():
                await asyncio.sleep(0.5)
            if self._stop_watch.is_set():
                return
            await asyncio.sleep(0.4)
            self.on_files_changed({folder / name for name in names} if names else {folder})

    def on_files_changed(self, changed: set[Path]) -> None:
        if self.view is None:  # still loading: a reload would cancel the first load; do it after
            self._missed_changes |= changed
            return
        self.load_project(changed=changed)

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """Every worker's errors end up here: said once, never a crash or a silent hang."""
        if event.state is WorkerState.ERROR:
            error = event.worker.error
            self.log.error(f"worker {event.worker.name} failed: {error!r}")
            self.query_one("#loading").remove_class("shown")
            self.notify(clean_line(f"{event.worker.group or event.worker.name} failed: {type(error).__name__}: {error}"),
                        severity="error", markup=False, timeout=10)

    async def action_quit(self) -> None:
        self._stop_watch.set()
        self.exit()
