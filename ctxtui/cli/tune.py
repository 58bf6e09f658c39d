"""`ctxtui tune`: show the `.ctxrc` change that saves some settings, and write it only with --write.

Only the values set change (comments, key order, other documents and
unknown keys are kept); the write is atomic, says which file it writes (the
file `.ctxrc` links to, when it is a link: the link stays) and where the
previous content is kept (`.ctxrc.bak`, never over a file ctxtui did not
write), and touches no other file (`ctxtui.opening.ctxrc_save`). Afterwards
`ctxtui pack` — and the real ctx — build the tuned packet.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ctxtui.cli.common import UsageError, choose_packer, request_from_args
from ctxtui.engine.packers.ctx.knobs import KnobError, parse_settings
from ctxtui.opening.ctxrc_save import CtxrcEditError, TargetChanged, WriteRefused, plan_save, save
from ctxtui.safe_text import clean_block, clean_line


def run(args: argparse.Namespace) -> int:
    project = Path(args.project).absolute()
    if not args.settings:
        raise UsageError("tune needs at least one --set KEY=VALUE")
    packer = choose_packer(args)
    try:
        changes = parse_settings(packer, list(args.settings))
    except KnobError as exc:
        raise UsageError(f"--set: {exc}") from None
    request = request_from_args(os.fspath(project), args)
    try:
        plan = plan_save(project, changes, request)
    except (CtxrcEditError, WriteRefused) as exc:
        raise UsageError(str(exc)) from None
    if not plan.change.diff:
        print(".ctxrc already says that: nothing to change")
        return 0
    # The diff quotes the file: escape sequences in it are shown, not run, on a terminal.
    sys.stdout.write(clean_block(plan.change.diff) if sys.stdout.isatty() else plan.change.diff)
    kept = f", and {plan.kept}" if plan.kept else ""
    if not args.write:
        print()
        print(clean_line(f"(not written: add --write to write it to {plan.where}{kept})"))
        return 0
    try:
        done = save(plan, changes)
    except TargetChanged as exc:
        raise UsageError(f"{exc}: run tune again to see the change against it") from None
    except (CtxrcEditError, WriteRefused) as exc:
        raise UsageError(str(exc)) from None
    verb = "wrote" if done.change.existed else "created"
    kept = f"; {done.kept}" if done.kept else ""
    print()
    print(clean_line(f"{verb} {done.where}{kept}"))
    return 0
