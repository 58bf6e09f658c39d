"""Every user action in one registry: binding id and keys, words, where it applies, command-palette entry.

Key bindings (the App's, the slider's, the table's, each screen's), the command
palette (`commands.py`) and the `?` help all read `ACTIONS`, so adding an
action touches this file and the method that performs it. The id is what users
remap in the `[keys]` table of their config file (`"app.preview" = "v"`); an
action without keys is offered in the palette only.

Where an action applies (`where`):

- `APP`: from anywhere but a dialog (bindings on the App). An action string
  starting with `main.` runs on the main screen, also while the preview is
  open, so `[`/`]` keep working there; the others run on the App.
- `SLIDER`, `ENTRIES`: while that widget has the focus.
- `PREVIEW`, `HELP`, `WHY`, `QUIRKS`, `PROMPT`, `BUDGET_INPUT`, `KNOBS`, `COVERAGE`,
  `CONFIRM`, `TURNS`, `HISTORY`: on that screen.

`NOUS_ONLY` actions need a nous database (`--db postgresql://…`): the main
screen hides them from the footer, and the help leaves them out, otherwise.

Palette entries that depend on what is on screen (sort by each of the
packer's columns, switch to each packer the sources allow) come from the
main screen (`MainScreen.dynamic_palette`), not from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from textual.binding import Binding, BindingType

APP, SLIDER, ENTRIES = "app", "slider", "entries"
PREVIEW, HELP, WHY, QUIRKS, PROMPT, BUDGET_INPUT = "preview", "help", "why", "quirks", "prompt", "budget_input"
KNOBS, COVERAGE, CONFIRM, TURNS = "knobs", "coverage", "confirm", "turns"
HISTORY, ENTRY_HISTORY = "history", "entry_history"

BUDGET_PRESETS = (1000, 2000, 4000, 8000, 16000, 32000)

# Main-screen actions ("main.NAME") about what only the main screen shows (the table, its filters) or that
# another screen does its own way (the preview saves and previews its visible format): while another screen
# is on top they are off, and the footer leaves them out (`MainScreen.check_action`).
MAIN_SCREEN_ONLY = frozenset(
    {"filter_text", "cycle_fate", "cycle_section", "clear_filters", "cycle_sort", "sort", "preview", "save", "quirks"}
)


@dataclass(frozen=True, slots=True)
class Action:
    id: str | None  # the binding id users remap; None: palette only
    keys: str  # Textual key names, comma-separated; "" for palette only
    action: str  # a Textual action string, run where the action applies
    description: str  # the footer's and the help's words
    where: str = APP
    key_display: str | None = None
    show: bool = True  # in the footer
    palette: str = ""  # the command palette's name for it ("": not offered there)
    palette_help: str = ""

    def binding(self) -> Binding:
        return Binding(
            self.keys, self.action, self.description, show=self.show, key_display=self.key_display, id=self.id
        )


_TO_CLIPBOARD = "to the clipboard (OSC 52 + system tool)"
_DOWN, _UP = "the budget {:,} tokens lower", "the budget {:,} tokens higher"

ACTIONS: tuple[Action, ...] = (
    # Anywhere, in the order of the footer and the help.
    Action("app.quit", "q", "quit", "Quit", palette="Quit", palette_help="leave ctxtui"),
    Action(
        "app.help",
        "question_mark",
        "help",
        "Help",
        key_display="?",
        palette="Help: keys",
        palette_help="every key, and what the symbols, columns and words on screen mean",
    ),
    Action(
        "app.type_budget",
        "b",
        "main.type_budget",
        "Budget…",
        palette="Type a budget…",
        palette_help="set an exact budget",
    ),
    Action(
        "app.budget_down",
        "left_square_bracket",
        "main.nudge(-100)",
        "−100",
        key_display="[",
        palette_help=_DOWN.format(100),
    ),
    Action(
        "app.budget_up",
        "right_square_bracket",
        "main.nudge(100)",
        "+100",
        key_display="]",
        palette_help=_UP.format(100),
    ),
    Action(
        "app.budget_down_coarse",
        "left_curly_bracket",
        "main.nudge(-1000)",
        "−1000",
        key_display="{",
        show=False,
        palette_help=_DOWN.format(1000),
    ),
    Action(
        "app.budget_up_coarse",
        "right_curly_bracket",
        "main.nudge(1000)",
        "+1000",
        key_display="}",
        show=False,
        palette_help=_UP.format(1000),
    ),
    Action(
        "app.filter",
        "slash",
        "main.filter_text",
        "Filter",
        key_display="/",
        palette="Filter entries by text…",
        palette_help="title, section, reason or file",
    ),
    Action(
        "app.cycle_fate",
        "f",
        "main.cycle_fate",
        "Fate",
        palette="Cycle fate filter",
        palette_help="included → summarized → dropped → all",
    ),
    Action(
        "app.cycle_section",
        "e",
        "main.cycle_section",
        "Section",
        show=False,
        palette="Cycle section filter",
        palette_help="tasks, conventions, decisions…",
    ),
    Action(
        "app.cycle_sort",
        "s",
        "main.cycle_sort",
        "Sort",
        palette_help="by the next column shown (▲ ▼ in its header); after the last: packet order",
    ),
    Action(
        "app.preview",
        "p",
        "main.preview('md')",
        "Preview",
        palette="Preview packet as Markdown",
        palette_help="show exactly what `ctxtui pack` prints",
    ),
    Action(
        None,
        "",
        "main.preview('json')",
        "Preview JSON",
        palette="Preview packet as JSON",
        palette_help="show the --format json packet",
    ),
    Action("app.copy", "c", "main.copy('md')", "Copy", palette="Copy packet (Markdown)", palette_help=_TO_CLIPBOARD),
    Action(
        "app.copy_json",
        "C",
        "main.copy('json')",
        "Copy JSON",
        show=False,
        palette="Copy packet (JSON)",
        palette_help=_TO_CLIPBOARD,
    ),
    Action(
        "app.save",
        "w",
        "main.save('md')",
        "Save",
        show=False,
        palette="Save packet (Markdown)…",
        palette_help="write the packet to a file",
    ),
    Action(
        None,
        "",
        "main.save('json')",
        "Save JSON",
        palette="Save packet (JSON)…",
        palette_help="write the JSON packet to a file",
    ),
    Action(
        "app.reload",
        "r",
        "reload",
        "Reload",
        show=False,
        palette="Reload from disk",
        palette_help="re-read .context/ and the memory database",
    ),
    Action(
        "app.join_memories",
        "m",
        "main.join_memories",
        "Join memory.db",
        show=False,
        palette="Join .context/memory.db",
        palette_help="add the project's memory database to ctx's packet (ctx itself never reads it)",
    ),
    Action(
        "app.clear_filters",
        "escape",
        "main.clear_filters",
        "Clear filters",
        key_display="Esc",
        show=False,
        palette="Clear filters",
        palette_help="show every entry",
    ),
    Action(
        "app.quirks",
        "exclamation_mark",
        "main.quirks",
        "Quirks",
        key_display="!",
        show=False,
        palette="Show ctx quirks at work",
        palette_help="which of ctx's surprises shape this packet",
    ),
    # Tuning: which packer, its settings, a pin to compare with, coverage.
    Action(
        "app.next_packer",
        "v",
        "main.next_packer",
        "Packer",
        palette="Switch to the next packer",
        palette_help="ctx 0.8.1 → 0.8.0 → MCP → the store's own; budget and selection kept",
    ),
    Action(
        "app.knobs",
        "k",
        "main.knobs",
        "Knobs…",
        palette="Edit settings (knobs)…",
        palette_help="the packer's settings besides the budget; each change recomputes",
    ),
    Action(
        "app.pin",
        "P",
        "main.pin",
        "Pin",
        key_display="P",
        palette="Pin this state / unpin",
        palette_help="mark (◆) every entry whose fate differs from now on; bars show token deltas",
    ),
    Action(
        "app.filter_differs",
        "d",
        "main.filter_differs",
        "Differs",
        palette="Show only entries that differ",
        palette_help="from the pin or the compared version; again: those moved on the last step; again: all",
    ),
    Action(
        "app.coverage",
        "g",
        "main.coverage",
        "Coverage",
        palette="Coverage curves…",
        palette_help="per section: entries in full by budget, where the packet stops changing",
    ),
    Action(
        None,
        "",
        "main.compare_version",
        "Compare versions",
        palette="Compare with the other ctx version",
        palette_help="mark (◆) and filter the entries whose fate differs in ctx 0.8.0 (or 0.8.1)",
    ),
    Action(
        "app.save_ctxrc",
        "ctrl+s",
        "main.save_ctxrc",
        "Save settings",
        show=False,
        palette="Save settings to .ctxrc…",
        palette_help="shows the change as a diff and asks before writing",
    ),
    Action(
        None,
        "",
        "main.reset_knobs",
        "Reset settings",
        palette="Reset settings changed here",
        palette_help="back to the flags, .ctxrc and defaults",
    ),
    *(
        Action(
            None,
            "",
            f"main.set_budget({budget})",
            f"Budget {budget:,}",
            palette=f"Budget {budget:,}",
            palette_help="jump to this budget",
        )
        for budget in BUDGET_PRESETS
    ),
    Action(
        "app.turns",
        "t",
        "main.turns",
        "Turns",
        palette="nous turns…",
        palette_help="the database's logged turns, live: pick one to rebuild its sections",
    ),
    Action(
        "app.history",
        "h",
        "main.history",
        "History",
        palette="History…",
        palette_help="the commits that touched .context/: pick one to see the packet as it was then",
    ),
    Action(
        "app.entry_history",
        "y",
        "main.entry_history",
        "Entry history",
        show=False,
        palette="The selected entry's history",
        palette_help="the commits at which its fate changed, and why, in numbers (in the why panel; y again: a dialog)",
    ),
    Action(
        "app.working_tree",
        "H",
        "main.working_tree",
        "Working tree",
        show=False,
        palette="Back to the working tree",
        palette_help="leave the past: the packet of the files as they are now",
    ),
    # The budget slider, focused.
    Action("slider.step_down", "left", "step(-1)", "−one cell", SLIDER, show=False),
    Action("slider.step_up", "right", "step(1)", "+one cell", SLIDER, show=False),
    Action("slider.fine_down", "shift+left", "fine(-1)", "−1", SLIDER, show=False),
    Action("slider.fine_up", "shift+right", "fine(1)", "+1", SLIDER, show=False),
    Action("slider.coarse_down", "pagedown", "coarse(-1)", "−coarse", SLIDER, show=False),
    Action("slider.coarse_up", "pageup", "coarse(1)", "+coarse", SLIDER, show=False),
    Action("slider.minimum", "home", "to_end(-1)", "minimum", SLIDER, show=False),
    Action("slider.maximum", "end", "to_end(1)", "maximum", SLIDER, show=False),
    # The table shows its selection while the slider has the focus: ↑ and ↓ move it from there too (the slider
    # has no use for them), so the highlighted row answers the keys a table answers.
    Action("slider.entries_up", "up", "main.entries_cursor(-1)", "selection up", SLIDER, show=False),
    Action("slider.entries_down", "down", "main.entries_cursor(1)", "selection down", SLIDER, show=False),
    # The entries table, focused.
    Action("entries.up", "up", "cursor(-1)", "Up", ENTRIES, show=False),
    Action("entries.down", "down", "cursor(1)", "Down", ENTRIES, show=False),
    Action("entries.page_up", "pageup", "page(-1)", "Page up", ENTRIES, show=False),
    Action("entries.page_down", "pagedown", "page(1)", "Page down", ENTRIES, show=False),
    Action("entries.first", "home", "first", "First", ENTRIES, show=False),
    Action("entries.last", "end", "last", "Last", ENTRIES, show=False),
    Action("entries.activate", "enter", "activate", "Details", ENTRIES, show=False),
    Action("entries.sort", "s", "cycle_sort", "Sort", ENTRIES),
    Action("entries.reverse_sort", "S", "reverse_sort", "Reverse sort", ENTRIES, show=False),
    # Screens and dialogs.
    Action("preview.back", "escape,p", "app.pop_screen", "Back", PREVIEW),
    Action("preview.copy", "c", "copy", "Copy", PREVIEW),
    Action("preview.save", "s", "save", "Save…", PREVIEW),
    Action("preview.markdown", "m", "show('md')", "Markdown", PREVIEW),
    Action("preview.json", "j", "show('json')", "JSON", PREVIEW),
    Action("preview.find", "slash", "find", "Find", PREVIEW, key_display="/"),
    Action("preview.find_next", "n", "find_next", "Next match", PREVIEW),
    Action("preview.diff", "d", "show('diff')", "Diff vs pin", PREVIEW),
    Action("help.close", "escape,q,question_mark", "close", "Close help", HELP, show=False),
    Action("why.close", "escape,enter,q", "dismiss", "Close", WHY),
    Action("quirks.close", "escape,q,exclamation_mark", "dismiss", "Close", QUIRKS),
    Action("prompt.cancel", "escape", "cancel", "Cancel", PROMPT),
    Action("budget_input.cancel", "escape", "cancel", "Cancel", BUDGET_INPUT, show=False),
    Action("knobs.close", "escape", "close", "Close", KNOBS),
    Action("knobs.save", "ctrl+s", "save", "Save to .ctxrc…", KNOBS),
    Action("coverage.close", "escape,q,g", "close", "Close", COVERAGE),
    Action("turns.open", "enter", "open_turn", "Open turn", TURNS),
    Action("turns.close", "escape,t", "close", "Back", TURNS),
    Action("turns.refresh", "r", "poll_now", "Poll now", TURNS),
    Action("confirm.yes", "y", "yes", "Write", CONFIRM),
    Action("confirm.no", "n,escape", "no", "Leave it", CONFIRM),
    Action("history.close", "escape,h,q", "close", "Close", HISTORY),
    Action("entry_history.close", "escape,q,y", "dismiss", "Close", ENTRY_HISTORY),
    Action("history.present", "H,w", "present", "Working tree", HISTORY),
)
NOUS_ONLY = frozenset({"app.turns"})
ACTION_BY_ID: dict[str, Action] = {action.id: action for action in ACTIONS if action.id}
PALETTE: tuple[Action, ...] = tuple(action for action in ACTIONS if action.palette)


def bindings(where: str) -> list[BindingType]:
    """The key bindings of one place (`APP`, `SLIDER`...), in registry order (Textual's type for BINDINGS)."""
    return [action.binding() for action in ACTIONS if action.where == where and action.keys]


@dataclass(frozen=True, slots=True)
class HelpLine:
    """A help line for keys that need the focus somewhere, or that Textual provides."""

    keys: str  # as shown while none of `ids` is remapped
    text: str
    ids: tuple[str, ...] = ()


HELP_FOCUSED: tuple[HelpLine, ...] = (
    HelpLine(
        "← →",
        "budget one cell of the slider, to a round number (slider focused)",
        ("slider.step_down", "slider.step_up"),
    ),
    HelpLine("shift+← →", "budget −1 / +1 token (slider focused)", ("slider.fine_down", "slider.fine_up")),
    HelpLine("PgUp PgDn", "budget coarse step (slider focused)", ("slider.coarse_up", "slider.coarse_down")),
    HelpLine("Home End", "budget minimum / maximum (slider focused)", ("slider.minimum", "slider.maximum")),
    HelpLine("Tab", "move focus"),
    HelpLine(
        "/ n", "in the preview: find text in the packet, then the next match", ("preview.find", "preview.find_next")
    ),
    HelpLine("↑ ↓", "select entry (table or slider focused)", ("entries.up", "entries.down")),
    HelpLine("Enter", "the why panel as a dialog (narrow terminals)", ("entries.activate",)),
    HelpLine("ctrl+p", "command palette"),
)


def help_lines(
    keymap: Mapping[str, str], key_display: Callable[[str], str], *, nous: bool = False
) -> list[tuple[str, str]]:
    """(keys, description) for the `?` help: the keys that work anywhere, then those that need the focus.

    `keymap` is the user's (binding id → keys): remapped keys show as the user
    set them; `key_display` shows one key name ("ctrl+y" → "^y"). `nous`: the
    source is a nous database, so its actions (`NOUS_ONLY`) are listed.
    """

    def shown(keys: str) -> str:
        return ", ".join(key_display(key.strip()) for key in keys.split(","))

    lines = []
    for action in ACTIONS:
        if action.where == APP and action.keys and (nous or action.id not in NOUS_ONLY):
            remapped = keymap.get(action.id or "")
            words = f"{action.description}: {action.palette_help}" if action.palette_help else action.description
            lines.append((shown(remapped) if remapped else action.key_display or action.keys, words))
    for line in HELP_FOCUSED:
        if any(keymap.get(id) for id in line.ids):
            keys = " ".join(shown(keymap.get(id) or ACTION_BY_ID[id].keys) for id in line.ids)
        else:
            keys = line.keys
        lines.append((keys, line.text))
    return lines
