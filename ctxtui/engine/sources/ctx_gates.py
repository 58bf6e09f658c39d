"""When ctx refuses to build a packet at all, and exactly what it prints.

`ctx agent` checks the workspace before it assembles anything, and every
failure exits 1 (`bootstrap/cmd.go:58-125`, `context/load/loader.go:57`,
`validate/path.go:24` at ce5a832; `bootstrap/cmd.go:56-95` at v0.8.0):

0.8.1, in order: `$PWD/.context` must exist and be a directory;
CONSTITUTION.md, TASKS.md and DECISIONS.md must exist (os.Stat: an empty
file or a link passes); `$PWD/.git` must exist (a file passes); then, while
loading, `.context` and every direct child of it must not be a symbolic link
— those errors also print the command's usage on stdout.

0.8.0: the context directory (--context-dir, $CTX_DIR, `.ctxrc context_dir`,
`.context`) must resolve inside the working directory unless
--allow-outside-cwd or `.ctxrc allow_outside_cwd`; the three files must
exist; no symbolic links; no `.git` check. Every failure prints usage on
stdout and the error twice on stderr (cobra's, then ctx's own).

ctxtui reproduces the refusal (`pack` fails like ctx) and still computes the
packet for the TUI, which shows why ctx would refuse above it.
"""

import os
import stat
from typing import NamedTuple

from ctxtui.engine.sources.fspath import PathText, join
from ctxtui.engine.text.go import go_join

REQUIRED = ("CONSTITUTION.md", "TASKS.md", "DECISIONS.md")


class Refusal(NamedTuple):
    """ctx's answer instead of a packet: what it writes to stdout and stderr, and its exit status."""

    reason: str  # one line, for a banner
    stdout: str
    stderr: str
    exit_code: int = 1


def usage(version: str, cooldown: str = "10m0s") -> str:
    """`ctx agent`'s usage text, as cobra prints it on a failure."""
    # Beside this module in the wheel as in a checkout (not importlib.resources: that import costs a
    # cold `ctxtui pack` more than the read, and only a refusal needs the text).
    with open(os.path.join(os.path.dirname(__file__), f"ctx-agent-usage-{version}.txt"), encoding="utf-8") as fh:
        text = fh.read()
    return text.replace("(default 10m0s)", f"(default {cooldown})")


def _is_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def _exists(path: str) -> bool:
    try:
        os.stat(path)
    except OSError:
        return False
    return True


def _first_symlink(directory: str) -> str | None:
    try:
        names = sorted(os.listdir(directory), key=os.fsencode)
    except OSError:
        return None
    for name in names:
        try:
            if stat.S_ISLNK(os.lstat(os.path.join(directory, name)).st_mode):
                return name
        except OSError:
            continue
    return None


def refusal_0_8_1(project: PathText, root: str, warnings: tuple[str, ...] = ()) -> Refusal | None:
    """Why ctx 0.8.1 run in `project` (printed as `root`, its $PWD) would refuse, or None."""
    context = join(project, ".context")
    shown = go_join(root, ".context")
    lead = list(warnings)

    def fail(message: str, *, with_usage: bool = False, before: tuple[str, ...] = ()) -> Refusal:
        lines = [*before, *lead, f"Error: {message}"]
        return Refusal(message.splitlines()[0], usage("0.8.1") if with_usage else "", "\n".join(lines) + "\n")

    if not _exists(context):
        return fail(
            f"no .context here: ctx: no .context/ at {root}\n"
            "Run `ctx init` here, or `cd` to a directory that has .context/.",
            before=("ctx: rc.RC: no .context/ at $PWD; defaults applied (investigate calling command if unexpected)",),
        )
    if not _is_dir(context):
        message = f"context directory is not a directory: .context/ at {shown} is not a directory"
        return fail(message, before=(f"ctx: resolve context dir: {message}",))
    if not all(_exists(os.path.join(context, name)) for name in REQUIRED):
        return fail('ctx: not initialized - run "ctx init" first')
    if not _exists(join(project, ".git")):
        return fail(f"git working tree required: ctx agent: .git/ not found at {root}; run `git init` to fix")
    if os.path.islink(context):
        return fail(f'context directory "{shown}" is a symlink', with_usage=True)
    linked = _first_symlink(context)
    if linked is not None:
        return fail(f'context file "{go_join(shown, linked)}" is a symlink', with_usage=True)
    return None


def refusal_0_8_0(project: PathText, context_dir: str, *, allow_outside: bool = False) -> Refusal | None:
    """Why ctx 0.8.0 run in `project` with context directory `context_dir` would refuse, or None."""

    def fail(message: str) -> Refusal:
        return Refusal(message.splitlines()[0], usage("0.8.0"), f"Error: {message}\nError:  {message}\n")

    full = join(project, context_dir)  # an absolute directory starts over, as with pathlib's /
    if not allow_outside:
        real_cwd = os.path.realpath(project)
        absolute = os.path.normpath(os.path.join(os.fspath(project), context_dir))
        try:
            resolved = os.path.realpath(absolute, strict=True)
        except OSError:
            resolved = absolute
        if resolved != real_cwd and not resolved.startswith(real_cwd.rstrip("/") + "/"):
            return fail(
                f'context directory "{context_dir}" resolves outside project root "{real_cwd}"\n'
                "Use --allow-outside-cwd to override this check"
            )
    if not all(_exists(os.path.join(full, name)) for name in REQUIRED):
        return fail('ctx: not initialized - run "ctx init" first')
    if os.path.islink(full):
        return fail(f'context directory "{context_dir}" is a symlink')
    linked = _first_symlink(full)
    if linked is not None:
        return fail(f'context file "{go_join(context_dir, linked)}" is a symlink')
    return None


def refusal_mcp(project: PathText, root: str) -> Refusal | None:
    """Why ctx's MCP server (0.8.1) would not start or would answer the agent-packet read with an error, or None.

    Without `$PWD/.context` as a directory `ctx mcp serve` exits 1 with the
    words of `ctx agent` (`cli/mcp/cmd/root/cmd.go:25` → `rc.RequireContextDir`,
    measured: same stderr); it has no init or `.git` gate (`AnnotationSkipInit`).
    """
    context = join(project, ".context")
    shown = go_join(root, ".context")
    if not _is_dir(context):  # `ctx mcp serve` stops at rc.RequireContextDir, as `ctx agent` does
        return refusal_0_8_1(project, root)
    if os.path.islink(context):
        message = f'failed to load context: context directory "{shown}" is a symlink'
    else:
        linked = _first_symlink(context)
        if linked is None:
            return None
        message = f'failed to load context: context file "{go_join(shown, linked)}" is a symlink'
    return Refusal(message, "", f"ctxtui: ctx's MCP server answers this read with error -32603: {message}\n")
