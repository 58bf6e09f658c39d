"""A revision as a source: `.context/` and `.ctxrc` as they were at a commit, read into the same `Workspace`.

The working tree is read by `context.read_context_files`, `steering.read_steering`
and `ctxrc.read_ctxrc`; a revision is read here by the same rules from a
`Tree`, a read-only view of one commit's files (the opening layer gives one
made of git objects: never a checkout). The packers cannot tell the two
apart. What a tree cannot hold is decided as a checkout would have it: a
symbolic link is a link (ctx refuses it or skips it, as in the working tree),
a submodule is an empty directory, `.git` exists (the commit was made in a
git work tree). A steering file that is a link is followed only inside the
commit's own tree.

Parsing is memoised per file text (`ParseMemo`): a history of 500 commits
parses each distinct TASKS.md once, and an entry of a file a commit did not
touch is the very same `Entry`, key and all.
"""

from __future__ import annotations

import posixpath
from functools import lru_cache
from typing import TYPE_CHECKING

from ctxtui.engine.model import Problem
from ctxtui.engine.sources.context import ContextFiles, ContextMissing, ParsedContext, parse_context
from ctxtui.engine.sources.ctx_gates import REQUIRED, Refusal, usage
from ctxtui.engine.sources.ctxrc import CtxConfig, parse_ctxrc
from ctxtui.engine.sources.files import MAX_FILE_BYTES
from ctxtui.engine.sources.steering import (
    DEFAULT_STEERING_DIR,
    FrontMatterError,
    SteeringRead,
    is_dangerous,
    parse_steering_file,
)
from ctxtui.engine.sources.workspace import Workspace
from ctxtui.engine.text.go import decode, go_join

if TYPE_CHECKING:
    from typing import Any, Protocol

    from ctxtui.engine.sources.steering import SkillFile

    class Tree(Protocol):
        """One commit's files, read-only. Paths are relative to the project, "/"-separated."""

        def kind(self, path: str) -> str | None:
            """ "file", "dir", "link" (a symbolic link), "submodule", or None when nothing is there."""

        def names(self, path: str) -> list[str] | None:
            """The names directly inside the directory `path`, or None when it is not a directory."""

        def read(self, path: str, limit: int) -> bytes:
            """A file's bytes (a link's: its target); OSError (FileTooBig) over `limit` bytes."""

        def link_target(self, path: str) -> str:
            """A symbolic link's target as stored."""

        @property
        def has_git(self) -> bool:
            """Whether a checkout of the commit has `.git` in the project folder (the repository's top)."""


FILE, DIR, LINK, SUBMODULE = "file", "dir", "link", "submodule"


class ParseMemo:
    """Parse results by (parser, text, path): a file's text parsed once however many commits hold it.

    The most recently used `most` results are kept (a walk meets a text again
    in neighbouring commits): 500 commits of ctx-large stay well under the
    memory of holding every version's entries.
    """

    def __init__(self, most: int = 256) -> None:
        self.results: dict[tuple[Any, ...], Any] = {}
        self.most = most
        self.hits = 0
        self.misses = 0

    def __call__(self, fn: Any, *args: Any) -> Any:
        key = (fn, *args)
        found = self.results.pop(key, _MISSING)
        if found is _MISSING:
            self.misses += 1
            found = fn(*args)
            if len(self.results) >= self.most:
                del self.results[next(iter(self.results))]  # the least recently used
        else:
            self.hits += 1
        self.results[key] = found
        return found


_MISSING = object()


def _text(data: bytes, label: str, problems: list[Problem]) -> str:
    """A file's bytes as `context._read_regular` decodes them, with the same problems."""
    if b"\x00" in data[:8192]:
        problems.append(Problem(label, "looks binary (NUL bytes): read as text anyway, as ctx does"))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        problems.append(Problem(label, "is not valid UTF-8: invalid bytes are kept as they are", line))
        return decode(data)


def ctxrc_text_at(tree: Tree) -> tuple[str | None, list[Problem]]:
    """`.ctxrc` at the revision: its text (None when there is none), or a problem when it cannot be read."""
    kind = tree.kind(".ctxrc")
    if kind is None:
        return None, []
    if kind not in (FILE, LINK):
        return None, [Problem(".ctxrc", f"is a {kind} at this revision: cannot read: ctx ignores it too")]
    try:
        return _read_following(tree, ".ctxrc").decode("utf-8", "surrogateescape"), []
    except OSError as exc:
        return None, [Problem(".ctxrc", f"cannot read: {exc}; ctx ignores it too")]


