"""Changing settings in `.ctxrc` text the way a careful person would: one line each, the rest untouched.

`ctxtui tune` saves knobs here. Comments, blank lines, key order and keys
ctxtui does not know stay exactly as they were; a key that is set gets its
value replaced on its own line (a trailing comment kept), a key that is not
set is appended at the end. Pure text in, text out: the caller shows the
diff and writes (atomically) only when asked.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

_PLAIN = re.compile(r"[A-Za-z0-9_./][A-Za-z0-9_./ -]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~", ""}


def yaml_scalar(value: str | float | int) -> str:
    """`value` as a YAML scalar that reads back as the same type and value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    looks_typed = text.lower() in _YAML_WORDS or re.fullmatch(r"[-+.0-9eE_xXoObB]+", text) is not None
    if _PLAIN.fullmatch(text) and text == text.strip() and not looks_typed and ": " not in text and " #" not in text:
        return text
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def _key_line(key: str) -> re.Pattern[str]:
    # A top-level mapping key: no indentation, the key (bare or quoted), a colon.
    quoted = re.escape(key)
    return re.compile(rf"^(?:{quoted}|\"{quoted}\"|'{quoted}')[ \t]*:(?=[ \t]|$)")


def set_keys(text: str, changes: Mapping[str, str | float | int]) -> str:
    """`text` with each top-level key in `changes` set to its value."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline) if text else []
    trailing_newline = bool(text) and text.endswith(newline)
    if trailing_newline:
        lines = lines[:-1]
    for key, value in changes.items():
        pattern = _key_line(key)
        rendered = yaml_scalar(value)
        for index, line in enumerate(lines):
            match = pattern.match(line)
            if match is None:
                continue
            comment = _trailing_comment(line[match.end() :])
            lines[index] = f"{key}: {rendered}{comment}"
            # A block value (an indented list or mapping below the key) belongs to the old value.
            end = index + 1
            while end < len(lines) and lines[end][:1] in (" ", "\t", "-") and lines[end].strip():
                end += 1
            del lines[index + 1 : end]
            break
        else:
            lines.append(f"{key}: {rendered}")
    return newline.join(lines) + newline if lines else ""


def _trailing_comment(rest: str) -> str:
    """A ` # comment` after a plain value, kept; quotes are honoured so a '#' inside them is not a comment."""
    quote = None
    for index, ch in enumerate(rest):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (index == 0 or rest[index - 1] in " \t"):
            return "  " + rest[index:].rstrip()
    return ""


def unified_diff(old: str, new: str, name: str = ".ctxrc") -> str:
    """The change as a unified diff ("" when there is none)."""
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"{name} (now)",
            tofile=f"{name} (tuned)",
        )
    )


# How each `--set` key reads back from a parsed .ctxrc (`CtxConfig` fields), to check an edit before writing.
CONFIG_FIELDS = {
    "token_budget": "token_budget",
    "task_budget_pct": "task_pct",
    "convention_budget_pct": "convention_pct",
    "tool": "tool",
}


class CtxrcEditError(ValueError):
    """The change cannot be made safely (unreadable file, or it would not read back); the message says why."""


@dataclass(frozen=True, slots=True)
class CtxrcChange:
    """A `.ctxrc` edit, planned: the file, its text now and after, and the diff ("" when nothing changes)."""

    path: Path
    old: str
    new: str
    diff: str


def plan_ctxrc_change(project: Path, changes: Mapping[str, str | float | int]) -> CtxrcChange:
    """What saving `changes` (validated `--set` values) to the project's `.ctxrc` would do; writes nothing."""
    from ctxtui.engine.sources.ctxrc import parse_ctxrc

    path = project / ".ctxrc"
    try:
        old = _read_ctxrc_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise CtxrcEditError(f"{path}: cannot read: {exc}") from None
    new = set_keys(old, changes)
    check = parse_ctxrc(new)
    for key, value in changes.items():
        if getattr(check, CONFIG_FIELDS[key]) != value:
            raise CtxrcEditError(f"{path}: the edited file would not read back {key} = {value!r}; nothing written")
    return CtxrcChange(path, old, new, unified_diff(old, new))


def _read_ctxrc_text(path: Path) -> str:
    """The `.ctxrc` to edit ("" when there is none), read as every file is read (`read_bytes_safely`)."""
    from ctxtui.engine.sources.files import MAX_CONFIG_BYTES, read_bytes_safely

    try:
        return read_bytes_safely(path, follow_symlinks=True, limit=MAX_CONFIG_BYTES).decode("utf-8")
    except FileNotFoundError:
        return ""
