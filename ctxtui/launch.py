"""The installed `ctxtui` command: `ctxtui.cli.main`, started and ended the quick way for a one-shot `pack`.

A cold `ctxtui pack` races the Go `ctx agent` (issue 11), and two costs of a
Python process are no part of its work (measured on ctx-large, ~80 ms in all):

- the cyclic garbage collector runs while some hundred modules are imported
  (their functions, classes and dataclasses are acyclic or live for the whole
  process) and finds nothing to free: ~4 ms. It is paused while the CLI is
  imported, and for the whole of `pack`, which builds one packet and exits;
  every other command runs with it on again.
- the interpreter's teardown frees every object of the workspace and every
  module one by one: ~10 ms, more with 50,000 memories. Once `pack` has
  written its packet and flushed stdout and stderr, it leaves with
  `os._exit`. Not when a PostgreSQL driver is loaded (a nous store's
  connection is closed the polite way), nor when the flush fails (a closed
  pipe gets Python's own handling).

Tests call `ctxtui.cli.main` in-process (and `python -m ctxtui.cli` runs it
too): only this entry point takes these shortcuts.
"""

from __future__ import annotations

import gc
import os
import sys


def main() -> int:
    argv = sys.argv[1:]
    one_shot = argv[:1] == ["pack"]
    gc.disable()
    try:
        from ctxtui.cli import main as run
    finally:
        if not one_shot:
            gc.enable()
    status = run(argv)
    if one_shot:
        gc.enable()
        if "psycopg" not in sys.modules:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except (OSError, ValueError):
                return status
            os._exit(status)
    return status
