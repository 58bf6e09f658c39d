"""A small app showing every widget with fake data: used by pilot and snapshot tests.

Run it by hand with `python -m tests.ui.gallery` to look at the widgets.
"""

from __future__ import annotations

from ctxtui.tui.themes import apply_theme, theme_variable_defaults
from ctxtui.tui.widgets.budget.input import BudgetEntered
from ctxtui.tui.widgets.budget.slider import BudgetSlider
from ctxtui.tui.widgets.entries.rows import rows_from_outcomes
from ctxtui.tui.widgets.entries.table import EntriesTable
from ctxtui.tui.widgets.tiers.bars import TierBars
from textual import on
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label

from tests.ui.fakes import sample_outcomes, sample_tiers


class Gallery(App):
    """Slider, tier bars and table; records the messages the widgets post."""

    AUTO_FOCUS = None

    CSS = """
    #budget-row { height: 1; padding: 0 1; }
    #budget-row > Label { width: 16; }
    TierBars { padding: 0 1; margin-bottom: 1; }
    """

    def __init__(self, theme_name: str = "ctxtui-dark", outcomes=None, tiers=None) -> None:
        super().__init__()
        self._theme_name = theme_name
        self._outcomes = sample_outcomes() if outcomes is None else outcomes
        self._tiers = sample_tiers() if tiers is None else tiers
        self.messages: list = []
        self.notices: list[str] = []

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **theme_variable_defaults()}

    def compose(self) -> ComposeResult:
        with Horizontal(id="budget-row"):
            yield Label("Budget 4,000", id="budget-label")
            yield BudgetSlider(4000, minimum=0, maximum=200_000, id="slider")
        yield TierBars(self._tiers, budget=4000, id="tiers")
        yield EntriesTable(rows_from_outcomes(self._outcomes), id="table")

    def on_mount(self) -> None:
        self.notices = apply_theme(self, self._theme_name)
        self.query_one(BudgetSlider).focus()  # explicit, so snapshots do not depend on timing

    @on(BudgetSlider.Changed)
    @on(EntriesTable.Selected)
    @on(EntriesTable.Activated)
    @on(BudgetEntered)
    def _record(self, message) -> None:
        self.messages.append(message)
        if isinstance(message, BudgetSlider.Changed):
            self.query_one("#budget-label", Label).update(f"Budget {message.value:,}")

    def of_type(self, kind) -> list:
        return [m for m in self.messages if isinstance(m, kind)]


if __name__ == "__main__":
    Gallery().run()
