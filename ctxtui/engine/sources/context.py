"""Read a project's `.context/` directory the way ctx 0.8.1 does, quirks included.

Every rule here mirrors the spec (`ctx-agent-0.8.1.md`, "Inputs" and
"Parsing"). Each pattern is defined once: ctx's constitution bug came from the
same pattern compiled twice with different flags, and we reproduce it on
purpose, by name, below. Nothing here raises on bad input: unreadable files
become `Problem`s and the rest of the packet is still built.
"""

import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from ctxtui.engine.model import Entry, Problem
from ctxtui.engine.sources.files import FileTooBig, NotRegularFile, kind_of, read_bytes_safely
from ctxtui.engine.sources.fspath import PathText, join
from ctxtui.engine.sources.identity import Keys
from ctxtui.engine.sources.steering import SteeringRead, read_steering, steering_candidates
from ctxtui.engine.sources.task_list import TASK_PREFIX, TaskList
from ctxtui.engine.text.go import GO_SPACE, RE_WS, decode, go_trim, utf8_len
from ctxtui.engine.text.tokens import estimate

READ_ORDER = (
    "CONSTITUTION.md",
    "TASKS.md",
    "CONVENTIONS.md",
    "ARCHITECTURE.md",
    "DECISIONS.md",
    "LEARNINGS.md",
    "GLOSSARY.md",
    "AGENT_PLAYBOOK.md",
)

CONVENTION_SCAN_LIMIT = 1000
# Conventions past the scan limit listed one by one (each a dropped entry); the rest are counted in a problem.
# ctx never reads them, so no packet depends on them, and a file of 10 MB of "-" lines (2.5 million bullets)
# would otherwise cost an entry each: 80 times the file in memory (issue 20, medium 17).
SKIPPED_LISTED = 1000

_CHECKBOX = "^(" + RE_WS + "*)-" + RE_WS + r"*\[([x ]?)\]" + RE_WS + "*(.+)"


def task_pattern() -> re.Pattern[str]:
    """ctx's task pattern itself, for tests and benches: `checkbox_lines` finds its matches in linear time."""
    return re.compile(_CHECKBOX + "$", re.M)


# ctx's other patterns, as ctx writes them (RE2's ASCII `\s` written out as RE_WS):
# - a convention bullet, `(?m)^-\s*(.+)$`: `_CONVENTION` (linear in Python's engine too: a run the
#   bullet cannot end in is newlines only, each tried once);
# - a decision or learning header, `## \[([0-9]{4}-[0-9]{2}-[0-9]{2})-([0-9]{6})\] (.+)`, searched in
#   each line: `_ENTRY_HEADER`;
# - quirk 1, the checkbox pattern applied to CONSTITUTION.md without (?m) (^ and $ the ends of the whole
#   text; Go's $ is \Z): matched by a scan, `constitution_rule`, which a hypothesis test holds to the
#   pattern. Python's backtracking engine is quadratic on it where RE2 is linear: `- [x]` and 20,000
#   spaces before a newline took 2.1 s (10,000: 0.58 s; the scan: 1.7 ms), so a hostile CONSTITUTION.md
#   of a megabyte would hang every load.
_CONVENTION = re.compile(r"(?m)^-" + RE_WS + r"*(.+)$")
SUPERSEDED_PREFIX = "~~Superseded"


class ContextFiles:
    """What ctx read from `.context/`: decoded text of each top-level .md file.

    Filled in as the files are read: a plain class with `__slots__` (the values on a cold `pack`'s path are
    NamedTuples, what is filled in plain classes: no `dataclasses` import, docs/performance.md).
    """

    __slots__ = ("root", "label", "texts", "problems", "steering")

    def __init__(
        self,
        root: str,
        label: str = ".context",
        texts: dict[str, str] | None = None,
        problems: list[Problem] | None = None,
        steering: SteeringRead | None = None,
    ) -> None:
        self.root = root  # the project directory
        self.label = label  # the context directory as ctx names it (0.8.0 takes --context-dir)
        self.texts: dict[str, str] = {} if texts is None else texts
        self.problems: list[Problem] = [] if problems is None else problems
        self.steering = steering

    @property
    def steering_error(self) -> Problem | None:
        """Quirk 9: one bad steering file disables all steering."""
        return self.steering.error if self.steering is not None else None


