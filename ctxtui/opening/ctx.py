"""Opening ctx's packers (0.8.1, 0.8.0, the MCP packet): the workspace as that version finds it, its
refusal, its settings and budget, the skill of tier 7.

What ctx reads depends on the version: 0.8.0 takes --context-dir, $CTX_DIR and
.ctxrc `context_dir`, 0.8.1 always `.context`; each version honours its own
.ctxrc keys. Where ctx would refuse the workspace (no .git, a missing file, a
symbolic link...) the refusal comes back with the packet ctx would otherwise
build, unless the caller is strict (`pack`), which fails as ctx does.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ctxtui.engine.model import Problem
from ctxtui.engine.packers.ctx.knobs import BUDGET_KEY, CtxKnobs, KnobError, parse_settings
from ctxtui.engine.packers.registry import CTX_PACKERS, build_ctx_packer
from ctxtui.engine.sources.ctx_gates import Refusal, refusal_0_8_0, refusal_0_8_1, refusal_mcp, usage
from ctxtui.engine.sources.ctxrc import read_ctxrc, resolve_budget
from ctxtui.engine.sources.fspath import absolute
from ctxtui.engine.sources.steering import SkillFile
from ctxtui.engine.sources.workspace import Workspace
from ctxtui.engine.text.go import go_join
from ctxtui.engine.text.go_strconv import GoNumError, parse_int
from ctxtui.opening.clock import parse_now
from ctxtui.opening.request import Opened, OpenError, PackRequest, Refused

if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import datetime

    from ctxtui.engine.sources.revision import ParseMemo, Tree

IGNORE_REFUSAL_ENV = "CTXTUI_IGNORE_REFUSAL"  # as --ignore-refusal, for scripts


def working_path(project: str) -> str:
    """The project's path as ctx, run in it, would print it: `$PWD` when it names the working directory.

    Go's os.Getwd returns $PWD when it is absolute and is the same directory as
    "." (a path through a symbolic link stays one); ctx prints paths under it.
    """
    cwd = os.getcwd()
    pwd = os.environ.get("PWD", "")
    base = cwd
    if pwd.startswith("/"):
        try:
            if os.path.samefile(pwd, cwd):
                base = pwd
        except OSError:
            pass
    return go_join(base, project) if not os.path.isabs(project) else go_join(project)


def parse_budget(text: str | int | None, packer: str) -> int | None:
    """--budget as the tool parses it: ctx with pflag (`strconv.ParseInt(s, 0, 64)`: 0x200, 010, 1_000)."""
    if text is None or isinstance(text, int):
        return text
    if packer in CTX_PACKERS and packer != "ctx-mcp":
        try:
            return parse_int(text, 0)
        except GoNumError as exc:
            version = packer.removeprefix("ctx-")
            message = f'invalid argument "{text}" for "--budget" flag: {exc}'
            stderr = f"Error: {message}\n" + (f"Error:  {message}\n" if version == "0.8.0" else "")
            raise Refused(Refusal(message, usage(version), stderr)) from None
    try:
        return int(text.strip())
    except ValueError:
        raise OpenError(f"--budget: not a whole number: {text!r}") from None


def context_dir_for(packer: str, given: str | None, config_dir: str | None, env: Mapping[str, str]) -> str:
    """ctx 0.8.0 reads --context-dir, then $CTX_DIR, then .ctxrc context_dir; 0.8.1 always `.context`."""
    if packer != "ctx-0.8.0":
        if given:
            raise OpenError("--context-dir exists only in ctx 0.8.0 (use --packer ctx-0.8.0)")
        return ".context"
    return given or env.get("CTX_DIR") or config_dir or ".context"


def ctx_refusal(name: str, project: str, shown_root: str, context_dir: str, *, allow_outside: bool) -> Refusal | None:
    """What ctx `name` would print instead of a packet for this workspace, or None."""
    if name == "ctx-0.8.1":
        return refusal_0_8_1(project, shown_root)
    if name == "ctx-0.8.0":
        return refusal_0_8_0(project, context_dir, allow_outside=allow_outside)
    if name == "ctx-mcp":
        return refusal_mcp(project, shown_root)
    return None


def shown_root(request: PackRequest) -> str:
    """The root path ctx 0.8.1 prints under "Read These Files"."""
    return request.root_path if request.root_path is not None else working_path(request.project)


def context_dir_of(name: str, request: PackRequest, env: Mapping[str, str], tree: Tree | None = None) -> str:
    """The context directory version `name` reads for this request (at a revision: its `.ctxrc`'s)."""
    if tree is not None:
        from ctxtui.engine.sources.revision import config_at

        return context_dir_for(name, request.context_dir, config_at(tree, "0.8.0").context_dir, env)
    root = absolute(request.project)
    return context_dir_for(name, request.context_dir, read_ctxrc(root, "0.8.0").context_dir, env)


def read_ctx_workspace(name: str, request: PackRequest, env: Mapping[str, str]) -> Workspace:
    """`.context/` (or 0.8.0's context directory) parsed; raises ContextMissing when there is none.

    ctx 0.8.1 and the MCP packet will not read from a system folder (/proc,
    /sys...): for those the workspace is empty with a problem saying why.
    """
    from ctxtui.engine.sources.steering import is_dangerous
    from ctxtui.engine.sources.workspace import load_workspace, unreadable_workspace

    root_shown = shown_root(request)
    if name in ("ctx-0.8.1", "ctx-mcp") and is_dangerous(go_join(root_shown, ".context") + "/"):
        return unreadable_workspace(
            request.project,
            Problem(
                go_join(root_shown, ".context"),
                "lies under a system folder ctx 0.8.1 will not read from: its packet has none of the files",
            ),
        )
    return load_workspace(request.project, context_dir_of(name, request, env))


def ignores_refusal(request: PackRequest, env: Mapping[str, str]) -> bool:
    return request.ignore_refusal or env.get(IGNORE_REFUSAL_ENV, "") not in ("", "0")


def open_ctx(
    name: str,
    request: PackRequest,
    *,
    strict: bool = False,
    env: Mapping[str, str] | None = None,
    workspace: Workspace | None = None,
    now: datetime | None = None,
    tree: Tree | None = None,
    memo: ParseMemo | None = None,
) -> Opened:
    """ctx `name`'s packer for the request. `workspace`: already read (the TUI's, memories joined).

    `Opened.refusal` is set when ctx would refuse and the user did not say
    to ignore that (--ignore-refusal, $CTXTUI_IGNORE_REFUSAL): the TUI shows
    it above the packet it still computes.

    Raises `Refused` when strict and ctx would refuse (or would not parse
    --budget), `OpenError` for what the user must fix, ContextMissing when
    there is no context directory.

    `tree`: read `.context/` and `.ctxrc` from a commit instead of the working
    tree (`revision`), with `memo` to parse each file text once in a history.
    """
    env = os.environ if env is None else env
    root = absolute(request.project)
    root_shown = shown_root(request)
    explicit = parse_budget(request.budget, name)
    if tree is None:
        config_080 = read_ctxrc(root, "0.8.0")
    else:
        from ctxtui.engine.sources.revision import config_at

        config_080 = config_at(tree, "0.8.0")
    context_dir = context_dir_for(name, request.context_dir, config_080.context_dir, env)
    allow_outside = request.allow_outside_cwd or config_080.allow_outside_cwd
    if tree is None:
        refusal = ctx_refusal(name, root, root_shown, context_dir, allow_outside=allow_outside)
    else:
        from ctxtui.engine.sources.revision import refusal_at

        refusal = refusal_at(name, tree, root_shown, context_dir, allow_outside=allow_outside)
    warnings: list[str] = []
    if refusal is not None and ignores_refusal(request, env):
        refusal = None
    if refusal is not None:
        if strict:
            raise Refused(refusal)
        warnings.append(
            f"{name.replace('-', ' ', 1)} would refuse this workspace ({refusal.reason}); what follows is "
            "about the packet it would build otherwise (--ignore-refusal: without this warning)"
        )
    if request.skill and name != "ctx-0.8.1":
        raise OpenError("--skill exists only in ctx 0.8.1 (use --packer ctx-0.8.1)")
    if workspace is None:
        if tree is None:
            workspace = read_ctx_workspace(name, request, env)
        else:
            from ctxtui.engine.sources.revision import workspace_at

            workspace = workspace_at(tree, root, context_dir_of(name, request, env, tree), memo=memo)
        if request.db:
            from pathlib import Path  # only with a memory store: a plain pack never imports pathlib

            from ctxtui.engine.packers.ctx.memories import attach_memories
            from ctxtui.engine.sources.memory.shared.urls import is_db_url

            db: str | Path = request.db if is_db_url(request.db) else Path(request.db)
            attach_memories(
                workspace,
                db,
                project=request.db_project,
                now=now or parse_now(request.now),
                agent=request.agent,
            )
    skill = _skill(root, request.skill, workspace, strict=strict, tree=tree)
    now = now or parse_now(request.now)
    try:
        settings = parse_settings(name, list(request.settings))
    except KnobError as exc:
        raise OpenError(f"--set: {exc}") from None
    version_number = name.removeprefix("ctx-") if name != "ctx-mcp" else "0.8.1"
    config = workspace.config_for(version_number)
    if explicit is None and BUDGET_KEY in settings:
        explicit = int(settings.pop(BUDGET_KEY))
    settings.pop(BUDGET_KEY, None)
    knobs = CtxKnobs.from_config(config).with_values(settings) if settings else None
    budget, budget_source, budget_problems = resolve_budget(explicit, env, config)
    count = None
    if request.tokenizer != "ctx":
        from ctxtui.engine.text.tokenizers import TokenizerUnavailable, get_tokenizer

        try:
            count = get_tokenizer(request.tokenizer).count
        except TokenizerUnavailable as exc:
            raise OpenError(str(exc)) from None
    from ctxtui.engine.sources.zone import local_zone

    packer = build_ctx_packer(
        name, workspace, now=now, root_path=root_shown, count=count, knobs=knobs, skill=skill, zone=local_zone()
    )
    return Opened(
        packer,
        budget,
        budget_source,
        workspace=workspace,
        refusal=refusal,
        warnings=warnings,
        problems=[*workspace.problems, *budget_problems],
    )


def _skill(
    root: str, name: str | None, workspace: Workspace, *, strict: bool, tree: Tree | None = None
) -> SkillFile | None:
    """--skill NAME as ctx 0.8.1 reads it; a bad one fails as ctx fails.

    ctx loads steering before the skill (`agent/cmd/root/cmd.go:68-78` at
    ce5a832), so its "skipping unfilled steering file" warnings are on stderr
    before the skill's error.
    """
    from ctxtui.engine.sources.steering import SkillError, read_skill

    if not name:
        return None
    try:
        if tree is not None:
            from ctxtui.engine.sources.revision import skill_at

            return skill_at(tree, name)
        return read_skill(root, name)
    except SkillError as exc:
        if not strict:
            raise OpenError(str(exc)) from None
        message = str(exc)
        steering = workspace.parsed.files.steering
        lead = "".join(f"ctx: {warning}\n" for warning in (steering.warnings or [])) if steering else ""
        raise Refused(Refusal(message, usage("0.8.1"), f"{lead}Error: {message}\n")) from None
