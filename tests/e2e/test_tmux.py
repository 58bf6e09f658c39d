"""The real `ctxtui` in a real terminal: start, slide, type a budget, preview, quit.

Runs the installed console script on ctx-large inside a private tmux server
(160×45) and reads the screen back as text. Every number on screen is checked
against the engine: the test reads the budget the app shows, assembles that
budget itself and expects the same fate counts, tokens and row fates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import pytest
from ctxtui.engine.model import Plan
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.sources.workspace import load_workspace
from ctxtui.tui.safe_text import clean_line
from ctxtui.tui.themes import FATE_SYMBOL

from tests.conftest import NOW, corpus_path, needs_corpus
from tests.e2e.terminal import CTXTUI, TMUX, Terminal

pytestmark = [
    pytest.mark.e2e,
    needs_corpus,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux; .ci/run does this)"),
    pytest.mark.skipif(not CTXTUI.exists(), reason=f"the ctxtui console script is not at {CTXTUI} (pip install -e .)"),
]

PROJECT = corpus_path("ctx-large")
NOW_ARG = NOW.strftime("%Y-%m-%dT%H:%M:%SZ")
START_TIMEOUT = 30.0  # a cold start on a slow CI machine: imports, parse, first assembly
STEP_TIMEOUT = 15.0

_STATUS = re.compile(
    r"budget (?P<budget>[\d,]+) · used ~(?P<used>[\d,]+)(?: ctx)? .*?"
    r"● (?P<included>[\d,]+) ◐ (?P<summarized>[\d,]+) ✕ (?P<dropped>[\d,]+)"
)
_ROW = re.compile(r"^[ ▌](?P<fate>[●◐✕]) [▲▼◆ ] (?P<section>[a-z]+) +(?P<title>.+?)(?P<cut>…)?(?: {2,}| *$)")
_SYMBOLS = set(FATE_SYMBOL.values())


@dataclass(frozen=True)
class Status:
    budget: int
    used: int
    counts: tuple[int, int, int]  # included, summarized, dropped


@dataclass(frozen=True)
class ShownRow:
    fate: str
    section: str
    title: str  # as shown, without the "…" of a cut title
    cut: bool


def _int(text: str) -> int:
    return int(text.replace(",", ""))


def status_of(screen: str) -> Status | None:
    for line in screen.splitlines()[:2]:
        if found := _STATUS.search(line):
            return Status(
                _int(found["budget"]),
                _int(found["used"]),
                (_int(found["included"]), _int(found["summarized"]), _int(found["dropped"])),
            )
    return None


def rows_of(screen: str) -> list[ShownRow]:
    """The table rows on screen (the part left of the why panel's "▏")."""
    rows, in_table = [], False
    for line in screen.splitlines():
        left = line.split("▏", 1)[0]
        if not in_table:
            in_table = "section" in left and "title" in left and "reason" in left
            continue
        found = _ROW.match(left)
        if found is None:
            break
        rows.append(ShownRow(found["fate"], found["section"], found["title"].rstrip(), bool(found["cut"])))
    return rows


@cache
def engine():
    # As `ctxtui PROJECT` builds it: absolute project path as the root, ctx's estimate.
    return packer_for(load_workspace(PROJECT), now=NOW)


@cache
def packet(budget: int) -> Plan:
    return engine().plan(budget)


def expected_status(budget: int) -> Status:
    p = packet(budget)
    counts = p.counts()
    return Status(budget, p.tokens_used, (counts["included"], counts["summarized"], counts["dropped"]))


def check_rows(rows: list[ShownRow], budget: int) -> None:
    """Each row on screen names an entry the engine gives that fate at `budget`."""
    assert len(rows) >= 10, f"expected a screenful of rows, read {rows}"
    outcomes = packet(budget).outcomes
    for row in rows:
        assert row.fate in _SYMBOLS
        candidates = [
            o
            for o in outcomes
            if o.entry.section == row.section
            and (
                clean_line(o.entry.title).startswith(row.title)
                if row.cut
                else clean_line(o.entry.title).strip() == row.title
            )
        ]
        assert candidates, f"no {row.section} entry titled {row.title!r} at budget {budget}"
        fates = {FATE_SYMBOL[o.fate] for o in candidates}
        assert row.fate in fates, f"{row} shown as {row.fate}, the engine says {fates} at budget {budget}"


@pytest.fixture
def terminal(tmp_path):
    term = Terminal(tmp_path, width=160, height=45)
    try:
        yield term
    finally:
        term.close()


def wait_status(terminal: Terminal, accept, what: str, timeout: float = STEP_TIMEOUT) -> tuple[Status, str]:
    """The settled status line once `accept(status)`; returns it with the screen it was read from."""

    def probe(screen: str):
        status = status_of(screen)
        return status if status and accept(status) else None

    status = terminal.wait_for(probe, what, timeout=timeout)
    for _ in range(100):  # a screen showing that status, to read rows from
        screen = terminal.screen()
        if status_of(screen) == status:
            return status, screen
    raise AssertionError(f"the status line moved on from {status} without a key pressed:\n{screen}")


def test_slide_type_preview_quit(terminal: Terminal) -> None:
    terminal.start([str(CTXTUI), str(PROJECT), "--budget", "4000", "--now", NOW_ARG, "--theme", "ctxtui-dark"])

    # First screen: the budget asked for, the engine's counts, rows with the engine's fates.
    first, screen = wait_status(
        terminal, lambda s: s.budget == 4000, "the status line at budget 4,000", timeout=START_TIMEOUT
    )
    assert first == expected_status(4000)
    rows_4000 = rows_of(screen)
    check_rows(rows_4000, 4000)

    # PageUp on the focused slider: a coarse step up, twice; each screen is what the engine predicts.
    seen = [first]
    for _ in range(2):
        before = seen[-1].budget
        terminal.send("PageUp")
        status, screen = wait_status(terminal, lambda s, b=before: s.budget != b, f"the budget to leave {before:,}")
        assert status.budget > before
        assert status == expected_status(status.budget)
        check_rows(rows_of(screen), status.budget)
        seen.append(status)
    assert seen[-1].counts != first.counts, "two coarse steps up should change the fate counts"
    assert seen[-1].counts[0] > first.counts[0], "more budget, more entries included"

    # `b`, an exact budget, Enter. Keys go one write at a time, each after the screen shows the last one.
    terminal.send("b")
    terminal.wait_for(lambda s: "Budget (tokens)" in s, "the budget dialog")
    terminal.send("C-u")
    terminal.wait_for(lambda s: "budget in tokens" in s, "the budget field to be empty (its placeholder)")
    terminal.send("120")
    terminal.wait_for(lambda s: "budget in tokens" not in s and bool(re.search(r"▊ +120 +▎", s)), "120 in the field")
    terminal.send("Enter")
    low, screen = wait_status(terminal, lambda s: s.budget == 120, "the budget typed (120)")
    assert "Budget (tokens)" not in screen, "Enter should close the dialog"
    assert low == expected_status(120)
    rows_120 = rows_of(screen)
    check_rows(rows_120, 120)
    changed = [
        (a, b) for a, b in zip(rows_4000, rows_120) if (a.section, a.title) == (b.section, b.title) and a.fate != b.fate
    ]
    assert changed, "at 120 tokens some of the rows seen at 4,000 should have changed fate"

    # The preview is the packet as `ctxtui pack` prints it.
    terminal.send("p")
    preview = terminal.wait_for(lambda s: s if "# Context Packet" in s else None, "the Markdown preview")
    assert "Packet at budget 120" in preview
    assert f"Generated: {NOW_ARG} | Budget: 120 tokens | Used: ~{low.used} tokens" in preview
    terminal.send("Escape")
    back, screen = wait_status(terminal, lambda s: s.budget == 120, "the main screen after Escape")
    assert "# Context Packet" not in screen
    assert back == low

    # q quits: the process ends with status 0 and the terminal is back from the app's screen.
    terminal.send("q")
    assert terminal.wait_until_ended(timeout=STEP_TIMEOUT) == 0
    assert status_of(terminal.screen()) is None


def test_preview_title_visible_on_a_long_packet(terminal: Terminal) -> None:
    """Regression: the preview was one line taller than the screen when the packet was long, so
    the screen scrolled (a second scrollbar) and hid the title ~0.1-0.4 s after opening."""
    terminal.start([str(CTXTUI), str(PROJECT), "--budget", "4000", "--now", NOW_ARG, "--theme", "ctxtui-dark"])
    wait_status(terminal, lambda s: s.budget == 4000, "the first screen", timeout=START_TIMEOUT)
    terminal.send("p")
    terminal.wait_for(lambda s: "# Context Packet" in s, "the Markdown preview")
    preview = terminal.wait_quiet()  # late layout passes included
    assert "Packet at budget 4,000" in preview.splitlines()[0]


def test_fate_counts_visible_at_80_columns(tmp_path) -> None:
    """Regression: at 80 columns the o200k_base count, once it arrived, pushed the fate counts
    off the status line; a compact form now keeps them."""
    with Terminal(tmp_path, width=80, height=24) as small:
        small.start([str(CTXTUI), str(PROJECT), "--budget", "4000", "--now", NOW_ARG, "--theme", "ctxtui-dark"])
        # Before the real-token count arrives the line is shorter: wait for the count, then read.
        small.wait_for(
            lambda s: bool(re.search(r"budget 4,000 .*[\d,]+ o200k", (s.splitlines() or [""])[0])),
            "the real-token count",
            timeout=START_TIMEOUT,
        )
        status, _ = wait_status(small, lambda s: s.budget == 4000, "the fate counts in the status line", timeout=5)
        assert status == expected_status(4000)
