"""The engine reads no clock outside its sources: a plan, an explanation, a scan is a function of its inputs.

Time bounds on long scans are the caller's (`ctxtui.deadline.stop_after`
builds the `should_stop` the engine polls). The sources are the engine's
edge with the world (files that change, databases that are busy) and may
wait or retry.
"""

from __future__ import annotations

import ast
from pathlib import Path

import ctxtui.engine

ENGINE = Path(ctxtui.engine.__file__).parent
CLOCK_MODULES = {"time"}
CLOCK_CALLS = {"now", "today", "utcnow", "monotonic", "perf_counter", "time", "process_time"}


def _clock_reads(path: Path, root: Path = ENGINE) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"import {alias.name}" for alias in node.names if alias.name in CLOCK_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module in CLOCK_MODULES:
            found.append(f"from {node.module} import …")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CLOCK_CALLS:
            owner = node.func.value
            name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
            if name in {"datetime", "date", "time", "_dt"}:
                found.append(f"{name}.{node.func.attr}()")
    return [f"{path.relative_to(root)}:{item}" for item in found]


def test_the_engine_outside_its_sources_reads_no_clock():
    modules = [p for p in ENGINE.rglob("*.py") if "sources" not in p.relative_to(ENGINE).parts]
    assert len(modules) > 50
    reads = [read for path in modules for read in _clock_reads(path)]
    assert reads == []


def test_the_check_sees_a_clock_read(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import time\nfrom datetime import datetime\nx = datetime.now()\n", encoding="utf-8")
    assert _clock_reads(probe, tmp_path) == ["probe.py:import time", "probe.py:datetime.now()"]
