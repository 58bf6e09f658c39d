"""The shabka packer's settings (the command line besides the budget) and their knobs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ctxtui.engine.packers.base import Knob
from ctxtui.engine.packers.shabka.dates import Moment
from ctxtui.engine.packers.shabka.memory import KINDS
from ctxtui.engine.packers.shabka.rank import WHITE_SPACE


def split_tags(text: str | None) -> tuple[str, ...]:
    """The MCP tool's `tags` string as a list (`server.rs:1567-1575`): split on ',', parts trimmed of Unicode
    White_Space (Rust's `trim`), empty parts dropped. Also how a `shabka` tags knob reads such a string."""
    if text is None:
        return ()
    return tuple(part for part in (p.strip(WHITE_SPACE) for p in text.split(",")) if part)


@dataclass(frozen=True, slots=True)
class ShabkaSettings:
    """The command line besides the budget: `[QUERY] -p -k -t...`, the user id, and "now"."""

    now: Moment
    query: str = ""
    project: str | None = None
    kind: str | None = None
    tags: tuple[str, ...] = ()
    user: str = "anonymous"

    @property
    def search_query(self) -> str:
        """`if query.is_empty() { "*" } else { query }` (`main.rs:860`): only the empty string becomes `*`."""
        return self.query if self.query != "" else "*"


def knobs(s: ShabkaSettings, src: Mapping[str, str], user_default: str) -> tuple[Knob, ...]:
    """`context-pack`'s options as knobs; `src` says where each value came from (default: "default")."""
    return (
        Knob(
            "query",
            "query",
            "str",
            s.query,
            "",
            src.get("query", "default"),
            help="what Shabka embeds and matches keywords against; empty means *",
        ),
        Knob(
            "project",
            "project (-p)",
            "str",
            s.project,
            None,
            src.get("project", "default"),
            help="only memories whose project_id is exactly this (after the 50 nearest are taken)",
        ),
        Knob(
            "kind",
            "kind (-k)",
            "choice",
            s.kind,
            None,
            src.get("kind", "default"),
            choices=KINDS,
            help="only memories of this kind (any case; after the 50 nearest are taken)",
        ),
        Knob(
            "tag",
            "tags (-t, any of)",
            "str",
            s.tags,
            (),
            src.get("tag", "default"),
            help="only memories carrying at least one of these tags, exactly",
        ),
        Knob(
            "user",
            "user id",
            "str",
            s.user,
            user_default,
            src.get("user", "default"),
            help="whose private memories are visible: config user_id, git user.name, $HOSTNAME, "
            "/etc/hostname, else anonymous",
        ),
    )
