"""`ctxtui STORE`: a memory store given alone opens through its own tool's packer, named in the status line."""

from __future__ import annotations

import pytest
from ctxtui.cli.parser import build_tui_parser

from tests.factories.shabka_dbs import bulk_store


def launched(monkeypatch, argv: list[str]):
    import ctxtui.tui.app as app_module
    from ctxtui.cli import tui as tui_launch

    opened = {}

    class FakeApp:
        def __init__(self, session, **kwargs):
            opened["session"] = session

        def run(self):
            opened["ran"] = True

    monkeypatch.setattr(app_module, "CtxtuiApp", FakeApp)
    args = build_tui_parser().parse_args(argv)
    assert tui_launch.run(args) == 0 and opened["ran"]
    return opened["session"]


def test_a_shabka_store_alone_opens_the_shabka_packer(tmp_path, monkeypatch):
    store = bulk_store(tmp_path / "shabka.db", 40)
    monkeypatch.chdir(tmp_path)
    session = launched(monkeypatch, [str(store), "--now", "2025-06-01T12:00:00Z"])
    assert session.db == store and session.label == "shabka.db"
    session.load()
    assert session.loaded is not None and session.loaded.packer.name == "shabka"


def test_a_directory_without_context_is_still_refused(tmp_path, monkeypatch):
    from ctxtui.cli.failures import UsageError

    with pytest.raises(UsageError, match="no .context/ directory"):
        launched(monkeypatch, [str(tmp_path)])


def test_a_cortex_store_alone_opens_with_an_empty_focus_and_says_so(tmp_path, monkeypatch):
    from tests.factories.cortex_v1 import build_v1_db, memory

    store = build_v1_db(tmp_path / "cortex.db", [memory(f"m{i}", "tribal", f"auth note {i}") for i in range(5)])
    monkeypatch.chdir(tmp_path)
    session = launched(monkeypatch, [str(store), "--now", "2025-06-01T12:00:00Z"])
    problems = session.load()
    assert session.loaded is not None and session.loaded.packer.name == "cortex"
    assert any("focus is empty" in p.message for p in problems)
