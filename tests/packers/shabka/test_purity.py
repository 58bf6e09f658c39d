"""The Shabka packer is engine code: no Textual, no Rich; and naming its reasons does not load numpy."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


def loaded_after(module: str) -> set[str]:
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(done.stdout.split())


@pytest.mark.parametrize(
    "module",
    ["ctxtui.engine.packers.shabka.packer", "ctxtui.opening.shabka", "ctxtui.engine.sources.memory.shabka.store"],
)
def test_loads_neither_textual_nor_rich(module):
    assert not loaded_after(module) & {"textual", "rich"}


def test_reason_texts_stay_light():
    assert "numpy" not in loaded_after("ctxtui.engine.explain.reasons")
