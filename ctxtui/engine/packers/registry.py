"""Every packer by the name `--packer` takes, and how to build each from loaded sources.

One place lists them, so the CLI's choices, the TUI's switcher and the help
text cannot disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.engine.packers.base import Packer
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.packers.ctx.knobs import CtxKnobs
from ctxtui.engine.packers.ctx.versions import VERSIONS
from ctxtui.engine.sources.steering import SkillFile
from ctxtui.engine.sources.workspace import Workspace

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime, tzinfo

MCP = "ctx-mcp"
CTX_PACKERS = (*VERSIONS, MCP)  # ctx-0.8.1, ctx-0.8.0, ctx-mcp: built from a project's .context/
PEER_PACKERS = ("shabka", "shabka-mcp", "cortex", "nous")  # built from a memory store alone
PACKERS = (*CTX_PACKERS, *PEER_PACKERS)
PACKER_TITLES = {
    "ctx-0.8.1": "ctx agent 0.8.1 (ctx's main, commit ce5a832)",
    "ctx-0.8.0": "ctx agent 0.8.0 (the newest release: binaries, Homebrew, VS Code)",
    MCP: "ctx's MCP resource ctx://context/agent (0.8.0 and 0.8.1 alike)",
    "shabka": "shabka context-pack (v0.5.2, hash embedder)",
    "shabka-mcp": "Shabka's MCP tool get_context (v0.5.2, hash embedder)",
    "cortex": "drift memory why: Cortex's retrieval budget (TypeScript v1, vector-less path)",
    "nous": "nous's per-frame context sections, rebuilt from a logged turn",
}


def build_ctx_packer(
    name: str,
    workspace: Workspace,
    *,
    now: datetime,
    root_path: str | None = None,
    count: Callable[[str], int] | None = None,
    knobs: CtxKnobs | None = None,
    skill: SkillFile | None = None,
    zone: tzinfo | None = None,
) -> Packer:
    """The ctx packer called `name` over `workspace`."""
    if name == MCP:
        from ctxtui.engine.packers.ctx.mcp import McpPacker  # here: a cold `ctxtui pack` of ctx agent never needs it

        return McpPacker(workspace.parsed, label=workspace.parsed.files.label)
    return packer_for(
        workspace,
        now=now,
        version=VERSIONS[name],
        root_path=root_path,
        count=count,
        knobs=knobs,
        skill=skill,
        zone=zone,
    )
