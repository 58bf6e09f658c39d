"""The `t` view: a nous database's logged turns, newest first, kept live; Enter shows one in the main screen.

The same facts as `ctxtui turns` (time, session and turn number, frame, API
calls, tokens by prompt section, candidates logged and rendered), one row per
turn. The App polls the database every couple of seconds in a worker
(`TurnsSession.poll`) and calls `show()` with the result: the list is
rebuilt keeping the turn under the cursor, and while the server cannot be
reached a banner says why over the last good list. Enter on a turn whose
candidates nous sampled dismisses the screen with its key; the main screen
then rebuilds that turn's sections (`Session.choose_turn`). Every cell is
database text: built as `Text` from `clean_line`, never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static

from ctxtui.engine.sources.memory.nous.model import TurnSummary
from ctxtui.safe_text import clean_line
from ctxtui.tui.actions import TURNS, bindings
from ctxtui.turns_session import sections_line

# (column key, heading, right-aligned): the help explains each heading (TURNS_HELP).
COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("shown", " ", False),
    ("time", "time (UTC)", False),
    ("where", "session#turn", False),
    ("frame", "frame", False),
    ("calls", "calls", True),
    ("tokens", "tokens", True),
    ("candidates", "candidates", True),
    ("rendered", "rendered", True),
    ("logged", "logged", False),
    ("sections", "sections (tokens)", False),
)
SHOWN = "▶"  # the turn the main screen shows
SAMPLED = "✓"  # nous logged this turn's candidates: it can be rebuilt
NOT_SAMPLED_HINT = (
    "nous logged no candidates for this turn (it samples 10% of turns by default: "
    "NOUS_RETRIEVAL_TELEMETRY_CANDIDATE_SAMPLE_RATE); only its logged tokens are known"
)

TURNS_HELP: tuple[tuple[str | None, str], ...] = (
    (None, "Turns view (t): a nous database's logged turns, newest first"),
    ("Enter", "show the turn's rebuilt sections in the main screen (budget and knobs stay live)"),
    ("Esc, t", "back to the main screen"),
    ("r", "poll the database now (it is polled every 2 seconds anyway)"),
    (SHOWN, "the turn the main screen shows"),
    ("time (UTC)", "when the turn's first API call was logged"),
    ("session#turn", "nous's session id and turn number"),
    ("frame", "the frame of the turn's first API call (it picks the section budgets)"),
    ("calls", "API calls of the turn (context_log rows; a tool loop makes several)"),
    ("tokens", "tokens of the first call's system prompt, as nous estimated them (len/4)"),
    ("candidates", "memories the turn's retrieval considered"),
    ("rendered", "of those, how many nous put in the prompt"),
    (f"logged {SAMPLED}", "nous logged each candidate: the turn can be rebuilt and re-cut"),
    ("sections", "the first call's tokens per prompt section"),
)


def _cell(text: str, right: bool = False, style: str = "") -> Text:
    return Text(clean_line(text), style=style, justify="right" if right else "left", no_wrap=True)


def turn_cells(turn: TurnSummary, shown: bool) -> list[Text]:
    """One row of the list, every value escaped."""
    number = turn.turn_number if turn.turn_number is not None else "?"
    values = {
        "shown": SHOWN if shown else "",
        "time": (turn.timestamp or "")[:19].replace("T", " "),
        "where": f"{turn.session_id or '?'}#{number}",
        "frame": turn.frame_id or "-",
        "calls": f"{turn.calls:,}",
        "tokens": "" if turn.total_tokens_est is None else f"{turn.total_tokens_est:,}",
        "candidates": "" if turn.n_candidates is None else f"{turn.n_candidates:,}",
        "rendered": "" if turn.n_rendered is None else f"{turn.n_rendered:,}",
        "logged": SAMPLED if turn.sampled else "",
        "sections": sections_line(turn.section_tokens),
    }
    return [
        _cell(values[key], right, "bold" if key == "shown" or (key == "logged" and turn.sampled) else "")
        for key, _, right in COLUMNS
    ]


def turn_detail(turn: TurnSummary | None) -> Text:
    """The line under the list: the highlighted turn's key, query and what Enter would do."""
    if turn is None:
        return Text("")
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(f"turn {clean_line(turn.key)}", style="bold")
    if turn.model:
        out.append(f"  ·  model {clean_line(turn.model)}")
    if turn.query:
        out.append("  ·  query ")
        out.append(clean_line(turn.query), style="italic")
    out.append("  ·  ")
    out.append("Enter shows its sections" if turn.sampled else "candidates not logged", style="dim")
    return out


