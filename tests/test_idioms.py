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
