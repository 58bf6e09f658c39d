"""Steering files (ctx 0.8.1's tier 6) and skills (tier 7), read exactly as ctx reads them.

Steering (`steering/filter.go:31-101`, `steering/parse.go`, `parse/markdown.go:101`
at ce5a832): every `*.md` entry of the steering directory (`.ctxrc
steering.dir`, default `.context/steering`) that is not a directory — a
symbolic link to one is read, and fails — is read whole, split at its `---`
front matter and decoded with yaml.v3 into name, description, inclusion,
tools and priority. Any error in any file drops all steering, silently in
ctx (ctxtui says why). Without a prompt only `inclusion: always` files pass,
then the `.ctxrc tool` filter; they are sorted by (priority, name) with Go's
unstable `sort.Slice`; empty bodies and untouched templates are skipped.

A skill is `.context/skills/NAME/SKILL.md` with required front matter; the
packet takes the text after it, whole or not at all.
"""

import os
import stat
from typing import Any, NamedTuple

from ctxtui.engine.model import Entry, Problem
from ctxtui.engine.sources.files import FileTooBig, NotRegularFile, read_bytes_safely
from ctxtui.engine.sources.fspath import PathText, join
from ctxtui.engine.text.go import decode, go_join
from ctxtui.engine.text.go_sort import sort_slice
from ctxtui.engine.text.tokens import estimate

STEERING_TOMBSTONE = "<!-- remove this after you edit the steering file !-->"
DEFAULT_STEERING_DIR = ".context/steering"
DEFAULT_PRIORITY = 50
# ctx 0.8.1 refuses to read below these (io/security.go:87, config/io/prefix.go:13).
DANGEROUS_PREFIXES = (
    "/bin/",
    "/boot/",
    "/dev/",
    "/etc/",
    "/lib/",
    "/lib64/",
    "/proc/",
    "/sbin/",
    "/sys/",
    "/usr/bin/",
    "/usr/lib/",
    "/usr/sbin/",
)


class SteeringFile(NamedTuple):
    """One parsed steering file, before ctx's filter."""

    file: str  # name inside the steering directory
    label: str  # the path ctx prints: filepath.Join(steering dir, name)
    name: str
    description: str
    inclusion: str
    priority: int
    tools: tuple[str, ...] | None
    body: str
    line: int  # 1-based line where the body starts


class SteeringRead:
    """What reading the steering directory gave: the files, or the error that drops them all.

    Filled in as the files are read: a plain class with `__slots__`, not a dataclass (a cold `pack` does not
    import `dataclasses`: docs/performance.md, "The engine's records").
    """

    __slots__ = ("directory", "files", "error", "warnings", "problems")

    def __init__(
        self,
        directory: str,
        files: list[SteeringFile],
        error: Problem | None = None,
        warnings: list[str] | None = None,
        problems: list[Problem] | None = None,
    ) -> None:
        self.directory = directory
        self.files = files
        self.error = error  # the first failure: ctx stops there and drops all steering
        self.warnings = warnings  # what ctx prints on stderr (unfilled templates)
        self.problems: list[Problem] = [] if problems is None else problems  # every failing file, to fix at once


class FrontMatterError(ValueError):
    """The text does not open with, or never closes, a `---` front-matter block."""


class SkillError(Exception):
    """ctx refuses the skill; the message is ctx's own (`Error: ...` on stderr, exit 1)."""


class SkillFile(NamedTuple):
    """A skill for ctx 0.8.1's tier 7 (`ctx agent --skill NAME`)."""

    name: str  # as given to --skill
    title: str  # the front matter's name, if any
    body: str
    line: int


def split_front_matter(text: str) -> tuple[str, str, int]:
    """Go's `parse.SplitFrontmatter` (`internal/parse/markdown.go:101`): (yaml, body, offset of the body).

    Leading CR/LF are trimmed; the text must then start with `---` (so `---x`
    opens one too) and one newline after it is dropped; the block ends at the
    first `\\n---` after that (so `\\n---x` closes it, and `---\\n---\\n` has no
    end: the search starts after the first newline); the body is what follows,
    less one leading newline.
    """
    content = text.lstrip("\r\n")
    start = len(text) - len(content)
    if not content.startswith("---"):
        raise FrontMatterError("missing opening frontmatter delimiter (---)")
    rest_at = start + 3
    if text.startswith("\n", rest_at):
        rest_at += 1
    close = text.find("\n---", rest_at)
    if close < 0:
        raise FrontMatterError("missing closing frontmatter delimiter (---)")
    body_at = close + 4
    if text.startswith("\n", body_at):
        body_at += 1
    return text[rest_at:close], text[body_at:], body_at


