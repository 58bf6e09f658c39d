"""The nous engine modules load neither Textual nor Rich, and only the store (nous_store, through nous_source) loads psycopg, on first use."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

PURE = [
    "ctxtui.engine.packers.nous.packer",
    "ctxtui.engine.packers.nous.build",
    "ctxtui.engine.explain.reasons",
    "ctxtui.engine.sources.memory.nous.model",
    "ctxtui.engine.sources.memory.nous.turn_sql",
    "ctxtui.engine.sources.memory.nous.memory_sql",
    "ctxtui.engine.sources.memory.shared.urls",
    "ctxtui.cli.turns",
    "ctxtui.opening.nous",
    "ctxtui.turns_session",
]


@pytest.mark.parametrize(
    "module", [*PURE, "ctxtui.engine.sources.memory.nous.store", "ctxtui.engine.sources.memory.nous.source"]
)
def test_no_textual_no_rich(module):
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')); "
        "print(','.join(bad)); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, f"{module} loaded: {result.stdout}{result.stderr}"


@pytest.mark.parametrize("module", PURE)
def test_no_psycopg_outside_the_store(module):
    code = f"import sys, importlib; importlib.import_module({module!r}); sys.exit(1 if 'psycopg' in sys.modules else 0)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
