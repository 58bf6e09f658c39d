"""SVG snapshots of the widgets in every theme and in the states a user can reach.

Update with `pytest tests/ui/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.tui.screens.budget import BudgetInputScreen
from ctxtui.tui.screens.help import HelpScreen
from ctxtui.tui.widgets.budget.input import BudgetInput
from ctxtui.tui.widgets.entries.rows import RowFilter
from ctxtui.tui.widgets.entries.table import EntriesTable

from tests.ui.gallery import Gallery

HELP = [
    (None, "Budget"),
    ("← →", "fine step (1 token)"),
    ("PgUp PgDn", "coarse step"),
    ("Home End", "minimum / maximum"),
    ("b", "type an exact budget"),
    (None, "Entries"),
    ("↑ ↓", "select an entry"),
    ("s / S", "next sort column / reverse"),
    ("/", "filter by text"),
    ("?", "this help"),
]


@pytest.fixture(autouse=True)
def no_user_themes(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))


@pytest.mark.parametrize("theme", ["ctxtui-dark", "ctxtui-light", "ctxtui-high-contrast"])
def test_gallery(snap_compare, theme):
    assert snap_compare(Gallery(theme_name=theme), terminal_size=(120, 30))


def test_gallery_narrow(snap_compare):
    assert snap_compare(Gallery(), terminal_size=(60, 34))


def test_table_focused_sorted_and_filtered(snap_compare):
    async def run_before(pilot) -> None:
        await pilot.pause()
        table = pilot.app.query_one(EntriesTable)
        table.focus()
        table.set_filter(RowFilter(fates=frozenset({Fate.INCLUDED, Fate.SUMMARIZED})))
        table.sort_by("score")
        await pilot.press("down")

    assert snap_compare(Gallery(), terminal_size=(120, 30), run_before=run_before)


def test_slider_dragged(snap_compare):
    async def run_before(pilot) -> None:
        await pilot.pause()
        await pilot.mouse_down("#slider", offset=(10, 0))
        await pilot.hover("#slider", offset=(60, 0))
        await pilot.mouse_up("#slider", offset=(60, 0))

    assert snap_compare(Gallery(), terminal_size=(120, 30), run_before=run_before)


def test_help_screen(snap_compare):
    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.push_screen(HelpScreen(HELP))
        await pilot.pause()

    assert snap_compare(Gallery(), terminal_size=(100, 30), run_before=run_before)


def test_budget_input_screen(snap_compare):
    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.push_screen(BudgetInputScreen(None, minimum=0, maximum=200_000))
        await pilot.pause()
        field = pilot.app.screen.query_one(BudgetInput)
        field.cursor_blink = False
        await pilot.press(*"12000")

    assert snap_compare(Gallery(), terminal_size=(100, 30), run_before=run_before)
