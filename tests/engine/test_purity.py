"""The engine and the headless CLI never load Textual or Rich (proven in a fresh interpreter)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

MODULES = [
    "ctxtui.engine",
    "ctxtui.engine.packers.ctx.assemble",
    "ctxtui.engine.sources.context",
    "ctxtui.engine.packers.ctx.render",
    "ctxtui.engine.explain",
    "ctxtui.engine.explain.quirks",
    "ctxtui.engine.sources.workspace",
    "ctxtui.engine.sources.ctxrc",
    "ctxtui.cli",
]


@pytest.mark.parametrize("module", MODULES)
def test_engine_module_loads_neither_textual_nor_rich(module):
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')); "
        "print(','.join(bad)); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, f"{module} loaded: {result.stdout}{result.stderr}"


def test_headless_commands_load_neither(tmp_path):
    (tmp_path / ".context").mkdir()
    (tmp_path / ".context" / "TASKS.md").write_text("- [ ] one task to do\n")
    code = (
        "import sys; from ctxtui.cli import main; main(['pack', sys.argv[1], '-o', sys.argv[2]]); "
        "main(['sweep', sys.argv[1], '--to', '500', '--step', '250']); main(['explain', sys.argv[1], 'one']); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), str(tmp_path / "out.md")], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
