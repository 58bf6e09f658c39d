"""A cold `ctxtui pack` of a ctx packet loads only what it needs (issue 11: it races the Go `ctx agent`).

Each of these standard-library modules costs a fresh interpreter milliseconds
to import on this project's machine (`pathlib` pulls in `urllib.parse` and `ipaddress`; `datetime` runs a
pure-Python copy of every class before taking the C module's); the
pack path has no use for them. Run as the installed command runs, in a fresh
interpreter, on a small workspace.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

NOW = "2026-11-21T23:56:08Z"
NOT_ON_THE_PACK_PATH = (
    "argparse",
    "gettext",
    "locale",
    "datetime",  # its pure-Python twin runs before the C module replaces it: `engine/datetimes.py`
    "math",  # extension modules, each loaded from its own shared library: ~0.1-0.15 ms
    "array",
    "bisect",
    "_bisect",
)
# On the path since issue 24 (part 5): `typing` (TYPE_CHECKING imported as Python code writes it, and
# `typing.NamedTuple` for the records) and what it loads (re, enum, functools, collections, operator, types,
# contextlib), ctx's patterns as regexes. Not `dataclasses`: importing it (with inspect, ast, dis, tokenize)
# and making the pack path's ~22 records as dataclasses cost a cold pack ~57 ms on this machine, 2.3x the Go
# binary on ctx-dogfood (docs/performance.md, "The engine's records"); the records a pack makes are
# NamedTuples and plain slotted classes.
ON_THE_PACK_PATH_NOW = ("typing", "re")
NOT_ON_THE_PACK_PATH_NOW = ("dataclasses", "inspect", "ast", "dis", "tokenize")

# `compile()` is counted: a string annotation on a NamedTuple's field is compiled (`typing.ForwardRef`), and
# the process's first `compile()` builds every class of the `ast` module: ~2.5 ms of a cold pack here.
CODE = (
    "import builtins, os, sys\n"
    "compiled = []\n"
    "real_compile = builtins.compile\n"
    "def counting_compile(source, filename, *args, **kwargs):\n"
    "    if not str(filename).endswith('.py'):  # a module's source, compiled when it has no bytecode\n"
    "        compiled.append(str(source)[:60])\n"
    "    return real_compile(source, filename, *args, **kwargs)\n"
    "builtins.compile = counting_compile\n"
    "from ctxtui.cli import main\n"
    "sys.stdout = open(os.devnull, 'w')\n"
    "status = main(sys.argv[1:])\n"
    "sys.stderr.write(repr((status, sorted(sys.modules), compiled)))\n"
)


def _loaded(project, *args: str) -> tuple[int, set[str], list[str]]:
    env = {**os.environ, "TZ": "UTC"}
    env.pop("CTXTUI_PACKER", None)
    done = subprocess.run(
        [sys.executable, "-c", CODE, "pack", str(project), "--budget", "4000", "--now", NOW, *args],
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        text=True,
    )
    status, modules, compiled = ast.literal_eval(done.stderr.strip().splitlines()[-1])
    return status, set(modules), compiled


@pytest.mark.parametrize("extra", [(), ("--packer", "ctx-0.8.1")])
def test_pack_imports_none_of_the_slow_modules(tmp_path, extra):
    (tmp_path / ".context").mkdir()
    (tmp_path / ".context" / "TASKS.md").write_text("- [ ] one task to do\n")
    (tmp_path / ".context" / "DECISIONS.md").write_text("# D\n\n## [2026-11-01-120000] Use SQLite\n\nBecause.\n")
    (tmp_path / ".git").mkdir()
    status, modules, compiled = _loaded(tmp_path, *extra)
    assert status == 0
    assert compiled == []  # no string annotation on a record's field, no eval of source text
    assert not modules & set(NOT_ON_THE_PACK_PATH)
    assert not modules & set(NOT_ON_THE_PACK_PATH_NOW)
    assert modules >= set(ON_THE_PACK_PATH_NOW)  # when they go again, this list and the docstring follow
    assert not {m for m in modules if m.split(".")[0] in ("textual", "rich", "numpy", "psycopg")}
    # Outcomes, packet orders and next changes serve the TUI and explain, not a packet.
    # The reasons, too (an enum of 19 members), and the numbers behind a reason (6 NamedTuple classes).
    assert not modules & {
        f"ctxtui.engine.packers.ctx.{name}" for name in ("outcomes", "lazy", "order", "changes", "reason")
    }
    assert "ctxtui.engine.reason_numbers" not in modules
