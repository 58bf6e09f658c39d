"""The main screen: the layout, and the slider path — an intent in, a `View` out, the widgets following it.

A budget request (a slider move, a nudge, a typed value, a palette preset)
sets the slider at once and schedules one recompute after the next refresh,
however many requests arrive before it. The recompute makes a `View` (in a
worker above LARGE_WORKSPACE entries) and `show_view` sets the screen's `view`:
the status and settings lines, the tier bars, the table and the why panel are
data-bound to it and redraw themselves; the entries that moved on the step
(and those that differ from the pin) are marked. What derives from a view is
kept on it (table rows, the real-token count) and what derives from its load
on the load (thresholds). The App hosts every worker and tells this screen
about loads (`messages`). The tuning actions (packer, knobs, pin, coverage)
live in `tuning.TuningActions`.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import TypeVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import var
from textual.timer import Timer
from textual.widgets import Footer, Label
from textual.worker import get_current_worker

from ctxtui.comparison import Comparison, Pin, pin_comparison, step_comparison
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.ctx.sections import SECTIONS
from ctxtui.engine.packers.ctx.versions import VERSIONS
from ctxtui.safe_text import clean_line
from ctxtui.session import LOAD_STEPS, MAX_BUDGET, MIN_BUDGET, PROJECT_MEMORY_DB, Loaded, Session, View
from ctxtui.tui.actions import MAIN_SCREEN_ONLY
from ctxtui.tui.heap import IDLE_SECONDS, StepHeap
from ctxtui.tui.history_actions import HistoryActions
from ctxtui.tui.host import services
from ctxtui.tui.messages import CopyPacket, LoadFailed, LoadProgress, ProjectLoaded, SavePacket
from ctxtui.tui.prompt_frame import PromptFrameScreen
from ctxtui.tui.screens.budget import BudgetInputScreen
from ctxtui.tui.screens.preview import PreviewScreen
from ctxtui.tui.screens.prompts import FilterScreen
from ctxtui.tui.screens.quirks import QuirksScreen
from ctxtui.tui.screens.why import WhyScreen
from ctxtui.tui.themes import fate_symbols
from ctxtui.tui.tour import Tour
from ctxtui.tui.tuning import PIN_FILTER, STEP_FILTER, TuningActions
from ctxtui.tui.widgets.budget.memory_note import MemoryNote
from ctxtui.tui.widgets.budget.settings import SettingsLine
from ctxtui.tui.widgets.budget.slider import BudgetSlider, LogScale
from ctxtui.tui.widgets.budget.status import StatusLine
from ctxtui.tui.widgets.changes import ChangesLine
from ctxtui.tui.widgets.entries.counted import RowsCounted
from ctxtui.tui.widgets.entries.rows import RowFilter, rows_of
from ctxtui.tui.widgets.entries.table import EntriesTable
from ctxtui.tui.widgets.filter_line import FilterLine
from ctxtui.tui.widgets.loading import LoadingBar, ProblemBanner, RefusalBanner
from ctxtui.tui.widgets.past import PastBanner
from ctxtui.tui.widgets.tiers.bars import TierBars
from ctxtui.tui.widgets.why.panel import WhyPanel

T = TypeVar("T")

REAL_TOKENIZER = "o200k_base"
NARROW = 110  # columns below which the why panel becomes a dialog (Enter)
LARGE_WORKSPACE = 5000  # entries; above this, recompute off the UI thread
THUMB_ALONE_AFTER = 0.05  # seconds a worker's packet may take before the thumb moves without it
FATE_CYCLE: tuple[Fate | None, ...] = (None, *Fate)
SECTION_CYCLE: tuple[str | None, ...] = (None, *SECTIONS)
# Near-linear up to ~100 tokens, logarithmic above: on a 100-cell track each cell is ~10% more than the
# last, and 1,000..32,000 (most packets) sit in the middle of the track, with 2,000,000 at the end.
BUDGET_SCALE = LogScale(knee=100)


SAME_ENTRIES = frozenset(VERSIONS)  # ctx-0.8.1, ctx-0.8.0: one entry per task, decision, learning...


def _comparable(before: str, after: str) -> bool:
    """Step marks make sense within one packer, and between ctx 0.8.0 and 0.8.1 (the same entries); the
    MCP packet's entries are whole files and a peer's are its own, so a switch to or from them marks nothing."""
    return before == after or {before, after} <= SAME_ENTRIES


def _turn_of(view: View) -> str | None:
    """The nous turn a view rebuilds (None: another packer): steps between two turns mark nothing."""
    turn = getattr(view.loaded.packer, "turn", None)
    return turn.summary.key if turn is not None else None


def _following(cycle: tuple[T | None, ...], chosen: frozenset[T]) -> T | None:
    """The value after the one chosen in `cycle` (none or several chosen: after None, the start)."""
    current = next(iter(chosen)) if len(chosen) == 1 else None
    return cycle[(cycle.index(current) + 1) % len(cycle)]


class MainScreen(HistoryActions, TuningActions, PromptFrameScreen):
    """One project: budget, status, tier bars, entries and the why panel of the view shown.

    Its App (`CtxtuiApp`) runs its workers (`run_in_thread`) and resolves theme colours (`theme_colors`).
    """

    # Below NARROW columns the table takes the whole width; Enter shows the why panel as a dialog.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW, "-wide")]

    view: var[View | None] = var(None, init=False)
    """The packet on screen, at one budget of one load (None until the first load is shown)."""
    selected_key: var[str | None] = var(None, init=False)
    """The entry under the table's cursor, as the table announced it."""
    row_filter: var[RowFilter] = var(RowFilter, init=False)
    """Which entries the table shows."""
    marks: var[dict[str, str]] = var(dict, init=False)
    """A mark per entry that moved on the last step (▲ ▼) or differs from the pin (◆)."""

    def __init__(self, session: Session, *, real_tokens: bool = True) -> None:
        super().__init__()
        self.session = session
        self.real_tokens = real_tokens  # count the packet with REAL_TOKENIZER; off if it cannot load
        self.pin: Pin | None = None  # the state compared with (◆ marks, bar deltas, the preview's diff)
        self.step: Comparison | None = None  # what the last step moved
        self.against_pin: Comparison | None = None  # how the view differs from the pin
        self.tour: Tour | None = None  # the first screen's pin, step and selection (the demo's)
        self._thumb_alone: Timer | None = None  # paints the slider's thumb if a worker's packet is slow
        self._heap = StepHeap()
        self._idle_collect: Timer | None = None

    def compose(self) -> ComposeResult:
        yield StatusLine(self.session.label, REAL_TOKENIZER, id="status").data_bind(MainScreen.view)
        yield SettingsLine(id="settings").data_bind(MainScreen.view)
        with Horizontal(id="budget-row"):
            yield Label("Budget")
            yield BudgetSlider(
                8000,
                minimum=MIN_BUDGET,
                maximum=MAX_BUDGET,
                scale=BUDGET_SCALE,
                paint_with_listener=True,  # `_apply_budget` paints the thumb with the packet
                id="slider",
            )
        yield PastBanner(id="past")
        yield RefusalBanner(id="refusal")
        yield ProblemBanner(id="banner")
        yield LoadingBar(id="loading")
        yield TierBars(id="tiers").data_bind(MainScreen.view)
        yield ChangesLine(id="changes")
        yield FilterLine(id="filter-line").data_bind(MainScreen.row_filter)
        with Horizontal(id="main"):
            yield EntriesTable(id="entries").data_bind(MainScreen.view, MainScreen.row_filter, MainScreen.marks)
            yield WhyPanel(id="why").data_bind(MainScreen.view, MainScreen.selected_key)
        yield Footer()

    def on_mount(self) -> None:
        self._follow_theme()
        self.app.theme_changed_signal.subscribe(self, lambda theme: self._follow_theme())

    def _follow_theme(self) -> None:
        self.query_one(EntriesTable).fate_symbols = fate_symbols(self.app.theme)

    @property
    def _slider(self) -> BudgetSlider:
        return self.query_one(BudgetSlider)

    # -- loads (the App's worker reports them) -------------------------------------

    @on(LoadProgress)
    def _load_progress(self, message: LoadProgress) -> None:
        self.query_one(LoadingBar).show_stage(
            f"Loading {clean_line(self.session.project.name)}: {message.stage}…",
            message.step,
            LOAD_STEPS,
            visible=self.view is None,
        )

    @on(LoadFailed)
    def _load_failed(self, message: LoadFailed) -> None:
        self.query_one(LoadingBar).hide()
        if message.message is not None:
            self.query_one(ProblemBanner).problems = (
                (f"{message.message} — the last good state stays on screen",) if self.view else (message.message,)
            )

    @on(ProjectLoaded)
    def _project_loaded(self, message: ProjectLoaded) -> None:
        """A reload keeps budget, selection and scroll; the first load also sets the slider and focuses it."""
        self.query_one(LoadingBar).hide()
        self.query_one(ProblemBanner).problems = tuple(str(p) for p in message.problems)
        self.query_one(PastBanner).label = self.session.past.label() if self.session.at_revision else None
        if self.view is None:
            self._slider.set_value(self.session.budget)
            self._slider.focus()
        elif message.budget_moved:
            self._slider.set_value(self.session.budget)
        first = self.view is None
        self._show_memory_note()
        self.refresh_view()
        if first and self.tour is not None and self.view is not None:
            self.take_tour(self.tour)

    def _show_memory_note(self) -> None:
        session = self.session
        found = session.memory_db_found
        self.query_one(StatusLine).memory_note = MemoryNote(
            joined=session.memory_count if session.joins_memories else None,
            found=str(PROJECT_MEMORY_DB) if found is not None else None,
            key=self.app.key_for("app.join_memories"),  # type: ignore[attr-defined]
        )

    # -- the slider path ------------------------------------------------------------

    @on(BudgetSlider.Changed)
    def _slider_moved(self, event: BudgetSlider.Changed) -> None:
        self.request_budget(event.value)

    def request_budget(self, budget: int) -> None:
        """An intent in. The slider holds the newest request (clamped); the recompute waits for the next refresh,
        so however many requests arrive before it (a drag, a held key) cost one."""
        slider = self._slider
        # Silently: a repaint now would make the recompute wait for a frame of its own (Textual runs
        # after-refresh callbacks at once only when nothing is dirty); the thumb moves with the packet.
        slider.set_reactive(BudgetSlider.value, slider.validate_value(budget))
        self.call_after_refresh(self._apply_budget)

    @property
    def budget_pending(self) -> bool:
        """A requested budget is waiting for its recompute."""
        return self.session.loaded is not None and self._slider.value != self.session.budget

    def _apply_budget(self) -> None:
        slider, session = self._slider, self.session
        if session.loaded is None:
            slider.refresh()
            return
        session.set_budget(slider.value)
        view = self.view
        if view is not None and (view.budget, view.generation) == (session.budget, session.generation):
            slider.refresh()
            return  # e.g. `[` at budget 0, or the later of two requests in one frame: nothing to redo
        if session.entry_count > LARGE_WORKSPACE:
            # The packet comes from a worker: the thumb is painted with it (`show_view`), or alone if
            # the worker takes longer than a few frames (a frame painted before the packet's makes
            # Textual hold the packet's frame back a tick or two).
            if self._thumb_alone is not None:
                self._thumb_alone.stop()  # the newest request's worker decides when the thumb moves
            self._thumb_alone = self.set_timer(THUMB_ALONE_AFTER, slider.refresh)
        else:
            slider.refresh()
        self.refresh_view()

    def refresh_view(self) -> None:
        """A View out, for the session's budget: computed here up to LARGE_WORKSPACE entries (a few
        milliseconds); beyond, in a worker, so 50,000 memories never freeze the screen."""
        session = self.session
        if session.loaded is None:
            return
        if session.entry_count > LARGE_WORKSPACE:
            window = self.query_one(EntriesTable).rows_on_screen()
            job = partial(self._recompute, session.budget, session.generation, window)
            services(self).run_in_thread("recompute", job)
            return
        self.show_view(session.view())

    def _recompute(self, budget: int, generation: int, window: Sequence[int]) -> None:
        """In a worker: the view and what its first frame reads (fates, counts, bars, the table rows in
        `window`, those on screen), shown unless a newer request or load came meanwhile."""
        session = self.session
        view = session.view()
        plan = view.plan
        view.counts, plan.buckets  # noqa: B018 (computed and kept on the view: the status line and bars read them)
        rows = rows_of(view)
        for k in window:
            if k < len(rows):
                rows[k].cells()
        if not get_current_worker().is_cancelled and (session.budget, session.generation) == (budget, generation):
            self.app.call_from_thread(self.show_view, view)

    def show_view(self, view: View) -> None:
        """Show `view`: the data-bound widgets (status, bars, table, why panel) follow it at once, with the
        entries the step moved marked; then the view's real-token count and, for a new load, its
        thresholds start in workers."""
        shown = self.view
        self._keep_heap()
        # The step's frame is painted as soon as its widgets are (not at Textual's next tick); the workers
        # below start once it is out: each shares the GIL with the paint it would otherwise slow down.
        self.want_frame()
        if self._thumb_alone is not None:
            self._thumb_alone.stop()
            self._thumb_alone = None
            self._slider.refresh()
        self._compare(shown, view)
        self.view = view
        refusal = view.loaded.refusal
        self.query_one(RefusalBanner).reason = (
            f"{view.packer_name.replace('-', ' ', 1)} would refuse this workspace: {refusal.reason}"
            if refusal
            else None
        )
        if shown is None or shown.loaded is not view.loaded:
            scan = partial(self._compute_thresholds, weakref.ref(view.loaded))
            self.want_frame(then=lambda: services(self).run_in_thread("thresholds", scan))
        if self.real_tokens:
            counting = partial(self._count_real_tokens, weakref.ref(view))
            self.want_frame(then=lambda: services(self).run_in_thread("tokens", counting))

    def _keep_heap(self) -> None:
        """Freeze what the last step made, and collect its garbage once the user pauses (see heap.py)."""
        if self._heap.step():
            self._heap.collect()
        if self._idle_collect is not None:
            self._idle_collect.stop()
        self._idle_collect = self.set_timer(IDLE_SECONDS, self._heap.collect)

    def _compare(self, shown: View | None, view: View) -> None:
        """Marks and summaries for the view about to be shown: its step from `shown`, and the pin."""
        step = None
        if shown is not None and _comparable(shown.packer_name, view.packer_name) and _turn_of(shown) == _turn_of(view):
            step = self.step if view.same_as(shown) else step_comparison(shown.plan, view.plan)
        self.step = step
        pinned = pin_comparison(self.pin, view.plan) if self.pin is not None else None
        self.against_pin = pinned
        marks = dict(pinned.marks) if pinned is not None else {}
        if step is not None:
            marks.update(step.marks)
        self.marks = marks
        changes = self.query_one(ChangesLine)
        changes.step = (step.summary or "no entry changed fate") if step is not None else ""
        changes.pinned = pinned.summary if pinned is not None else ""
        self.query_one(TierBars).deltas = (
            {name: shift.delta for name, shift in pinned.diff.buckets.items()} if pinned is not None else {}
        )
        label = self.row_filter.keys_label if self.row_filter.keys is not None else ""
        if label == PIN_FILTER:
            self.row_filter = replace(self.row_filter, keys=pinned.keys if pinned is not None else None)
        elif label == STEP_FILTER and step is not None and not view.same_as(shown):
            self.row_filter = replace(self.row_filter, keys=step.keys)

    def _compute_thresholds(self, load: weakref.ref[Loaded]) -> None:
        """In a worker: every entry's thresholds, kept on the load; the why panel then shows them."""
        loaded = load()
        if loaded is None:
            return
        if self.session.memory_join is not None:  # after the first frame: freeing them delayed it
            self.session.memory_join.release_records()
        loaded.thresholds()
        if not loaded.stale:
            # The thresholds live as long as the load: out of the collector's way, like the load itself.
            gc.freeze()  # see heap.py
            self.app.call_from_thread(self._thresholds_ready, loaded)

    def _thresholds_ready(self, loaded: Loaded) -> None:
        if self.view is not None and self.view.loaded is loaded:
            self.query_one(WhyPanel).refresh_explanation()

    def _count_real_tokens(self, shown: weakref.ref[View]) -> None:
        """In a worker: the real tokenizer's count of the view's Markdown (the tokenizer caches by content)."""
        from ctxtui.engine.text.tokenizers import get_tokenizer

        view = shown()
        if view is None or view is not self.view:
            return
        try:
            tokens = get_tokenizer(REAL_TOKENIZER).count(view.markdown)
        except Exception as exc:  # a missing vocabulary must not take the app down
            self.app.call_from_thread(self._real_tokens_unavailable, exc)
            return
        if get_current_worker().is_cancelled:
            return
        self.app.call_from_thread(self._real_tokens_counted, view, tokens)

    def _real_tokens_counted(self, view: View, tokens: int) -> None:
        view.real_tokens = tokens
        if view is self.view:
            self.query_one(StatusLine).refresh()

    def _real_tokens_unavailable(self, error: Exception) -> None:
        self.real_tokens = False
        self.app.notify(f"{REAL_TOKENIZER} unavailable: {error}", severity="warning")

    # -- selection ----------------------------------------------------------------------

    @on(RowsCounted)
    def _counted(self, event: RowsCounted) -> None:
        self.query_one(FilterLine).counts = (event.shown, event.total)

    @on(EntriesTable.Selected)
    def _selected(self, event: EntriesTable.Selected) -> None:
        self.selected_key = event.key

    @on(EntriesTable.Activated)
    def _activated(self, event: EntriesTable.Activated) -> None:
        """Enter on an entry: in a narrow terminal the why panel is hidden, so show it as a dialog."""
        self.selected_key = event.key
        if self.has_class("-narrow"):
            content = self.query_one(WhyPanel).explanation()
            if content is not None:
                self.app.push_screen(WhyScreen(content))
        else:  # the panel is beside the table: Enter moves there (↑ ↓ scroll it, Tab goes back)
            self.query_one(WhyPanel).focus()

    # -- actions (see actions.py for their keys) ---------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Table and filter actions only while this screen is the one shown: `/` in the preview is the
        preview's own find, and Esc there goes back, never to the hidden table."""
        if action in MAIN_SCREEN_ONLY:
            # The topmost full screen, under any dialog or the command palette (Screen.is_current would
            # also count this screen when it shows through behind the preview).
            shown = next((screen for screen in reversed(self.app.screen_stack) if not screen.is_modal), None)
            if shown is not self:
                return False
        return super().check_action(action, parameters)  # the tuning mixin's: the Turns key, the Turns view

    def action_nudge(self, delta: int) -> None:
        # From the applied budget, not a request still waiting: a held key moves one step per frame.
        self.request_budget(self.session.budget + delta)

    def action_entries_cursor(self, delta: int) -> None:
        """↑/↓ while the slider has the focus: the table's selection moves, the focus stays on the slider."""
        self.query_one(EntriesTable).action_cursor(delta)

    def action_set_budget(self, budget: int) -> None:
        self.request_budget(budget)

    def action_type_budget(self) -> None:
        def typed(budget: int | None) -> None:
            if budget is not None:
                self.request_budget(budget)

        self.app.push_screen(BudgetInputScreen(self.session.budget, minimum=MIN_BUDGET, maximum=MAX_BUDGET), typed)

    def action_filter_text(self) -> None:
        def typed(text: str | None) -> None:
            if text is not None:
                self.row_filter = replace(self.row_filter, text=text)

        self.app.push_screen(FilterScreen(self.row_filter.text), typed)

    def action_cycle_fate(self) -> None:
        fate = _following(FATE_CYCLE, self.row_filter.fates)
        self.row_filter = replace(self.row_filter, fates=frozenset({fate}) if fate else frozenset())
        self.app.notify(f"showing {fate.value if isinstance(fate, Fate) else 'every fate'}", timeout=2)

    def action_cycle_section(self) -> None:
        section = _following(SECTION_CYCLE, self.row_filter.sections)
        self.row_filter = replace(self.row_filter, sections=frozenset({section}) if section else frozenset())
        self.app.notify(f"showing {section or 'every section'}", timeout=2)

    def action_clear_filters(self) -> None:
        self.row_filter = RowFilter()

    def action_cycle_sort(self) -> None:
        self.query_one(EntriesTable).cycle_sort()

    def action_sort(self, column: str) -> None:
        self.query_one(EntriesTable).sort_by(column)

    def action_preview(self, fmt: str = "md") -> None:
        if self.view is not None:
            self.app.push_screen(PreviewScreen(self, initial=fmt))

    def action_copy(self, fmt: str = "md") -> None:
        if self.view is not None:
            self.post_message(CopyPacket(self.view, fmt))

    def action_save(self, fmt: str = "md") -> None:
        if self.view is not None:
            self.post_message(SavePacket(self.view, fmt))

    def action_join_memories(self) -> None:
        """Join `.context/memory.db` (ctx never reads it, so it is offered, not joined unasked)."""
        session = self.session
        if session.joins_memories:
            self.app.notify("A memory database is already joined", timeout=3)
            return
        joined = session.join_found_memories()
        if joined is None:
            refusal = session.memory_db_refusal()
            if refusal is not None:
                self.app.notify(f"{PROJECT_MEMORY_DB} {refusal}", severity="warning", timeout=6)
            else:
                self.app.notify(f"No {PROJECT_MEMORY_DB} in this project (ctxtui memory add creates it)", timeout=4)
            return
        self.app.notify(f"Joining {PROJECT_MEMORY_DB}: the packet is ctx's plus its memories", timeout=4)
        self.app.load_project(changed=None)  # type: ignore[attr-defined]

    def action_quirks(self) -> None:
        if self.view is not None:
            self.app.push_screen(QuirksScreen(self.view.quirks(), self.view.budget))