def is_dangerous(path: str) -> bool:
    """A path ctx 0.8.1 will not read (system folders)."""
    return path == "/" or any(path.startswith(prefix) for prefix in DANGEROUS_PREFIXES)


def read_steering(project: PathText, setting: str = "", *, root_path: str | None = None) -> SteeringRead:
    """The steering directory as ctx 0.8.1 reads it; `setting` is `.ctxrc steering.dir`."""
    directory = setting or DEFAULT_STEERING_DIR
    full = join(project, directory)  # an absolute directory starts over, as with pathlib's /
    read = SteeringRead(directory, [], warnings=[])
    try:
        names = sorted(os.listdir(full), key=os.fsencode)
    except OSError:
        return read  # ctx: no directory, no steering, no warning
    root = root_path or os.fspath(project)
    for name in names:
        path = os.path.join(full, name)
        try:
            if stat.S_ISDIR(os.lstat(path).st_mode):
                continue
        except OSError:
            pass
        if not name.endswith(".md"):
            continue
        label = go_join(directory, name)
        if is_dangerous(go_join(root, label) if not os.path.isabs(label) else label):
            _failed(
                read,
                name,
                label,
                "lies in a system folder ctx will not read from; ctx then includes no steering at all",
            )
            continue
        try:
            parsed = _parse_remembered(name, label, path)
        except (NotRegularFile, FileTooBig) as exc:
            _failed(
                read,
                name,
                label,
                f"{exc}: ctx would fail or never finish reading it; ctxtui reads no steering, as ctx does on an error",
            )
            continue
        except OSError as exc:
            _failed(read, name, label, f"cannot read: {exc.strerror or exc}; ctx then includes no steering at all")
            continue
        if isinstance(parsed, SteeringFile):
            read.files.append(parsed)
        else:
            _failed(read, name, label, f"{parsed}; ctx then includes no steering at all")
    return read


# Large steering files parsed before, by a hash of their bytes: a reload (every save in the project) does
# not parse 100,000 front-matter keys again. Small files are parsed each time (hashing them costs more).
_REMEMBER_FROM = 64 * 1024
_REMEMBERED: dict[tuple[str, str, int, int], SteeringFile | str] = {}
_REMEMBERED_MAX = 16


def _parse_remembered(name: str, label: str, path: str) -> SteeringFile | str:
    """The steering file at `path` parsed, or why it fails; the same bytes give the same answer. OSError as read.

    Only the front matter's text is held while it is decoded: the bytes and the whole text are let go first
    (each is the file's size again: issue 20, medium 17).
    """
    data = read_bytes_safely(path, follow_symlinks=True)
    key = None
    if len(data) >= _REMEMBER_FROM:
        # Python's own hash of the bytes (SipHash, keyed afresh in each process: two versions of a file
        # collide by chance 1 in 2**64); hashlib would load OpenSSL, 3.6 MB resident, twice such a file
        key = (name, label, len(data), hash(data))
        if key in _REMEMBERED:
            return _REMEMBERED[key]
    text = decode(data)
    del data
    try:
        raw, body, offset = split_front_matter(text)
        line = text.count("\n", 0, offset) + 1
        del text
        parsed: SteeringFile | str = _steering_file(name, label, raw, body, line)
    except (FrontMatterError, _DecodeError) as exc:
        parsed = str(exc)
    if key is not None:
        if len(_REMEMBERED) >= _REMEMBERED_MAX:
            del _REMEMBERED[next(iter(_REMEMBERED))]
        _REMEMBERED[key] = parsed
    return parsed


def _failed(read: SteeringRead, file: str, label: str, message: str) -> None:
    """ctx stops at the first failure and drops all steering; ctxtui keeps listing the files to say so."""
    problem = Problem(label, message)
    read.error = read.error or problem
    read.problems.append(problem)
    read.files.append(
        SteeringFile(
            file=file,
            label=label,
            name=file,
            description="",
            inclusion="(unreadable)",
            priority=DEFAULT_PRIORITY,
            tools=None,
            body="",
            line=1,
        )
    )


