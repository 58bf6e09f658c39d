"""Emoji sequences in titles no longer shift the entries table's columns; odd required files are reported.

Rich 15 measures 👍🏽 as 2 cells, tmux 3.3a draws 4; ❤️ and 🏳️‍🌈 Rich 2, tmux 1;
a terminal without ZWJ support draws 👩‍💻 as 4. Every row after such a title
was shifted. Table cells now reduce each sequence to one code point every
terminal draws at one width (the packet, the preview and copies keep the
bytes). The e2e test reads a real tmux screen back and checks that the why
panel's edge "▏" sits in the same column on every row.
"""

from __future__ import annotations

import os
import unicodedata

import pytest
from ctxtui.cli import main
from ctxtui.tui.safe_text import steady_width
from rich.cells import cell_len

from tests.app.helpers import decision, make_app, settle, small_workspace, table
from tests.conftest import NOW
from tests.e2e.terminal import CTXTUI, TMUX, Terminal

SEQUENCES = {
    "woman technologist": "\U0001f469\u200d\U0001f4bb",
    "rainbow flag": "\U0001f3f3\ufe0f\u200d\U0001f308",
    "flag of France": "\U0001f1eb\U0001f1f7",
    "thumbs up, skin tone": "\U0001f44d\U0001f3fd",
    "family": "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466",
    "red heart": "\u2764\ufe0f",
    "keycap one": "1\ufe0f\u20e3",
    "flag of Scotland": "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
}
UNSTABLE = {
    0x200D,
    0xFE0E,
    0xFE0F,
    0x20E3,
    *range(0x1F3FB, 0x1F400),
    *range(0xE0020, 0xE0080),
    *range(0x1F1E6, 0x1F200),
}


def width(char: str) -> int:
    """A single code point's width as terminals (wcwidth) and Rich agree on it."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


@pytest.mark.parametrize("name", list(SEQUENCES))
def test_each_sequence_becomes_code_points_of_one_width(name):
    shown = steady_width(f"Ship {SEQUENCES[name]} today")
    assert not [c for c in shown if ord(c) in UNSTABLE], shown
    assert cell_len(shown) == sum(width(c) for c in shown)
    assert shown.startswith("Ship ") and shown.endswith(" today")


def test_text_that_is_not_an_emoji_sequence_is_kept():
    for text in (
        "plain ascii",
        "日本語",
        "e\u0301t\u00e9",
        "\u0915\u094d\u200d\u0937",
    ):  # an Indic conjunct keeps its ZWJ
        assert steady_width(text) == text
    assert steady_width("\U0001f1eb\U0001f1f7 launch") == "FR launch"


def emoji_workspace(root):
    titles = [f"Adopt {name} {seq} convention" for name, seq in SEQUENCES.items()]
    body = "".join(decision(f"2026-11-{10 + i:02d}-120000", title) for i, title in enumerate(titles))
    return small_workspace(root, **{"DECISIONS.md": "# Decisions\n" + body}), titles


@pytest.mark.asyncio
async def test_table_cells_hold_no_unstable_code_points_and_the_packet_keeps_them(tmp_path):
    project, titles = emoji_workspace(tmp_path / "proj")
    app = make_app(project, real_tokens=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        entries = table(app)
        shown = [row.title for row in entries.view_rows]
        assert len([t for t in shown if t.startswith("Adopt ")]) == len(titles)
        assert not [t for t in shown if any(ord(c) in UNSTABLE for c in t)]
        assert all(seq in app.main.view.markdown for seq in SEQUENCES.values())  # the packet is untouched


def screen_column(line: str, char: str) -> int | None:
    """Where `char` is drawn on a captured tmux line, in cells."""
    column = 0
    for c in line:
        if c == char:
            return column
        column += width(c)
    return None


@pytest.mark.e2e
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
@pytest.mark.skipif(not CTXTUI.exists(), reason=f"the ctxtui console script is not at {CTXTUI}")
def test_columns_line_up_in_a_real_terminal(tmp_path):
    project, _ = emoji_workspace(tmp_path / "proj")
    with Terminal(tmp_path / "term", width=160, height=45, env={"CTXTUI_IGNORE_REFUSAL": "1"}) as term:
        term.start([str(CTXTUI), str(project), "--now", NOW.strftime("%Y-%m-%dT%H:%M:%SZ")])
        screen = term.wait_for(lambda s: s if s.count("Adopt ") >= len(SEQUENCES) else None, "the emoji rows")
        screen = term.wait_quiet()
        rows = [line for line in screen.splitlines() if "Adopt " in line.split("▏", 1)[0]]
        plain = [line for line in screen.splitlines() if "Ship the parser" in line.split("▏", 1)[0]]
        assert len(rows) == len(SEQUENCES) and plain, screen
        edge = screen_column(plain[0], "▏")
        assert edge is not None
        shifted = {line.split("convention")[0]: screen_column(line, "▏") for line in rows}
        assert all(column == edge for column in shifted.values()), (edge, shifted)


# ---------------------------------------------------------------- required files that are not files


@pytest.mark.parametrize("name", ["TASKS.md", "CONSTITUTION.md", "DECISIONS.md"])
@pytest.mark.parametrize("kind", ["directory", "FIFO"])
def test_required_file_that_is_a_directory_or_fifo_is_reported(tmp_path, capsys, name, kind):
    """ctx's gate is os.Stat (passes), its loader skips a directory and blocks on a FIFO: ctxtui packs
    without it and says why, in pack, explain and the TUI."""
    project = small_workspace(tmp_path / "proj", **{name: None})
    target = project / ".context" / name
    target.mkdir() if kind == "directory" else os.mkfifo(target)
    assert main(["pack", str(project), "--now", NOW.isoformat()]) == 0
    err = capsys.readouterr().err
    assert f".context/{name}: is a {kind}" in err or f".context/{name}: is a FIFO" in err
    assert main(["explain", str(project), "--all", "--now", NOW.isoformat()]) == 0
    assert f".context/{name}" in capsys.readouterr().err


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["directory", "FIFO"])
async def test_tui_lists_a_tasks_file_that_is_not_a_file(tmp_path, kind):
    project = small_workspace(tmp_path / "proj", **{"TASKS.md": None})
    target = project / ".context" / "TASKS.md"
    target.mkdir() if kind == "directory" else os.mkfifo(target)
    app = make_app(project, real_tokens=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        assert app.main.view is not None
        assert any(".context/TASKS.md" in p for p in app.query_one("#banner").problems)
