"""The action registry: one place for ids, keys, words and palette entries, and every action has a method."""

from __future__ import annotations

from ctxtui.tui.actions import (
    ACTIONS,
    APP,
    BUDGET_INPUT,
    CONFIRM,
    COVERAGE,
    ENTRIES,
    ENTRY_HISTORY,
    HELP,
    HISTORY,
    KNOBS,
    PALETTE,
    PREVIEW,
    PROMPT,
    QUIRKS,
    SLIDER,
    TURNS,
    WHY,
    bindings,
    help_lines,
)
from ctxtui.tui.app import CtxtuiApp
from ctxtui.tui.main_screen import MainScreen
from ctxtui.tui.screens.coverage import CoverageScreen
from ctxtui.tui.screens.ctxrc import ConfirmWriteScreen
from ctxtui.tui.screens.entry_history import EntryHistoryScreen
from ctxtui.tui.screens.help import HelpScreen
from ctxtui.tui.screens.history import HistoryScreen
from ctxtui.tui.screens.knobs import KnobsScreen
from ctxtui.tui.screens.preview import PreviewScreen
from ctxtui.tui.screens.prompts import PromptScreen
from ctxtui.tui.screens.quirks import QuirksScreen
from ctxtui.tui.screens.turns import TurnsScreen
from ctxtui.tui.screens.why import WhyScreen
from ctxtui.tui.widgets.budget.input import BudgetInput
from ctxtui.tui.widgets.budget.slider import BudgetSlider
from ctxtui.tui.widgets.entries.table import EntriesTable
from textual.actions import parse

WHERE = {
    APP: CtxtuiApp,
    SLIDER: BudgetSlider,
    ENTRIES: EntriesTable,
    PREVIEW: PreviewScreen,
    HELP: HelpScreen,
    WHY: WhyScreen,
    QUIRKS: QuirksScreen,
    PROMPT: PromptScreen,
    BUDGET_INPUT: BudgetInput,
    KNOBS: KnobsScreen,
    HISTORY: HistoryScreen,
    ENTRY_HISTORY: EntryHistoryScreen,
    COVERAGE: CoverageScreen,
    CONFIRM: ConfirmWriteScreen,
    TURNS: TurnsScreen,
}


def test_ids_are_unique_and_every_keyed_action_has_one():
    ids = [a.id for a in ACTIONS if a.id]
    assert len(ids) == len(set(ids))
    assert all(a.id for a in ACTIONS if a.keys)
    assert all(a.palette for a in ACTIONS if not a.keys)  # an action without keys exists for the palette


def test_every_action_has_a_method_where_it_runs():
    for action in ACTIONS:
        namespace, name, _params = parse(action.action)
        target = {"main": MainScreen, "app": CtxtuiApp}.get(namespace, WHERE[action.where])
        assert hasattr(target, f"action_{name}"), action


def test_each_place_binds_its_own_actions():
    for where, owner in WHERE.items():
        assert [b.id for b in owner.BINDINGS] == [b.id for b in bindings(where)], where


def test_palette_and_help_read_the_registry():
    assert [a.palette for a in PALETTE][:3] == ["Quit", "Help: keys", "Type a budget…"]
    assert "Budget 16,000" in {a.palette for a in PALETTE}
    assert "Coverage curves…" in {a.palette for a in PALETTE} and "Save settings to .ctxrc…" in {
        a.palette for a in PALETTE
    }
    lines = help_lines({"app.preview": "v", "slider.fine_down": "a"}, lambda key: key.upper())
    assert ("V", "Preview: show exactly what `ctxtui pack` prints") in lines and ("q", "Quit: leave ctxtui") in lines
    assert ("s", "Sort") not in lines  # every key says what it does, not only its name
    assert ("A SHIFT+RIGHT", "budget −1 / +1 token (slider focused)") in lines  # a remapped focus key shows too
    assert ("Tab", "move focus") in lines