class ParsedContext(NamedTuple):
    """Every candidate the packet can draw on, parsed once per load."""

    files: ContextFiles
    read_order_names: list[str]
    constitution: list[str] | None  # what ctx parses (quirk 1: almost always [])
    constitution_candidates: list[Entry]  # every checkbox rule a human would see
    tasks: Sequence[Entry]  # a TaskList: entries made when read
    conventions: list[Entry]
    conventions_skipped: list[Entry]  # past the 1000-bullet scan limit
    decisions: list[Entry]
    learnings: list[Entry]
    steering: list[Entry]  # every steering file, in ctx's order for the "always" ones
    steering_fates: dict[str, str]  # key → "always" or a Reason value
    problems: list[Problem]


class ContextMissing(Exception):
    """The project has no readable `.context/` directory."""


def read_context_files(project: PathText, label: str = ".context", steering_dir: str = "") -> ContextFiles:
    """Read the regular `*.md` files directly inside the context directory, and steering.

    `label` is the context directory as ctx is told it, relative to the
    project (or absolute): ".context" unless ctx 0.8.0's --context-dir says otherwise.
    """
    context_dir = join(project, label)
    try:
        names = sorted(os.listdir(context_dir))
    except FileNotFoundError:
        raise ContextMissing(f"no .context/ directory in {project}") from None
    except NotADirectoryError:
        raise ContextMissing(f"{context_dir} is not a directory") from None
    except OSError as exc:
        raise ContextMissing(f"cannot read {context_dir}: {exc.strerror or exc}") from None

    files = ContextFiles(root=os.fspath(project), label=label)
    for name in names:
        if not name.endswith(".md"):
            continue
        path = os.path.join(context_dir, name)
        text = _read_regular(path, f"{label}/{name}", files.problems)
        if text is not None:
            files.texts[name] = text
    files.steering = read_steering(project, steering_dir)
    files.problems.extend(files.steering.problems)
    return files


def _read_regular(path: str, label: str, problems: list[Problem]) -> str | None:
    """The file's text, or None (with a Problem) when ctx would not or we cannot read it."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        problems.append(Problem(label, "vanished while being read"))
        return None
    except OSError as exc:
        problems.append(Problem(label, f"cannot stat: {exc.strerror or exc}"))
        return None
    if stat.S_ISLNK(info.st_mode):
        problems.append(Problem(label, "is a symbolic link: ctx reads only regular files, so it is skipped"))
        return None
    if stat.S_ISDIR(info.st_mode):
        problems.append(Problem(label, "is a directory: ctx skips it"))
        return None
    if not stat.S_ISREG(info.st_mode):
        problems.append(Problem(label, f"is {kind_of(info.st_mode)}: ctx would wait on it for ever; ctxtui skips it"))
        return None
    try:
        data = read_bytes_safely(path)
    except FileNotFoundError:
        problems.append(Problem(label, "vanished while being read"))
        return None
    except (NotRegularFile, FileTooBig) as exc:
        problems.append(Problem(label, f"{exc}: not read"))
        return None
    except OSError as exc:
        problems.append(Problem(label, f"cannot read: {exc.strerror or exc}"))
        return None
    if b"\x00" in data[:8192]:
        problems.append(Problem(label, "looks binary (NUL bytes): read as text anyway, as ctx does"))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        problems.append(Problem(label, "is not valid UTF-8: invalid bytes are kept as they are", line))
        return decode(data)


def is_effectively_empty(text: str) -> bool:
    """ctx's test for a file that only has a template in it.

    Lines are taken one at a time, not split all at once: the test usually
    ends at the first lines, and a 170 KB TASKS.md would be split whole for
    nothing. A text of 20 characters has at least 20 bytes in UTF-8.
    """
    if len(text) < 20 and utf8_len(text) < 20:
        return True
    start = 0
    while start >= 0:
        end = text.find("\n", start)
        line = go_trim(text[start:] if end < 0 else text[start:end])
        start = end if end < 0 else end + 1
        if not line or line.startswith("#") or line.startswith("<!--") or line.endswith("-->"):
            continue
        if line.startswith("-") and utf8_len(line) < 5:
            continue
        return False
    return True


_WS = frozenset("\t\n\f\r ")


# ctx's task pattern `(?m)^(\s*)-\s*\[([x ]?)\]\s*(.+)$` (`_CHECKBOX`) with one change that keeps its matches and makes
# Python's engine linear: the blanks before "-" do not cross a line. As ctx writes it, `^\s*` starts at every
# line start of a run of blank lines and scans the rest of the run before failing (quadratic: 48 s on 100 KB
# of blank lines). The match is the same: `\s*` then "-" can only end at the "-" that follows the run, so
# starting at that "-"'s own line finds the same groups (a hypothesis test holds it to ctx's pattern). The
# pattern after a newline starts with that literal, which the engine looks for with a fast search instead
# of trying every position: 0.6 ms on ctx-dogfood's 171 KB TASKS.md (the earlier hand-written scan: 1.7-2.9).
_TASK_REST = r"[\t\f\r ]*-" + RE_WS + r"*\[([x ]?)\]" + RE_WS + "*(.+)$"
_TASK_AT_START = re.compile(_TASK_REST, re.M)  # matched at offset 0 only
_TASK_AFTER_NEWLINE = re.compile(r"\n" + _TASK_REST, re.M)


class CheckboxMatch:
    """One match of ctx's checkbox pattern: the box and group 3 (the text), with its offset."""

    __slots__ = ("box", "start", "text")

    def __init__(self, box: str, start: int, text: str) -> None:
        self.box, self.start, self.text = box, start, text


