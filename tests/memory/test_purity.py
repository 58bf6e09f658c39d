"""The memory package is engine code: no Textual or Rich, and no clock reads."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import ctxtui.engine.sources.memory as package

ROOT = Path(package.__file__).resolve().parents[3]
SOURCES = sorted(Path(package.__file__).parent.glob("*.py"))


def test_importing_loads_neither_textual_nor_rich():
    code = (
        "import sys, ctxtui.engine.sources.memory, tests.factories.memory_dbs; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')); "
        "print(','.join(bad)); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_clock_reads():
    clock = re.compile(
        r"\b(datetime\.now|datetime\.utcnow|date\.today|time\.time|time\.monotonic|"
        r"time\.perf_counter|time\.localtime|time\.gmtime)\s*\("
    )
    offenders = [
        f"{path.name}:{n}"
        for path in SOURCES
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if clock.search(line)
    ]
    assert SOURCES and offenders == []
