"""`q` ends ctxtui even while a load is stuck; ctrl+c still answers (it says how to quit, as Textual's apps do).

Loads run in thread workers, and Python waits for every such thread before a
process ends: a load that never returns (a hostile input that hangs, a
network file system that does not answer) kept ctxtui running after `q` had
restored the terminal. The app now leaves at once when its screen has
closed. Runs the real app in a private tmux server, with `Session.load`
replaced by one that never returns.
"""

from __future__ import annotations

import sys

import pytest

from tests.conftest import NOW, write_context
from tests.e2e.terminal import TMUX, Terminal

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

STUCK = """
import sys, threading
from ctxtui.session import Session
def load(self, *args, **kwargs):
    print("STUCK LOAD", file=sys.stderr)
    threading.Event().wait()
Session.load = load
from ctxtui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_q_and_ctrl_c_during_a_load_that_never_ends(tmp_path):
    project = write_context(tmp_path / "p", {"TASKS.md": "# Tasks\n\n- [ ] one\n"})
    with Terminal(tmp_path) as term:
        term.start([sys.executable, "-c", STUCK, str(project), "--now", NOW.isoformat()])
        term.wait_for(lambda screen: "q Quit" in screen or None, "the screen (still loading)", timeout=30)
        term.send("C-c")
        term.wait_for(lambda screen: "to quit" in screen or None, "ctrl+c's hint", timeout=10, settle=False)
        term.send("q")
        assert term.wait_until_ended(timeout=10) == 0