def _box_after(text: str, dash: int) -> tuple[str, int, int] | None:
    """From the "-" at `dash`: `[ws]*\\[([x ]?)\\][ws]*` (ws: tab, newline, form feed, CR, space), each run
    maximal. (box, where the run after "]" starts, where it ends), or None when there is no box."""
    n = len(text)
    p = dash + 1
    while p < n and text[p] in _WS:
        p += 1
    if p >= n or text[p] != "[":
        return None
    p += 1
    if p + 1 < n and text[p] in "x " and text[p + 1] == "]":
        box, p = text[p], p + 2
    elif p < n and text[p] == "]":
        box, p = "", p + 1
    else:
        return None
    run = p
    while p < n and text[p] in _WS:
        p += 1
    return box, run, p


def checkbox_lines(text: str) -> list[CheckboxMatch]:
    """Every match of ctx's task pattern (`task_pattern()`) in `text`, found in linear time (`iter_checkbox_lines`)."""
    return list(iter_checkbox_lines(text))


def iter_checkbox_lines(text: str) -> Iterator[CheckboxMatch]:
    """Every match of ctx's task pattern (`task_pattern()`) in `text`, in linear time, one at a time.

    The matches of `_TASK_AT_START` at the start of the text and of
    `_TASK_AFTER_NEWLINE` after it (see there). A match ends at the end of its
    text's line, so the next begins at that line's newline, as the next
    line start after a match of ctx's pattern. A generator: the parsers make
    each match an entry as it comes, so a file's matches are never all held at
    once.
    """
    position = 0
    first = _TASK_AT_START.match(text)
    if first is not None:
        yield CheckboxMatch(first.group(1), first.start(2), first.group(2))
        position = first.end()
    for match in _TASK_AFTER_NEWLINE.finditer(text, position):
        yield CheckboxMatch(match.group(1), match.start(2), match.group(2))


