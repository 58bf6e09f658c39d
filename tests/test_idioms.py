"""Issue 24 part 5: the plain-Python spellings stay (they came back in modules written after the first sweep)."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "ctxtui"


def test_type_checking_is_imported_from_typing():
    written = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "TYPE_CHECKING = False" in path.read_text(encoding="utf-8")
    ]
    assert written == []


def test_locks_come_from_threading():
    """`_thread`'s lock saved a cold pack the import of `threading` (~0.5 ms): not worth a reader's surprise."""
    written = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "from _thread import" in path.read_text(encoding="utf-8")
    ]
    assert written == []
