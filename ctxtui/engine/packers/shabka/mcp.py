"""Shabka's MCP packet: what the `get_context` tool answers, as a packer beside `shabka context-pack`.

`get_context` (`crates/shabka-mcp/src/server.rs:1544-1641`, commit
`1a194cdf`) runs the pipeline of `context-pack` — hash embedding, the 50
nearest, privacy, ranking, the greedy pack, `format_context_pack` — with its
own edges, each reproduced here:

- its arguments are `GetContextParams` (`mcp_args`): `query` (`""` → `*`),
  `project_id`, `kind`, `tags`, `token_budget`;
- `kind` is compared with the kind's lowercase name exactly as given
  (`memory.kind.to_string() != *kind`): `Fact` or an unknown kind matches
  nothing, where the CLI's `-k` ignores case and fails on an unknown kind;
- `tags` is one string split on `,`, each part trimmed of Unicode white
  space, empty parts dropped (`""` filters nothing);
- the filters run kind, project, tags (the CLI: kind, tags, project): a
  memory refused by several is named by the first;
- the answer is one text content, `format_context_pack`'s text as it is
  (trimmed at the end, no trailing newline; no JSON variant), and an empty
  pack is the success text `NO_MEMORIES`;
- a storage failure is a JSON-RPC error (`to_mcp_error`, `:366-395`):
  `-32603`, `"Storage error: …"`, `data` `{"error_type":"storage_error"}`;
  a store whose vector index cannot be rebuilt stops the server at start, so
  no call is answered at all.

The user whose private memories are visible is resolved once, at server
start, with the CLI's resolver: the same knob as `shabka`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ctxtui.engine.model import Plan
from ctxtui.engine.packers.base import Knob
from ctxtui.engine.packers.shabka.fates import STEP_OPEN, ShabkaReason
from ctxtui.engine.packers.shabka.knobs import ShabkaSettings, split_tags
from ctxtui.engine.packers.shabka.mcp_args import McpToolError
from ctxtui.engine.packers.shabka.memory import Memory
from ctxtui.engine.packers.shabka.packer import ShabkaPacker
from ctxtui.engine.packers.shabka.render import render_text
from ctxtui.engine.sources.memory.shabka.store import ShabkaStore

NAME = "shabka-mcp"
NO_MEMORIES = "No memories found matching the query and filters within the token budget."
INTERNAL_ERROR = -32603
SERVER_DOES_NOT_START = "Shabka's MCP server does not start on this store (it answers no call)"


class ShabkaMcpPacker(ShabkaPacker):
    """Shabka's `get_context` MCP tool over one read store and one set of arguments."""

    name = NAME
    title = "shabka MCP get_context (v0.5.2, hash embedder)"
    formats = ("md",)

    def __init__(
        self,
        store: ShabkaStore,
        settings: ShabkaSettings,
        *,
        tags_text: str | None = None,
        provider: str = "hash",
        provider_source: str = "default",
        knob_sources: Mapping[str, str] | None = None,
        user_default: str = "anonymous",
    ) -> None:
        self.tags_text = tags_text  # the `tags` argument as sent (None: absent)
        settings = replace(settings, tags=split_tags(tags_text))
        super().__init__(
            store,
            settings,
            provider=provider,
            provider_source=provider_source,
            knob_sources=knob_sources,
            user_default=user_default,
        )

    # ------------------------------------------------------------ where the tool differs from the CLI

    def _settle_kind(self) -> bool:
        self._kind = self.settings.kind  # compared as given: no parse, no error
        return True

    def _filtered_out(self, memory: Memory) -> tuple[ShabkaReason, str] | None:
        """kind, then project_id, then tags (`server.rs:1580-1596`)."""
        s = self.settings
        if self._kind is not None and memory.kind != self._kind:
            return ShabkaReason.KIND, f"its kind is {memory.kind}; kind asks for {self._kind!r}, exactly"
        if s.project is not None and memory.project_id != s.project:
            shown = "none" if memory.project_id is None else repr(memory.project_id)
            return ShabkaReason.PROJECT, f"its project is {shown}; project_id asks for {s.project!r}"
        if s.tags and not any(t in memory.tags for t in s.tags):
            wanted = ", ".join(s.tags)
            return ShabkaReason.TAG, f"its tags are {', '.join(memory.tags) or '(none)'}; tags asks for any of {wanted}"
        return None

    def render(self, plan: Plan, fmt: str) -> str:
        """The text content the client receives: the pack's markdown without a trailing newline, or NO_MEMORIES."""
        if fmt != "md":
            raise ValueError(f"Shabka's get_context answers with text (md), not {fmt!r}")
        if self.failure is not None:
            return ""
        memories = self.packed(plan)
        if not memories:
            return NO_MEMORIES
        return render_text(memories, plan.tokens_used, self.settings.project)[:-1]

    def tool_error(self) -> McpToolError | None:
        """The JSON-RPC error the call gets instead of a text (None: it gets a text)."""
        if self.failure is None or self.failure.step == STEP_OPEN:
            return None
        cause = self.failure.message.rsplit("    ", 1)[-1]  # anyhow's last cause: "Storage error: …"
        return McpToolError(INTERNAL_ERROR, cause, '{"error_type":"storage_error"}')

    def stderr(self, plan: Plan) -> tuple[str, int]:
        """Nothing for an answer (an empty pack is a text too); the error object, or why no call is answered."""
        error = self.tool_error()
        if error is not None:
            return error.to_json() + "\n", 1
        if self.failure is not None:
            return f"{SERVER_DOES_NOT_START}: {self.failure.report}\n", 1
        return "", 0

    # ------------------------------------------------------------ knobs: the tool's arguments

    def knobs(self) -> tuple[Knob, ...]:
        s, src = self.settings, self._knob_sources
        return (
            Knob(
                "query",
                "query",
                "str",
                s.query,
                "*",
                src.get("query", "default"),
                help="what Shabka embeds and matches keywords against; empty means *",
            ),
            Knob(
                "project",
                "project_id",
                "str",
                s.project,
                None,
                src.get("project", "default"),
                help="only memories whose project_id is exactly this (after the 50 nearest are taken)",
            ),
            Knob(
                "kind",
                "kind",
                "str",
                s.kind,
                None,
                src.get("kind", "default"),
                help="only memories of this kind, compared exactly: 'fact' matches, 'Fact' matches nothing",
            ),
            Knob(
                "tag",
                "tags (one string, a,b)",
                "str",
                self.tags_text,
                None,
                src.get("tag", "default"),
                help="comma-separated; a memory carrying any of them (exactly) is kept; empty filters nothing",
            ),
            Knob(
                "user",
                "user id",
                "str",
                s.user,
                self._user_default,
                src.get("user", "default"),
                help="whose private memories are visible, resolved once when the server starts",
            ),
        )

    def with_knob(self, key: str, value: Any, source: str = "set here") -> ShabkaMcpPacker:
        """The same store asked again with one argument changed (a tags tuple from `shabka` is joined by ',')."""
        field = {"query": "query", "project": "project", "kind": "kind", "user": "user"}
        tags_text = self.tags_text
        settings = self.settings
        if key == "tag":
            tags_text = ",".join(value) if isinstance(value, (tuple, list)) else value
        elif key in field:
            if key == "query" and value is None:
                value = "*"
            settings = replace(settings, **{field[key]: value})
        else:
            raise KeyError(f"shabka-mcp has no setting {key!r}")
        return ShabkaMcpPacker(
            self.store,
            settings,
            tags_text=tags_text,
            provider=self.provider,
            provider_source=self._provider_source,
            knob_sources={**self._knob_sources, key: source},
            user_default=self._user_default,
        )