def constitution_rule(text: str) -> str | None:
    """Group 3 of the checkbox pattern matched against the whole text with `\\Z` at its end (quirk 1)."""
    n = len(text)
    dash = n - len(text.lstrip("\t\n\f\r "))  # the leading run, newlines included
    after = _box_after(text, dash) if dash < n and text[dash] == "-" else None
    if after is None:
        return None
    _, run, p = after
    if p < n:  # `(.+)\Z`: the rest of the text, which must hold no newline
        rest = text[p:]
        return None if "\n" in rest else rest
    # The run reaches the end: `.+` backtracks into it, to its last character unless that is a newline.
    return text[n - 1] if n > run and text[n - 1] != "\n" else None


def convention_bullets(text: str) -> list[tuple[int, str]]:
    """(offset, group 1) of every match of `(?m)^-[ws]*(.+)$` in order (`iter_convention_bullets`)."""
    return list(iter_convention_bullets(text))


def iter_convention_bullets(text: str) -> Iterator[tuple[int, str]]:
    """(offset, group 1) of every match of ctx's `(?m)^-\\s*(.+)$` in order, one at a time (a file of 10 MB
    of `-` lines is read as far as the scan limit, not listed whole)."""
    for match in _CONVENTION.finditer(text):
        yield match.start(), match.group(1)


# ctx's decision and learning header (quirk 10: found anywhere in a line), as ctx writes it.
_ENTRY_HEADER = re.compile(r"## \[([0-9]{4}-[0-9]{2}-[0-9]{2})-([0-9]{6})\] (.+)")


def entry_header(line: str) -> tuple[str, str] | None:
    """(date, title) of the first decision or learning header in a line (quirk 10: anywhere in it)."""
    found = entry_stamp(line)
    return None if found is None else (found[0][:10], found[1])


def entry_stamp(line: str) -> tuple[str, str] | None:
    """(YYYY-MM-DD-HHMMSS, title) of the first decision or learning header in a line: the entry's identity."""
    match = _ENTRY_HEADER.search(line)
    return None if match is None else (f"{match.group(1)}-{match.group(2)}", match.group(3))


class LineNumbers:
    """Offset → 1-based line number, without rescanning the text for every match."""

    def __init__(self, text: str):
        self._text = text
        self._offset = 0
        self._line = 1

    def __call__(self, offset: int) -> int:
        if offset < self._offset:
            self._offset, self._line = 0, 1
        self._line += self._text.count("\n", self._offset, offset)
        self._offset = offset
        return self._line


def parse_tasks(text: str, path: str = ".context/TASKS.md") -> TaskList:
    """Pending tasks: every checkbox line whose box is not exactly "x" (quirk 3).

    Kept as positions in `text` (`TaskList`), each entry made when asked for:
    a million tasks as entries held 14 times the file.
    """
    tasks = TaskList(text, path)
    line_of = LineNumbers(text)
    for match in iter_checkbox_lines(text):
        if match.box == "x":
            continue
        raw = match.text
        title = go_trim(raw)
        start = match.start + len(raw) - len(raw.lstrip(GO_SPACE))
        tokens = estimate(TASK_PREFIX + title)
        tasks.add(start, start + len(title), line_of(match.start), tokens)
    return tasks


def parse_conventions(
    text: str, path: str = ".context/CONVENTIONS.md"
) -> tuple[list[Entry], list[Entry], Problem | None]:
    """Bullets at the start of a line; only the first 1000 are looked at (quirk 2).

    (kept, skipped, unlisted): the bullets ctx looks at, then those past its
    scan, of which `SKIPPED_LISTED` become entries and the rest are only
    counted, in the problem `unlisted` (None when there are none).
    """
    kept: list[Entry] = []
    skipped: list[Entry] = []
    line_of = LineNumbers(text)
    key = Keys("conventions", path)
    unlisted, first_unlisted = 0, 0
    for index, (offset, bullet) in enumerate(iter_convention_bullets(text)):
        item = go_trim(bullet)
        if not item or item.startswith("#"):
            continue
        if len(skipped) >= SKIPPED_LISTED:
            unlisted += 1
            first_unlisted = first_unlisted or offset + 1
            continue
        number = line_of(offset)
        entry = Entry(
            key=key(item),
            section="conventions",
            title=item,
            text=item,
            tokens=estimate(item),
            source=f"{path}:{number}",
        )
        (kept if index < CONVENTION_SCAN_LIMIT else skipped).append(entry)
    if not unlisted:
        return kept, skipped, None
    return (
        kept,
        skipped,
        Problem(
            path,
            f"{unlisted:,} more conventions past the first {CONVENTION_SCAN_LIMIT:,} bullets ctx scans are not "
            f"listed one by one (ctx never reads them; the first {SKIPPED_LISTED:,} past it are listed, dropped)",
            line_of(first_unlisted - 1),
        ),
    )


