"""No module of the product (ctxtui/) or of the test data factories is over 600 lines.

A module that long does more than one job; split it by job (see the README's
Development section). Lines as `wc -l` counts them.
"""

from __future__ import annotations

from tests.conftest import ROOT

LIMIT = 600


def test_no_module_over_600_lines():
    modules = [*(ROOT / "ctxtui").rglob("*.py"), *(ROOT / "tests" / "factories").rglob("*.py")]
    assert modules
    long = {str(path.relative_to(ROOT)): lines for path in modules if (lines := path.read_bytes().count(b"\n")) > LIMIT}
    assert not long, f"over {LIMIT} lines: {long}"
