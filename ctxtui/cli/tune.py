"""`ctxtui tune`: show the `.ctxrc` change that saves some settings, and write it only with --write.

Comments, key order and unknown keys are kept; the write is atomic, keeps
the previous file as `.ctxrc.bak`, and touches no other file. Afterwards
`ctxtui pack` — and the real ctx — build the tuned packet.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ctxtui.cli.common import choose_packer
from ctxtui.cli.failures import UsageError
from ctxtui.engine.packers.ctx.knobs import BUDGET_KEY, KnobError, parse_settings
from ctxtui.engine.sources.ctxrc import parse_ctxrc
from ctxtui.engine.sources.ctxrc_edit import set_keys, unified_diff

CONFIG_FIELDS = {
    BUDGET_KEY: "token_budget",
    "task_budget_pct": "task_pct",
    "convention_budget_pct": "convention_pct",
    "tool": "tool",
}


def run(args: argparse.Namespace) -> int:
    project = Path(args.project).absolute()
    if not args.settings:
        raise UsageError("tune needs at least one --set KEY=VALUE")
    packer = choose_packer(args)
    try:
        changes = parse_settings(packer, list(args.settings))
    except KnobError as exc:
        raise UsageError(f"--set: {exc}") from None
    path = project / ".ctxrc"
    try:
        old = path.read_bytes().decode("utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read: {exc}") from None
    new = set_keys(old, changes)
    check = parse_ctxrc(new)
    for key, value in changes.items():
        if getattr(check, CONFIG_FIELDS[key]) != value:
            raise UsageError(f"{path}: the edited file would not read back {key} = {value!r}; nothing written")
    diff = unified_diff(old, new)
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