def parse_constitution(
    text: str | None, path: str = ".context/CONSTITUTION.md"
) -> tuple[list[str] | None, list[Entry]]:
    """What ctx parses (quirk 1), and every rule a reader of the file would count."""
    if text is None:
        return None, []
    parsed: list[str] = []
    rule = constitution_rule(text)
    if rule is not None:
        parsed.append(go_trim(rule))
    candidates = []
    line_of = LineNumbers(text)
    key = Keys("constitution", path)
    for found in iter_checkbox_lines(text):
        rule = go_trim(found.text)
        number = line_of(found.start)
        candidates.append(
            Entry(
                key=key(rule),
                section="constitution",
                title=rule,
                text=rule,
                tokens=estimate(rule),
                source=f"{path}:{number}",
            )
        )
    return parsed, candidates


def parse_entry_blocks(text: str, section: str, path: str) -> list[Entry]:
    """Decision or learning blocks: a header line starts one (quirk 10: anywhere in a line)."""
    lines = text.split("\n")
    starts = [(i, header) for i, line in enumerate(lines) if (header := entry_stamp(line))]
    entries: list[Entry] = []
    key = Keys(section, path)
    for n, (first, (stamp, title)) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        while end - 1 > first and not go_trim(lines[end - 1]):
            end -= 1
        block_lines = lines[first:end]
        block = "\n".join(block_lines)
        # Most blocks never mention it: one C-level search spares trimming every line of them.
        superseded = SUPERSEDED_PREFIX in block and any(
            go_trim(line).startswith(SUPERSEDED_PREFIX) for line in block_lines
        )
        entries.append(
            Entry(
                key=key(f"[{stamp}] {title}"),
                section=section,
                title=title,
                text=block,
                tokens=estimate(block),
                source=f"{path}:{first + 1}",
                date=stamp[:10],
                superseded=superseded,
            )
        )
    return entries


def parse_context(files: ContextFiles, tool: str = "", memo: Callable[..., Any] | None = None) -> ParsedContext:
    """Turn the raw files into candidates for every tier; `memo(parser, *args)` may reuse an earlier call's
    result (`revision.ParseMemo`: a history parses each file text once); lists are copied, never shared."""
    call = memo or (lambda fn, *args: fn(*args))
    texts = files.texts
    read_order = [name for name in READ_ORDER if name in texts and not is_effectively_empty(texts[name])]
    label = files.label
    constitution, rules = call(parse_constitution, texts.get("CONSTITUTION.md"), f"{label}/CONSTITUTION.md")
    conventions, skipped, unlisted = call(parse_conventions, texts.get("CONVENTIONS.md", ""), f"{label}/CONVENTIONS.md")
    steering, verdicts = steering_candidates(files.steering or SteeringRead("", []), tool)
    return ParsedContext(
        files=files,
        read_order_names=read_order,
        constitution=None if constitution is None else list(constitution),
        constitution_candidates=list(rules),
        tasks=call(parse_tasks, texts.get("TASKS.md", ""), f"{label}/TASKS.md"),  # immutable: shared
        conventions=list(conventions),
        conventions_skipped=list(skipped),
        decisions=list(call(parse_entry_blocks, texts.get("DECISIONS.md", ""), "decisions", f"{label}/DECISIONS.md")),
        learnings=list(call(parse_entry_blocks, texts.get("LEARNINGS.md", ""), "learnings", f"{label}/LEARNINGS.md")),
        steering=steering,
        steering_fates=verdicts,
        problems=[*files.problems, *([unlisted] if unlisted is not None else [])],
    )