class _DecodeError(ValueError):
    pass


def parse_steering_file(file: str, label: str, text: str) -> SteeringFile:
    """One steering file: front matter decoded as yaml.v3 decodes it into ctx's struct (`steering/parse.go:48`)."""
    raw, body, offset = split_front_matter(text)
    return _steering_file(file, label, raw, body, text.count("\n", 0, offset) + 1)


def _steering_file(file: str, label: str, raw: str, body: str, line: int) -> SteeringFile:
    """The file's front matter `raw` decoded; `body` begins on `line`."""
    fields: dict[str, Any] = {"name": "", "description": "", "inclusion": "", "tools": None, "priority": 0}
    _decode_front_matter(raw, fields)
    return SteeringFile(
        file=file,
        label=label,
        name=fields["name"],
        description=fields["description"],
        inclusion=fields["inclusion"] or "manual",
        priority=fields["priority"] or DEFAULT_PRIORITY,
        tools=tuple(fields["tools"]) if fields["tools"] is not None else None,
        body=body,
        line=line,
    )


# A front-matter line whose meaning is beyond doubt: a top-level key, a colon, spaces, and a plain
# scalar of letters, digits and a few safe punctuation marks (no `:`, `#`, quotes, brackets, tabs...),
# starting with a letter (so neither a number nor an indicator) and ending with no space or comma; or a
# number of at most 18 digits without a leading zero. As regular expressions (a test holds the
# checks below to them; compiling the two cost a cold `pack` ~0.3 ms):
#   ([A-Za-z][A-Za-z0-9_-]*): +([A-Za-z](?:[A-Za-z0-9 ,./()+_-]*[A-Za-z0-9./()+_-])?)
#   ([A-Za-z][A-Za-z0-9_-]*): +(0|[1-9][0-9]{0,17})
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_KEY_CHARS = _LETTERS + "0123456789_-"
_PLAIN_CHARS = _LETTERS + "0123456789 ,./()+_-"


def _key_and_value(line: str) -> tuple[str, str] | None:
    """`key: value` split, when the key is a plain key and at least one space follows the colon."""
    key, colon, rest = line.partition(":")
    value = rest.lstrip(" ")
    if not colon or not key or len(value) == len(rest) or key[0] not in _LETTERS or key.strip(_KEY_CHARS):
        return None  # `strip` leaves nothing exactly when every character is one of those given
    return key, value


def _is_plain_text(value: str) -> bool:
    return bool(value) and value[0] in _LETTERS and not value.strip(_PLAIN_CHARS) and value[-1] not in " ,"


def _is_plain_int(value: str) -> bool:
    return 0 < len(value) <= 18 and value.isascii() and value.isdigit() and (value[0] != "0" or value == "0")


# Plain scalars yaml.v3 resolves to a bool or null: their decoding differs from their text.
_NOT_PLAIN_TEXT = frozenset(("true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL"))


def _decode_simple_front_matter(raw: str) -> dict[str, Any] | None:
    """The fields of front matter made only of `key: word...` and `key: 123` lines; None for anything else.

    What yaml.v3 decodes from such lines is their text (or the number), so
    the usual front matter (`name: product`, `inclusion: always`,
    `priority: 10`) is read without importing PyYAML, which costs a cold
    `ctxtui pack` more than the rest of the parse. Anything else (a list, a
    quote, a comment, a duplicate key, a tab...) goes to the full decoder;
    tests check both agree on every line this accepts.
    """
    found: dict[str, Any] = {}
    start = 0
    while start <= len(raw):  # line by line, as raw.split("\n") gives them, without holding them all
        end = raw.find("\n", start)
        end = len(raw) if end < 0 else end
        line = raw[start:end]
        start = end + 1
        if not line.strip(" "):
            continue
        pair = _key_and_value(line)
        if pair is None:
            return None
        key, text = pair
        if _is_plain_text(text):
            if text in _NOT_PLAIN_TEXT or key == "priority" or key == "tools":
                return None
            value: Any = text
        elif _is_plain_int(text):
            # a number decoded into a string field is its text
            value = text if key in ("name", "description", "inclusion", "tools") else int(text)
            if key == "tools":
                return None
        else:
            return None
        if key in found:
            return None  # yaml.v3 refuses a duplicate key: the full decoder says how
        found[key] = value
    return found


_FIELDS = frozenset(("name", "description", "inclusion", "tools", "priority"))


