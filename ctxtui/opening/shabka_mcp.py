"""Opening `--packer shabka-mcp`: what Shabka's MCP tool `get_context` answers, over `--db`.

    ctxtui pack --packer shabka-mcp --db SHABKA.db --args-json '{"query": "auth", "token_budget": 800}'
    ctxtui pack --packer shabka-mcp --db SHABKA.db [--query Q] [--budget N] [--kind K]
                [--tags 'A,B'] [--project P] [--user U] [--now ISO]

`--args-json` is the tool call's `arguments` exactly as an MCP client sends
it (an object, or `null`); each flag is one key (`--query` → `query`,
`--budget` → `token_budget`, `--kind` → `kind`, `--tags` → `tags`,
`--project` → `project_id`), an absent flag an absent key, and a flag given
beside `--args-json` replaces that key. `--budget` is written into the
object as typed when it is a JSON number (so `--budget -1` gets the tool's
own error), else it is ctxtui's usage error.

The answer: the text content on stdout, byte for byte (no trailing newline);
an argument the tool rejects raises `ToolAnswered` with the JSON-RPC error
object the client receives (`pack` prints it on stderr and exits 1).
`--user`, `--now`, Shabka's config layers and embedder check are those of
`--packer shabka` (`opening.shabka`): the server resolves its user once, at
start, with the same resolver.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ctxtui.engine.packers.shabka.knobs import ShabkaSettings
from ctxtui.engine.packers.shabka.mcp import ShabkaMcpPacker
from ctxtui.engine.packers.shabka.mcp_args import McpArgsInvalid, McpToolError, tool_arguments
from ctxtui.engine.sources.memory.shabka.store import read_shabka_store
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
from ctxtui.opening.request import Opened, OpenError, PackRequest, ToolAnswered
from ctxtui.opening.shabka import now_moment, resolve_user_id, shabka_config

_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
FLAG_OF_KEY = {
    "query": "--query",
    "token_budget": "--budget",
    "kind": "--kind",
    "tags": "--tags",
    "project_id": "--project",
}


def flag_arguments(request: PackRequest) -> dict[str, str]:
    """The keys the flags give, each as the JSON text of its value."""
    given: dict[str, str] = {}
    for key, value in (
        ("query", request.query),
        ("kind", request.kind),
        ("tags", request.tags_text),
        ("project_id", request.db_project),
    ):
        if value is not None:
            given[key] = json.dumps(value)
    budget = request.budget
    if isinstance(budget, int):
        given["token_budget"] = str(budget)
    elif budget is not None:
        text = budget.strip()
        if not _JSON_NUMBER.fullmatch(text):
            raise OpenError(f"--budget {budget!r}: the tool's token_budget is a whole number of tokens, 0 or more")
        given["token_budget"] = text
    return given


def open_shabka_mcp(request: PackRequest) -> Opened:
    """The MCP tool's packer over the request's store, at the arguments' token_budget (2000 when absent)."""
    if not request.db:
        raise OpenError("--packer shabka-mcp reads a memory store: give it with --db")
    if request.tags:
        raise OpenError("--packer shabka-mcp takes its tags as one string: --tags 'a,b' (not --tag)")
    flags = flag_arguments(request)
    try:
        args = tool_arguments(request.args_json, flags)
    except McpArgsInvalid as exc:
        raise OpenError(f"--args-json: {exc}") from None
    except McpToolError as exc:
        raise ToolAnswered(exc.message, exc.to_json() + "\n") from None
    try:
        store = read_shabka_store(request.db)
    except MemorySourceError as exc:
        raise OpenError(exc.line) from None
    config = shabka_config(Path.cwd())
    sources: dict[str, str] = {}
    if request.user is not None:
        user, sources["user"] = request.user, "--user"
        default_user, _ = resolve_user_id(config)
    else:
        user, sources["user"] = resolve_user_id(config)
        default_user = user
    from_json = set(args.present) - set(flags)
    for key, knob in (("query", "query"), ("project_id", "project"), ("kind", "kind"), ("tags", "tag")):
        if key in flags:
            sources[knob] = FLAG_OF_KEY[key]
        elif key in from_json:
            sources[knob] = "--args-json"
    budget_source = "flag" if "token_budget" in flags else "--args-json" if "token_budget" in from_json else "default"
    provider = config.get("embedding", {}).get("provider", "hash")
    settings = ShabkaSettings(
        now=now_moment(request.now), query=args.query, project=args.project_id, kind=args.kind, user=user
    )
    packer = ShabkaMcpPacker(
        store,
        settings,
        tags_text=args.tags,
        provider=provider if isinstance(provider, str) else "hash",
        provider_source="Shabka's config",
        knob_sources=sources,
        user_default=default_user,
    )
    return Opened(packer, args.token_budget, budget_source, notices=list(packer.notices))
