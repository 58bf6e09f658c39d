"""Changing settings in `.ctxrc` text the way a careful person would: each value's own span, the rest untouched.

`ctxtui tune` and the TUI's ctrl+s save knobs here. A key that is set gets
its value replaced where the YAML parser says it lies (`ctxrc_spans`: an
anchor on it kept, a trailing comment, the lines after it, a `---` and the
documents after the first untouched); a key that is not set is added at the
end of the first document (inside the braces of a flow mapping). Before
anything is written the edited text is read back as ctx reads it
(`parse_ctxrc`, both versions): the keys set read as set and every other
setting as before, or nothing is written. Pure text in, text out: the
caller shows the diff and writes (atomically) only when asked.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ctxtui.engine.sources.ctxrc_spans import Layout, SpanError, Value, layout

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


class CtxrcEditError(ValueError):
    """The change cannot be made safely (unreadable file, or it would not read back); the message says why."""


def set_keys(text: str, changes: Mapping[str, str | float | int]) -> str:
    """`text` with each top-level key in `changes` set to its value; `CtxrcEditError` when that cannot be done."""
    newline = "\r\n" if "\r\n" in text else "\n"
    try:
        found = layout(text)
    except SpanError as exc:
        raise CtxrcEditError(f"{exc}: fix it first") from None
    edits: list[tuple[int, int, str]] = []  # (start, end, new text), replaced from the last
    added: list[str] = []
    for key, value in changes.items():
        rendered = yaml_scalar(value)
        entries = [v for v in found.values if v.key == key]
        if len(entries) > 1:
            raise CtxrcEditError(f"sets {key} {len(entries)} times (ctx applies nothing from it): fix it first")
        if not entries:
            added.append(f"{key}: {rendered}")
            continue
        entry = entries[0]
        used = entry.anchors & found.aliased
        if used:
            name = sorted(used)[0]
            raise CtxrcEditError(
                f"the value of {key} is used elsewhere (its anchor &{name} has an alias *{name}): changing it "
                "would change that too; edit it by hand"
            )
        edits += _value_edit(text, entry, rendered)
    if added:
        edits.append(_addition(text, found, added, newline))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _value_edit(text: str, entry: Value, rendered: str) -> list[tuple[int, int, str]]:
    """The replacement of one value's span, its anchor kept; a value on the lines below moves up to its key."""
    start, end = entry.start, entry.end
    new = f"&{entry.anchor} {rendered}" if entry.anchor else rendered
    gap = text[entry.key_end : start]
    after_key = gap.lstrip(" \t")
    first_line = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    if ("\n" in gap or "\r" in gap) and after_key.startswith(":") and not text[first_line:start].strip():
        # `key:  # comment` then an indented block: `key: value  # comment`, the block's lines gone
        colon = entry.key_end + len(gap) - len(after_key)
        line_end = len(text) if (found := _next_break(text, end)) < 0 else found
        tail = text[end:line_end]
        stop = end if tail.strip() else line_end + (2 if text.startswith("\r\n", line_end) else 1)
        return [(colon + 1, colon + 1, " " + new), (first_line, min(stop, len(text)), "")]
    if start == end:  # an empty value: `key:` (and maybe a comment)
        before = text[:start].rstrip(" \t")
        if not before.endswith(":"):
            return [(start, end, ": " + new)]  # `{key}` in a flow mapping
        return [(start, end, new if text[start - 1 : start] in (" ", "\t") else " " + new)]
    return [(start, end, new)]


def _next_break(text: str, at: int) -> int:
    found = [i for i in (text.find("\n", at), text.find("\r", at)) if i >= 0]
    return min(found) if found else -1


def _addition(text: str, found: Layout, lines: list[str], newline: str) -> tuple[int, int, str]:
    """New `key: value` entries at the end of the first document (inside a flow mapping's braces)."""
    at = found.insert_at
    if found.kind == "flow":
        before = text[:at].rstrip()
        lead = "" if found.flow_open or before.endswith(",") else ", "
        return at, at, lead + ", ".join(lines)
    indent = " " * found.indent
    block = "".join(f"{indent}{line}{newline}" for line in lines)
    if at > 0 and text[at - 1] not in "\r\n":
        block = newline + block  # the last line had no line break
    return at, at, block


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


