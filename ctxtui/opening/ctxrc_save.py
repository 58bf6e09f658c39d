"""Saving settings to `.ctxrc` (`tune --write`, the TUI's ctrl+s): what is written where, said before and after.

- The file written is `.ctxrc`, or, when `.ctxrc` is a symbolic link (dotfile
  managers link config files), the file it points to: replaced atomically in
  its own folder, so the link stays a link. The messages name both.
- The previous content is kept beside the name the user knows, in the
  project: `.ctxrc.bak`, a regular file whose first line says ctxtui wrote it
  (`BACKUP_MARK`). A `.ctxrc.bak` that is not ctxtui's (no mark, a link, a
  folder) is never replaced or followed: `.ctxrc.bak.1` … `.ctxrc.bak.9` is
  used instead, and the message says so. Nothing is ever written beside the
  link's target.
- Nothing is written through a link into a source (`.context/`, the steering
  folder...), over a read-only `.ctxrc` (its mode and owner are kept
  otherwise), over a `.ctxrc` with other hard links (replacing it would split
  them), or over an edit made since the change was planned (`save` raises
  `TargetChanged`: plan again and show the new diff).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ctxtui.engine.sources.ctxrc_edit import CtxrcChange, CtxrcEditError, plan_ctxrc_change
from ctxtui.opening.request import PackRequest
from ctxtui.opening.sources import source_paths
from ctxtui.safe_write import (
    TargetChanged,
    WriteRefused,
    check_target,
    os_error_words,
    refuse_read_only,
    replace_in,
    write_atomically,
)

__all__ = ["BACKUP_MARK", "CtxrcEditError", "SavePlan", "TargetChanged", "WriteRefused", "plan_save", "save"]

BACKUP_MARK = "# ctxtui: .ctxrc as it was before ctxtui saved settings to it; the next save replaces this file\n"
BACKUP_NAMES = (".ctxrc.bak", *(f".ctxrc.bak.{n}" for n in range(1, 10)))
_BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class SavePlan:
    """A `.ctxrc` change and where it goes: the file written, the backup, the backups passed over."""

    change: CtxrcChange
    target: Path  # `.ctxrc`, or the file it links to
    backup: Path | None  # None: there is no previous content to keep
    passed_over: tuple[Path, ...]  # backup names held by files ctxtui did not write
    sources: tuple[str, ...]  # what the write must stay out of

    @property
    def where(self) -> str:
        """The file written, in words: the link is named when there is one."""
        link = self.change.path
        if self.target != link:
            return f"{self.target} (the file {link} links to; the link stays)"
        return str(link)

    @property
    def kept(self) -> str:
        """Where the previous content goes, in words ("" when there is none)."""
        if self.backup is None:
            return ""
        text = f"the previous content is kept in {self.backup}"
        if self.passed_over:
            names = ", ".join(str(p) for p in self.passed_over)
            text += f" ({names} {'is' if len(self.passed_over) == 1 else 'are'} not ctxtui's: left alone)"
        return text


def plan_save(project: Path, changes: Mapping[str, str | float | int], request: PackRequest | None = None) -> SavePlan:
    """The change and where it would go; raises `CtxrcEditError` or `WriteRefused` (in words) when it cannot."""
    change = plan_ctxrc_change(project, changes)
    sources = tuple(source_paths(request or PackRequest(project=str(project)), ctxrc=False))
    target = check_target(change.path, sources=sources, settings=True)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise WriteRefused(f"{change.path}: {os_error_words(exc)}") from None
    if info is not None:
        refuse_read_only(info, str(change.path), writable=os.access(target, os.W_OK))
        if info.st_nlink > 1:  # a rename would leave the other names with the old settings
            raise WriteRefused(
                f"{change.path}: is one of {info.st_nlink} hard links to the same file; ctxtui replaces files "
                "whole, which would split it from the others: edit it by hand, or make .ctxrc a symbolic link"
            )
    backup, passed_over = _backup_name(change.path.parent) if change.existed else (None, ())
    return SavePlan(change, target, backup, passed_over, sources)


def save(plan: SavePlan, changes: Mapping[str, str | float | int]) -> SavePlan:
    """Keep the previous content, then write the change; `TargetChanged` when `.ctxrc` changed since `plan`.

    Returns the plan as carried out (the backup name is chosen again: a file may have taken it meanwhile).
    """
    change = plan.change
    now = plan_ctxrc_change(change.path.parent, changes)
    if now.old != change.old or now.existed != change.existed:
        raise TargetChanged(f"{change.path}: changed since the change was planned; nothing written")
    backup, passed_over = _backup_name(change.path.parent) if change.existed else (None, ())
    if backup is not None:
        check_target(backup, sources=plan.sources, settings=True)
        _write_backup(backup, change.old, plan.target)
    data = change.new.encode("utf-8")
    write_atomically(change.path, data, sources=plan.sources, expect=change.old_bytes, settings=True)
    return SavePlan(change, plan.target, backup, passed_over, plan.sources)


def _backup_name(folder: Path) -> tuple[Path, tuple[Path, ...]]:
    """The first backup name that is free or ctxtui's own, and the names before it held by other files."""
    passed: list[Path] = []
    for name in BACKUP_NAMES:
        path = folder / name
        owner = _is_ours(path)
        if owner is None or owner:
            return path, tuple(passed)
        passed.append(path)
    raise WriteRefused(
        f"{folder / BACKUP_NAMES[0]} to {BACKUP_NAMES[-1]} are all files ctxtui did not write: it keeps no "
        "backup over them; move one away"
    )


def _is_ours(path: Path) -> bool | None:
    """None when `path` does not exist; True when it is a regular file starting with `BACKUP_MARK`."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode):
        return False
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False
    try:
        head = os.read(fd, len(_BOM.encode()) + len(BACKUP_MARK.encode()))
    except OSError:
        return False
    finally:
        os.close(fd)
    return head.removeprefix(_BOM.encode()).startswith(BACKUP_MARK.encode())


def _write_backup(path: Path, old: str, target: Path) -> None:
    """`old`, marked as ctxtui's, to `path`: created new, or replacing ctxtui's own backup (checked again now)."""
    bom = _BOM if old.startswith(_BOM) else ""
    data = (bom + BACKUP_MARK + old.removeprefix(_BOM)).encode("utf-8")
    ours = _is_ours(path)
    if ours is False:
        raise WriteRefused(f"{path}: was replaced by a file ctxtui did not write; nothing written")
    try:
        like = os.stat(target)  # the backup gets the settings file's mode and owner
    except OSError as exc:
        raise WriteRefused(f"{target}: {os_error_words(exc)}") from None
    label = f"{path} (the backup)"
    try:
        folder = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise WriteRefused(f"{label}: {os_error_words(exc)}") from None
    try:
        replace_in(folder, path.name, data, like, label, exclusive=ours is None)
    finally:
        os.close(folder)
