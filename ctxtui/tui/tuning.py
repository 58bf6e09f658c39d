"""The main screen's tuning actions: switch the packer, edit its knobs, pin and compare, coverage, save.

A mixin of `MainScreen`, kept apart so the screen's own file holds the layout
and the slider path. Every action is an intent: the session does the work
(in the App's load worker when it reads or rebuilds), and the screen shows
the `View` that comes back, with the entries that moved marked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ctxtui.comparison import Pin
from ctxtui.engine.packers.registry import CTX_PACKERS, PACKER_TITLES
from ctxtui.tui.actions import Action

if TYPE_CHECKING:
    from ctxtui.session import Session, View
    from ctxtui.tui.tour import Tour
    from ctxtui.tui.widgets.entries.rows import RowFilter

PIN_FILTER = "differ from the pin"  # the filter label while only pin-differing entries are shown
STEP_FILTER = "moved on the last step"  # ... only entries the last step moved
OTHER_VERSION = {"ctx-0.8.1": "ctx-0.8.0", "ctx-0.8.0": "ctx-0.8.1", "ctx-mcp": "ctx-0.8.1"}


def short_title(name: str) -> str:
    return PACKER_TITLES.get(name, name).split(" (")[0]


def pin_of(view: View) -> Pin:
    """The state on screen as a pin: its packer (with its knobs) at its budget."""
    return Pin(view.loaded.packer, view.budget, f"the pin ({short_title(view.packer_name)} at {view.budget:,} tokens)")


COVERAGE_SECONDS = 5.0  # the coverage screen's scan bound (a scan of 50,000 memories' change points can take minutes)


class TuningActions:
    """Packer, knobs, pin, differs filter, coverage and `.ctxrc` saving, for `MainScreen`."""

    session: Session
    view: View | None
    pin: Pin | None
    row_filter: RowFilter

    # -- which packer -------------------------------------------------------------------

    def action_next_packer(self) -> None:
        """The next packer the sources allow (the status line says which)."""
        names = self.session.available_packers()
        current = self.session.packer_name
        if not names:
            return
        following = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
        self.action_switch_packer(following)

    def action_switch_packer(self, name: str) -> None:
        if name == self.session.packer_name:
            return
        if name not in self.session.available_packers():
            self.app.notify(f"{name}: not available for these sources", severity="warning")  # type: ignore[attr-defined]
            return
        self.app.notify(f"switching to {short_title(name)}…", timeout=2)  # type: ignore[attr-defined]
        session = self.session
        self.app.load_project(job=lambda progress: session.switch_packer(name, progress))  # type: ignore[attr-defined]

    # -- a nous database's turns ------------------------------------------------------

    def action_turns(self) -> None:
        self.app.show_turns()  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The Turns key is hidden (and does nothing) unless the source is a nous database; the main screen's
        keys are while the Turns view covers it."""
        if action == "turns":
            return self.session.turns is not None
        # Over the Turns view the main screen's keys (budget, filters...) would act unseen: off, and out of its footer.
        return getattr(self.app.screen, "KEEPS_MAIN_KEYS", True)  # type: ignore[attr-defined]

    # -- knobs -------------------------------------------------------------------------

    def action_knobs(self) -> None:
        from ctxtui.tui.screens.knobs import KnobsScreen

        if self.view is None:
            return
        screen = KnobsScreen(
            f"Settings of {short_title(self.session.packer_name or '')} (the budget is the slider)",
            self.session.knobs(),
            self.apply_knob,
        )
        self._knobs_screen = screen
        self.app.push_screen(screen)  # type: ignore[attr-defined]

    def apply_knob(self, key: str, value: Any) -> str | None:
        """Apply one knob (a new load, recomputed like a slider step); the reason in words if it cannot be."""
        session = self.session
        if session.loaded is None:
            return "nothing is loaded yet"
        before = session.budget
        try:
            session.set_knob(key, value)
        except (KeyError, ValueError) as exc:
            return str(exc).strip("'\"")
        if session.budget != before:  # the packer's own budget followed the knob (a nous frame or section)
            self._slider.set_value(session.budget)  # type: ignore[attr-defined]
        self.refresh_view()  # type: ignore[attr-defined]
        screen = getattr(self, "_knobs_screen", None)
        if screen is not None and screen.is_attached:
            screen.follow(session.knobs())
        return None

    def action_reset_knobs(self) -> None:
        if not self.session.knob_edits:
            self.app.notify("no setting was changed here", timeout=3)  # type: ignore[attr-defined]
            return
        self.session.reset_knobs()
        self.app.load_project(changed=None)  # type: ignore[attr-defined]

    def action_save_ctxrc(self) -> None:
        """Save the knobs changed here (and the budget) to `.ctxrc`: a diff first, written on `y`."""
        from ctxtui.engine.packers.ctx.knobs import BUDGET_KEY, HONOURED

        session = self.session
        name = session.packer_name or ""
        if session.at_revision:
            self.app.notify(  # type: ignore[attr-defined]
                "the past is read-only: nothing is saved into the project (H: back to the working tree)",
                severity="warning",
            )
            return
        if name not in CTX_PACKERS:
            self.app.notify(f"{short_title(name)} does not read .ctxrc", severity="warning")  # type: ignore[attr-defined]
            return
        changes: dict[str, Any] = {k: v for k, v in session.knob_edits.items() if k in HONOURED.get(name, ())}
        changes[BUDGET_KEY] = session.budget
        self._ask_to_save_ctxrc(changes)

    def _ask_to_save_ctxrc(self, changes: dict[str, Any], changed_meanwhile: bool = False) -> None:
        """Plan the change against `.ctxrc` as it is now and show it; `y` writes it unless the file changed again."""
        from ctxtui.opening.ctxrc_save import CtxrcEditError, WriteRefused, plan_save
        from ctxtui.tui.screens.ctxrc import ConfirmWriteScreen

        notify = self.app.notify  # type: ignore[attr-defined]
        session = self.session
        try:
            plan = plan_save(session.project, changes, session.request())
        except (CtxrcEditError, WriteRefused) as exc:
            notify(f"Not saved: {exc}", severity="error", markup=False)
            return
        if not plan.change.diff:
            notify(".ctxrc already says that: nothing to change", timeout=4)
            return

        def answered(yes: bool | None) -> None:
            from ctxtui.opening.ctxrc_save import TargetChanged, save

            if not yes:
                notify(".ctxrc left as it was", timeout=3)
                return
            try:
                done = save(plan, changes)
            except TargetChanged:  # edited since the dialog opened: show the change against the file as it is now
                self._ask_to_save_ctxrc(changes, changed_meanwhile=True)
                return
            except (CtxrcEditError, WriteRefused) as exc:
                notify(f"Not saved: {exc}", severity="error", markup=False)
                return
            kept = f"; {done.kept}" if done.kept else ""
            session.saved_to_ctxrc(changes)
            self.refresh_view()  # type: ignore[attr-defined]  # the settings line now says (.ctxrc)
            notify(f"Saved {done.where}{kept}", timeout=8, markup=False)

        lead = (
            ".ctxrc changed since the dialog opened: this is the change against it now. " if changed_meanwhile else ""
        )
        question = f"{lead}Write these settings to {plan.where}? ctx (and `ctxtui pack`) will then build this packet."
        hint = f"y writes it ({plan.kept}) · n or Esc leaves it" if plan.kept else "y writes it · n or Esc leaves it"
        self.app.push_screen(ConfirmWriteScreen(question, plan.change.diff, hint), answered)  # type: ignore[attr-defined]

    # -- pin and compare ---------------------------------------------------------------

    def action_pin(self) -> None:
        """Pin the state on screen (packer, knobs, budget), or unpin."""
        if self.pin is not None:
            self.pin = None
            self.app.notify("unpinned", timeout=2)  # type: ignore[attr-defined]
        elif self.view is not None:
            view = self.view
            self.pin = pin_of(view)
            self.app.notify(  # type: ignore[attr-defined]
                f"pinned {short_title(view.packer_name)} at {view.budget:,} tokens: entries that differ from it "
                "are marked ◆ (d filters them)",
                timeout=4,
            )
        self._show_again()

    def take_tour(self, tour: Tour) -> None:
        """The first screen of a tour (the demo's): pin the state shown, step to the tour's budget, then
        select the entry the tour picks (the why panel explains it)."""
        view = self.view
        if view is None:
            return
        self.pin = pin_of(view)
        self.request_budget(tour.budget)  # type: ignore[attr-defined]

        def select() -> None:
            from ctxtui.tui.widgets.entries.table import EntriesTable

            shown = self.view
            key = tour.select(shown, self.against_pin) if shown is not None else None  # type: ignore[attr-defined]
            table = self.query_one(EntriesTable)  # type: ignore[attr-defined]
            if key is not None and table.select_key(key):
                # A few rows above it on screen: the rows around it (and their marks) show why it moved.
                table.scroll_to(y=max(0, table.cursor_row - 4), animate=False)

        self.call_after_refresh(select)  # type: ignore[attr-defined]  # after the step `request_budget` queued

    def action_compare_version(self) -> None:
        """Compare with the other ctx version at the budget on screen ("differs in 0.8.0")."""
        view = self.view
        if view is None:
            return
        other = OTHER_VERSION.get(view.packer_name)
        if other is None:
            self.app.notify("comparing versions needs a ctx packer", severity="warning")  # type: ignore[attr-defined]
            return
        try:
            packer = self.session.packer_of(other)
        except Exception as exc:  # the other version may refuse to read what this one reads
            self.app.notify(f"cannot build {short_title(other)}: {exc}", severity="error")  # type: ignore[attr-defined]
            return
        self.pin = Pin(packer, None, f"{short_title(other)} at this budget")
        self._show_again()
        self._filter_keys(self._differs_label())

    def _differs_label(self) -> str:

        return PIN_FILTER

    def _show_again(self) -> None:
        """Recompute the marks of the view on screen (a pin changed)."""
        view = self.view
        if view is not None:
            self.show_view(view)  # type: ignore[attr-defined]

    def _filter_keys(self, label: str) -> None:

        comparison = self.against_pin if label == PIN_FILTER else self.step  # type: ignore[attr-defined]
        keys = comparison.keys if comparison is not None else frozenset()
        self.row_filter = replace(self.row_filter, keys=keys, keys_label=label)
        count = len(keys)
        one = count == 1
        if label == PIN_FILTER:
            what = ("differs from " if one else "differ from ") + (self.pin.label if self.pin else "the pin")
        else:
            what = "moved on the last step"
        self.app.notify(f"showing the {count:,} {'entry' if one else 'entries'} that {what}", timeout=3)  # type: ignore[attr-defined]

    def action_filter_differs(self) -> None:
        """Cycle: entries that differ from the pin → those moved on the last step → all."""

        current = self.row_filter.keys_label if self.row_filter.keys is not None else ""
        if current == "" and self.pin is not None:
            self._filter_keys(PIN_FILTER)
        elif current in ("", PIN_FILTER) and getattr(self, "step", None) is not None:
            self._filter_keys(STEP_FILTER)
        else:
            if current == "" and self.pin is None:
                self.app.notify(  # type: ignore[attr-defined]
                    "nothing to compare with yet: pin a state (P) or move the budget first", timeout=3
                )
            self.row_filter = replace(self.row_filter, keys=None, keys_label="")

    # -- coverage ----------------------------------------------------------------------

    def action_coverage(self) -> None:
        """Coverage curves, computed in a worker (a scan of every budget where a fate changes), bounded by
        `COVERAGE_SECONDS`: past it the screen shows what was scanned and says where it stopped. `g` again
        while it runs cancels it."""
        running = getattr(self, "_coverage_worker", None)
        if running is not None and running.is_running:
            running.cancel()
            self._coverage_worker = None
            self.app.notify("coverage cancelled", timeout=2)  # type: ignore[attr-defined]
            return
        view = self.view
        if view is None:
            return
        self.app.notify(  # type: ignore[attr-defined]
            f"computing coverage (at most {COVERAGE_SECONDS:g} s; g again cancels)…", timeout=2
        )
        loaded, budget = view.loaded, view.budget
        self._coverage_worker = self.app.run_in_thread(  # type: ignore[attr-defined]
            "coverage", lambda: self._compute_coverage(loaded, budget)
        )

    def _compute_coverage(self, loaded: Any, budget: int) -> None:
        from textual.worker import get_current_worker

        from ctxtui.deadline import stop_after
        from ctxtui.engine.explain.coverage import coverage

        worker = get_current_worker()
        found = coverage(
            loaded.packer, budget, should_stop=stop_after(COVERAGE_SECONDS, lambda: loaded.stale or worker.is_cancelled)
        )
        if not loaded.stale and not worker.is_cancelled:
            self.app.call_from_thread(self._show_coverage, found)  # type: ignore[attr-defined]

    def _show_coverage(self, found: Any) -> None:
        from ctxtui.tui.screens.coverage import CoverageScreen

        def jumped(budget: int | None) -> None:
            if budget is not None:
                self.request_budget(budget)  # type: ignore[attr-defined]

        title = short_title(self.session.packer_name or "")
        self.app.push_screen(CoverageScreen(found, title), jumped)  # type: ignore[attr-defined]

    # -- the palette's entries for what is on screen ---------------------------------

    def dynamic_palette(self) -> list[Action]:
        """Sort by each of this packer's columns; switch to each packer the sources allow."""
        from ctxtui.tui.widgets.entries.table import EntriesTable

        actions = []
        table = self.query_one(EntriesTable)  # type: ignore[attr-defined]
        for column in table.columns.columns:
            if column.id in ("fate", "mark"):
                continue
            actions.append(
                Action(
                    None,
                    "",
                    f"main.sort('{column.id}')",
                    f"Sort by {column.id}",
                    palette=f"Sort by {column.id}",
                    palette_help=column.help or "press again to reverse",
                )
            )
        current = self.session.packer_name
        for name in self.session.available_packers():
            if name != current:
                actions.append(
                    Action(
                        None,
                        "",
                        f"main.switch_packer('{name}')",
                        f"Packer: {name}",
                        palette=f"Packer: {short_title(name)}",
                        palette_help=PACKER_TITLES.get(name, name),
                    )
                )
        return actions