MAX_EDIT_BYTES = 1 << 20  # a .ctxrc is a few lines; ctxtui edits none over 1 MiB

# How each `--set` key reads back from a parsed .ctxrc (`CtxConfig` fields), to check an edit before writing.
CONFIG_FIELDS = {
    "token_budget": "token_budget",
    "task_budget_pct": "task_pct",
    "convention_budget_pct": "convention_pct",
    "tool": "tool",
}
_COMPARED = ("token_budget", "task_pct", "convention_pct", "tool", "steering_dir", "context_dir", "allow_outside_cwd")


@dataclass(frozen=True, slots=True)
class CtxrcChange:
    """A `.ctxrc` edit, planned: the file (as named in the project), its text now and after, the diff ("" when
    nothing changes), and whether it existed."""

    path: Path
    old: str
    new: str
    diff: str
    existed: bool = True

    @property
    def old_bytes(self) -> bytes:
        """What the file held when planned (b"" when there was none): a write checks it still does."""
        return self.old.encode("utf-8")


def plan_ctxrc_change(project: Path, changes: Mapping[str, str | float | int]) -> CtxrcChange:
    """What saving `changes` (validated `--set` values) to the project's `.ctxrc` would do; writes nothing.

    The file is read as any source is (a regular file, never blocking, bounded; a link is followed).
    """
    from ctxtui.engine.sources.files import FileTooBig, NotRegularFile, read_bytes_safely

    path = project / ".ctxrc"
    try:
        raw = read_bytes_safely(path, follow_symlinks=True, limit=MAX_EDIT_BYTES)
    except FileNotFoundError:
        raw = None
    except (NotRegularFile, FileTooBig) as exc:
        raise CtxrcEditError(f"{path}: {exc}; ctxtui edits only a regular file of settings; nothing written") from None
    except OSError as exc:
        raise CtxrcEditError(f"{path}: cannot read: {(exc.strerror or str(exc)).lower()}; nothing written") from None
    try:
        old = raw.decode("utf-8") if raw is not None else ""
    except UnicodeDecodeError:
        raise CtxrcEditError(
            f"{path}: cannot read: not valid UTF-8; ctxtui will not rewrite it; nothing written"
        ) from None
    try:
        new = set_keys(old, changes)
        check_reads_back(old, new, changes)
    except CtxrcEditError as exc:
        raise CtxrcEditError(f"{path}: {exc}; nothing written") from None
    return CtxrcChange(path, old, new, unified_diff(old, new), raw is not None)


def check_reads_back(old: str, new: str, changes: Mapping[str, str | float | int]) -> None:
    """`CtxrcEditError` unless ctx (both versions) reads `new` as `old` with `changes` set, and no new problem."""
    from ctxtui.engine.sources.ctxrc import parse_ctxrc

    for version in ("0.8.1", "0.8.0"):
        before, after = parse_ctxrc(old, version), parse_ctxrc(new, version)
        for key, value in changes.items():
            if version == "0.8.1" or key == "token_budget":
                if not _same(getattr(after, CONFIG_FIELDS[key]), value):
                    raise CtxrcEditError(f"the edited file would not read back {key} = {value!r}")
        for field in _COMPARED:
            if any(CONFIG_FIELDS[key] == field for key in changes):
                continue
            if not _same(getattr(after, field), getattr(before, field)):
                raise CtxrcEditError(f"the edit would also change what ctx {version} reads as {field}")
        known = {problem.message for problem in before.problems}
        for problem in after.problems:
            if problem.message not in known:
                raise CtxrcEditError(f"the edited file would not read cleanly: {problem.message}")


def _same(a: object, b: object) -> bool:
    return a == b or (a != a and b != b)  # NaN is NaN