def _decode_front_matter(raw: str, fields: dict[str, Any]) -> None:
    simple = _decode_simple_front_matter(raw)
    if simple is not None:
        for key in ("name", "description", "inclusion", "priority"):
            if key in simple:
                fields[key] = simple[key]
        return
    from ctxtui.engine.text.yaml_prune import compose_front_matter
    from ctxtui.engine.text.yaml_v3_decode import INT, STRING, Slice, Struct, unmarshal

    try:
        root = compose_front_matter(raw, _FIELDS)  # without the values of keys ctx ignores (memory, issue 20)
    except RecursionError:
        raise _DecodeError("front matter nested too deeply to read") from None
    except Exception as exc:  # PyYAML's syntax errors
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "syntax error"
        raise _DecodeError(f"invalid YAML front matter: {first}") from None
    # `yaml.Unmarshal(raw, &SteeringFile{})` (steering/types.go): any type error or failure fails the file
    shape = Struct(
        "steering.SteeringFile",
        {"name": STRING, "description": STRING, "inclusion": STRING, "tools": Slice(STRING), "priority": INT},
    )
    decoded = unmarshal(root, shape)
    problem = decoded.failure or (decoded.errors[0] if decoded.errors else None)
    if problem is not None:
        raise _DecodeError(f"front matter field: {problem[1]}")
    for key in ("name", "description", "inclusion", "tools", "priority"):
        if key in decoded.value:
            fields[key] = decoded.value[key]


def steering_candidates(read: SteeringRead, tool: str = "") -> tuple[list[Entry], dict[str, str]]:
    """Every steering file as an entry, the usable ones first in ctx's order.

    The second value maps each entry key to "always" (a candidate for tier 6)
    or the reason it can never be included.
    """

    def selected(sf: SteeringFile) -> bool:
        if sf.inclusion != "always":
            return False
        return not (tool and sf.tools and tool not in sf.tools)

    usable = [sf for sf in read.files if selected(sf)]
    sort_slice(
        usable,
        lambda a, b: (
            a.priority < b.priority
            if a.priority != b.priority
            else a.name.encode("utf-8", "surrogateescape") < b.name.encode("utf-8", "surrogateescape")
        ),
    )
    others = [sf for sf in read.files if not selected(sf)]
    entries: list[Entry] = []
    verdicts: dict[str, str] = {}
    for sf in usable + others:
        entry = Entry(
            key=f"steering:{sf.label}",
            section="steering",
            title=sf.name or sf.file,
            text=sf.body,
            tokens=estimate(sf.body),
            source=f"{sf.label}:{sf.line}",
            extra=(("inclusion", sf.inclusion), ("priority", sf.priority), ("file", sf.file)),
        )
        entries.append(entry)
        if read.error is not None:
            verdicts[entry.key] = "steering-disabled"
        elif not selected(sf):
            verdicts[entry.key] = "not-always"
        elif sf.body == "":
            verdicts[entry.key] = "empty-body"
        elif STEERING_TOMBSTONE in sf.body:
            verdicts[entry.key] = "template-body"
            if read.warnings is not None:
                read.warnings.append(
                    f"skipping unfilled steering file {sf.label} (remove the tombstone line to activate)"
                )
        else:
            verdicts[entry.key] = "always"
    return entries, verdicts


def read_skill(project: PathText, name: str) -> SkillFile:
    """`.context/skills/NAME/SKILL.md` as ctx 0.8.1 reads it (`internal/skill/load.go`); SkillError as ctx says it."""
    path = join(project, ".context", "skills", name, "SKILL.md")
    try:
        data = read_bytes_safely(path, follow_symlinks=True)
    except OSError:
        raise SkillError(f'skill "{name}" not found') from None
    return parse_skill(name, data)


def parse_skill(name: str, data: bytes) -> SkillFile:
    """A SKILL.md's bytes as ctx 0.8.1 reads them; SkillError as ctx says it."""
    text = decode(data)
    try:
        front, body, offset = split_front_matter(text)
    except FrontMatterError as exc:
        raise SkillError(f'skill "{name}": skill: {name}: {exc}') from None
    title = ""
    for line in front.split("\n"):
        key, _, value = line.partition(":")
        if key.strip() == "name":
            title = value.strip().strip("'\"")
    return SkillFile(name=name, title=title, body=body, line=text.count("\n", 0, offset) + 1)