class TurnsScreen(Screen[str | None]):
    """The turns list; dismisses with the chosen turn's key (None: back without choosing)."""

    BINDINGS = bindings(TURNS)
    KEEPS_MAIN_KEYS = False  # the main screen's budget and filter keys are off while this covers it
    DEFAULT_CSS = """
    TurnsScreen #turns-title { text-style: bold; padding: 0 1; }
    TurnsScreen #turns-banner { display: none; padding: 0 1; background: $error 30%; color: $text; }
    TurnsScreen #turns-banner.-shown { display: block; }
    TurnsScreen DataTable { height: 1fr; }
    TurnsScreen #turns-detail { padding: 0 1; height: 1; }
    TurnsScreen #turns-empty { padding: 1 2; color: $text-muted; }
    """

    def __init__(self, title: str, turns: Sequence[TurnSummary], error: str | None, shown: str | None) -> None:
        super().__init__()
        self._title = title
        self.turns: list[TurnSummary] = list(turns)
        self.error = error
        self.shown = shown  # the key of the turn on the main screen
        self._loaded = False  # a first list (or error) has arrived

    def compose(self) -> ComposeResult:
        yield Label(clean_line(self._title), id="turns-title", markup=False)
        yield Static("", id="turns-banner", markup=False)
        table: DataTable[Text] = DataTable(id="turns-table", cursor_type="row", zebra_stripes=True)
        for key, heading, right in COLUMNS:
            table.add_column(Text(heading, justify="right" if right else "left"), key=key)
        yield table
        yield Static("", id="turns-empty", markup=False)
        yield Static("", id="turns-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._fill(keep=None)
        self._show_error()
        self.query_one(DataTable).focus()

    # -- what the App's poll hands over ------------------------------------------------

    def show(
        self, turns: Sequence[TurnSummary] | None, error: str | None, shown: str | None, title: str | None = None
    ) -> None:
        """A poll's result: new turns (None: unchanged), the error (None: reachable), the turn on screen."""
        if turns is not None or error is not None:
            self._loaded = True
        if title is not None and title != self._title and self.is_attached:
            self._title = title
            self.query_one("#turns-title", Label).update(clean_line(title))
        changed = turns is not None or shown != self.shown
        keep = self.highlighted_key if self.is_attached else None  # before the list changes under the cursor
        if turns is not None:
            self.turns = list(turns)
        self.shown = shown
        if changed and self.is_attached:
            self._fill(keep=keep)
        self.error = error
        if self.is_attached:
            self._show_error()

    @property
    def highlighted_key(self) -> str | None:
        table = self.query_one(DataTable)
        if not self.turns or table.row_count == 0:
            return None
        row = min(max(table.cursor_row, 0), len(self.turns) - 1)
        return self.turns[row].key

    def _fill(self, keep: str | None) -> None:
        """Rebuild the rows; the cursor stays on the turn it was on (or the first row)."""
        table = self.query_one(DataTable)
        table.clear()
        for turn in self.turns:
            table.add_row(*turn_cells(turn, turn.key == self.shown), key=turn.key)
        keys = [t.key for t in self.turns]
        if keep in keys:
            table.move_cursor(row=keys.index(keep), animate=False, scroll=True)
        elif self.shown in keys and keep is None:
            table.move_cursor(row=keys.index(self.shown), animate=False, scroll=True)
        empty = self.query_one("#turns-empty", Static)
        if self.turns:
            empty.update("")
            empty.display = False
        else:
            empty.display = True
            empty.update(
                "(no logged turns: is nous's context logging on, and is this the right --agent?)"
                if self._loaded
                else "reading the turn log…"
            )
        self._show_detail()

    def _show_error(self) -> None:
        banner = self.query_one("#turns-banner", Static)
        if self.error:
            kept = "the last good list stays" if self.turns else "nothing to show yet"
            banner.update(
                Text(
                    f"⚠ the database cannot be read: {clean_line(self.error)} — {kept}; retrying every 2 seconds",
                    no_wrap=False,
                )
            )
            banner.add_class("-shown")
        else:
            banner.update("")
            banner.remove_class("-shown")

    def _show_detail(self) -> None:
        key = self.highlighted_key
        turn = next((t for t in self.turns if t.key == key), None)
        self.query_one("#turns-detail", Static).update(turn_detail(turn))

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open_turn()

    # -- actions (see actions.py for their keys) ---------------------------------------

    def action_open_turn(self) -> None:
        key = self.highlighted_key
        turn = next((t for t in self.turns if t.key == key), None)
        if turn is None:
            return
        if not turn.sampled:
            self.app.notify(f"turn {turn.key}: {NOT_SAMPLED_HINT}", severity="warning", timeout=6)
            return
        self.dismiss(turn.key)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_poll_now(self) -> None:
        poll = getattr(self.app, "poll_nous", None)
        if poll is not None:
            poll()