def steering_at(tree: Tree, setting: str, root: str) -> SteeringRead:
    """The steering directory at the revision, as `steering.read_steering` reads the working tree's."""
    from ctxtui.engine.sources import steering

    directory = setting or DEFAULT_STEERING_DIR
    read = SteeringRead(directory, [], warnings=[])
    if posixpath.isabs(directory) or directory.split("/")[0] == "..":
        return read  # outside the project: not in its history
    base = posixpath.normpath(directory)
    names = tree.names(base)
    if names is None:
        return read
    for name in sorted(names, key=lambda n: n.encode("utf-8", "surrogateescape")):
        path = f"{base}/{name}"
        kind = tree.kind(path)
        if kind in (DIR, SUBMODULE) or not name.endswith(".md"):
            continue
        label = go_join(directory, name)
        if is_dangerous(go_join(root, label)):
            steering._failed(
                read,
                name,
                label,
                "lies in a system folder ctx will not read from; ctx then includes no steering at all",
            )
            continue
        try:
            data = _read_following(tree, path)
        except OSError as exc:
            steering._failed(read, name, label, f"{exc}; ctxtui reads no steering, as ctx does on an error")
            continue
        try:
            read.files.append(parse_steering_file(name, label, decode(data)))
        except (FrontMatterError, steering._DecodeError) as exc:
            steering._failed(read, name, label, f"{exc}; ctx then includes no steering at all")
    return read


def _read_following(tree: Tree, path: str, hops: int = 8) -> bytes:
    """A file's bytes, following symbolic links inside the commit's tree only."""
    for _ in range(hops):
        kind = tree.kind(path)
        if kind == FILE:
            return tree.read(path, MAX_FILE_BYTES)
        if kind != LINK:
            raise OSError("is a directory" if kind in (DIR, SUBMODULE) else "is missing")
        target = tree.link_target(path)
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        if posixpath.isabs(target) or joined.split("/")[0] == "..":
            raise OSError(f"is a symbolic link to {target!r}, outside the project: history does not follow it")
        path = joined
    raise OSError("is a chain of symbolic links too long to follow")


def context_files_at(tree: Tree, root: str, label: str = ".context", steering_dir: str = "") -> ContextFiles:
    """`.context/` at the revision, as `context.read_context_files` reads the working tree's."""
    if posixpath.isabs(label) or posixpath.normpath(label).split("/")[0] == "..":
        raise ContextMissing(f"{label} lies outside the project: it is not in the project's history")
    base = posixpath.normpath(label)
    kind = tree.kind(base)
    if kind is None:
        raise ContextMissing(f"no {label}/ directory in {root} at this revision")
    names = tree.names(base) if kind == DIR else None
    if names is None:
        raise ContextMissing(f"{go_join(root, label)} is not a directory at this revision")
    files = ContextFiles(root=root, label=label)
    for name in sorted(names):
        if not name.endswith(".md"):
            continue
        path, shown = f"{base}/{name}", f"{label}/{name}"
        kind = tree.kind(path)
        if kind == LINK:
            files.problems.append(Problem(shown, "is a symbolic link: ctx reads only regular files, so it is skipped"))
            continue
        if kind in (DIR, SUBMODULE):
            files.problems.append(Problem(shown, "is a directory: ctx skips it"))
            continue
        try:
            data = tree.read(path, MAX_FILE_BYTES)
        except OSError as exc:
            files.problems.append(Problem(shown, f"{exc}: not read"))
            continue
        files.texts[name] = _text(data, shown, files.problems)
    files.steering = steering_at(tree, steering_dir, root)
    files.problems.extend(files.steering.problems)
    return files


def workspace_at(
    tree: Tree, project: str, context_dir: str = ".context", *, memo: ParseMemo | None = None, revision: str = "REV"
) -> Workspace:
    """`load_workspace` for a revision: raises ContextMissing when `.context/` did not exist yet."""
    text, problems = ctxrc_text_at(tree)
    config = CtxConfig(problems=tuple(problems)) if text is None else _parsed_ctxrc(text, "0.8.1")
    files = context_files_at(tree, project, context_dir, config.steering_dir)
    parsed: ParsedContext = parse_context(files, config.tool, memo=memo)
    return Workspace(project, config, parsed, revision=revision or "REV", ctxrc_text=text)


