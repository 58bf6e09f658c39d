"""`ctxtui tune`: show the `.ctxrc` change that saves some settings, and write it only with --write.

Comments, key order and unknown keys are kept; the write is atomic, keeps
the previous file as `.ctxrc.bak`, and touches no other file. Afterwards
`ctxtui pack` — and the real ctx — build the tuned packet.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ctxtui.cli.common import UsageError, choose_packer
from ctxtui.engine.packers.ctx.knobs import KnobError, parse_settings
from ctxtui.engine.sources.ctxrc_edit import CtxrcEditError, plan_ctxrc_change


def run(args: argparse.Namespace) -> int:
    project = Path(args.project).absolute()
    if not args.settings:
        raise UsageError("tune needs at least one --set KEY=VALUE")
    packer = choose_packer(args)
    try:
        changes = parse_settings(packer, list(args.settings))
    except KnobError as exc:
        raise UsageError(f"--set: {exc}") from None
    try:
        change = plan_ctxrc_change(project, changes)
    except CtxrcEditError as exc:
        raise UsageError(str(exc)) from None
    path, old, new, diff = change.path, change.old, change.new, change.diff
    if not diff:
        print(".ctxrc already says that: nothing to change")
        return 0
    sys.stdout.write(diff)
    if not args.write:
        print("\n(not written: add --write to save it; the previous .ctxrc is kept as .ctxrc.bak)")
        return 0
    from ctxtui.safe_write import WriteRefused, write_atomically

    try:
        write_atomically(path, new.encode("utf-8"), backup_suffix=".bak")
    except WriteRefused as exc:
        raise UsageError(str(exc)) from None
    kept = " (the previous one is .ctxrc.bak)" if old else ""
    print(f"\nwrote {path}{kept}")
    return 0