def refusal_at(name: str, tree: Tree, root: str, context_dir: str, *, allow_outside: bool = False) -> Refusal | None:
    """What ctx `name`, run in a checkout of the revision, would print instead of a packet (`ctx_gates`' rules).

    A checkout has `.git` at the repository's top only: 0.8.1's work-tree gate
    passes there and refuses a project in a subfolder, as ctx run there does.
    """
    if name == "ctx-0.8.0":
        return _refusal_0_8_0(tree, root, context_dir, allow_outside=allow_outside)
    shown = go_join(root, ".context")
    kind = tree.kind(".context")
    if name == "ctx-mcp" and kind == DIR:
        linked = _first_link(tree, ".context")
        if linked is None:
            return None
        message = f'failed to load context: context file "{go_join(shown, linked)}" is a symlink'
        return Refusal(message, "", f"ctxtui: ctx's MCP server answers this read with error -32603: {message}\n")
    if name not in ("ctx-0.8.1", "ctx-mcp"):
        return None

    def fail(message: str, *, with_usage: bool = False, before: tuple[str, ...] = ()) -> Refusal:
        lines = [*before, f"Error: {message}"]
        return Refusal(message.splitlines()[0], usage("0.8.1") if with_usage else "", "\n".join(lines) + "\n")

    base = ".context"
    if kind == LINK:
        base = _link_path(tree, ".context") or ".context"
        kind = tree.kind(base) if base != ".context" else None
    if kind is None:
        return fail(
            f"no .context here: ctx: no .context/ at {root}\n"
            "Run `ctx init` here, or `cd` to a directory that has .context/.",
            before=("ctx: rc.RC: no .context/ at $PWD; defaults applied (investigate calling command if unexpected)",),
        )
    if kind not in (DIR, SUBMODULE):
        message = f"context directory is not a directory: .context/ at {shown} is not a directory"
        return fail(message, before=(f"ctx: resolve context dir: {message}",))
    if not all(tree.kind(f"{base}/{n}") is not None for n in REQUIRED):
        return fail('ctx: not initialized - run "ctx init" first')
    if name == "ctx-0.8.1" and not tree.has_git:
        return fail(f"git working tree required: ctx agent: .git/ not found at {root}; run `git init` to fix")
    if base != ".context":
        return fail(f'context directory "{shown}" is a symlink', with_usage=True)
    linked = _first_link(tree, ".context")
    if linked is not None:
        return fail(f'context file "{go_join(shown, linked)}" is a symlink', with_usage=True)
    return None


def _refusal_0_8_0(tree: Tree, root: str, context_dir: str, *, allow_outside: bool) -> Refusal | None:
    def fail(message: str) -> Refusal:
        return Refusal(message.splitlines()[0], usage("0.8.0"), f"Error: {message}\nError:  {message}\n")

    relative = posixpath.normpath(context_dir) if not posixpath.isabs(context_dir) else None
    if not allow_outside and (relative is None or relative.split("/")[0] == ".."):
        return fail(
            f'context directory "{context_dir}" resolves outside project root "{root}"\n'
            "Use --allow-outside-cwd to override this check"
        )
    if relative is None or relative.split("/")[0] == "..":
        return fail('ctx: not initialized - run "ctx init" first')
    if not all(tree.kind(f"{relative}/{n}") is not None for n in REQUIRED):
        return fail('ctx: not initialized - run "ctx init" first')
    if tree.kind(relative) == LINK:
        return fail(f'context directory "{context_dir}" is a symlink')
    linked = _first_link(tree, relative)
    if linked is not None:
        return fail(f'context file "{go_join(context_dir, linked)}" is a symlink')
    return None


def _link_path(tree: Tree, path: str) -> str | None:
    """Where a symbolic link inside the tree points, when that is inside the tree too."""
    try:
        target = tree.link_target(path)
    except OSError:
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
    if posixpath.isabs(target) or joined.split("/")[0] == "..":
        return None
    return joined


def _first_link(tree: Tree, directory: str) -> str | None:
    names = tree.names(directory) or []
    for name in sorted(names, key=lambda n: n.encode("utf-8", "surrogateescape")):
        if tree.kind(f"{directory}/{name}") == LINK:
            return name
    return None


def config_at(tree: Tree, version: str = "0.8.1") -> CtxConfig:
    """`.ctxrc` at the revision as ctx `version` reads it (`ctxrc.read_ctxrc` for a commit)."""
    text, problems = ctxrc_text_at(tree)
    return CtxConfig(problems=tuple(problems)) if text is None else _parsed_ctxrc(text, version)


@lru_cache(maxsize=32)
def _parsed_ctxrc(text: str, version: str) -> CtxConfig:
    """A history holds a few `.ctxrc` texts, each asked for at every commit: YAML-parsed once each."""
    return parse_ctxrc(text, version)


def skill_at(tree: Tree, name: str) -> SkillFile:
    """`.context/skills/NAME/SKILL.md` at the revision (`steering.read_skill` for a commit)."""
    from ctxtui.engine.sources.steering import SkillError, parse_skill

    try:
        data = _read_following(tree, posixpath.join(".context", "skills", name, "SKILL.md"))
    except OSError:
        raise SkillError(f'skill "{name}" not found') from None
    return parse_skill(name, data)
