"""`open_named`: any packer by name, each opener imported only when its packer is asked for.

A cold `ctxtui pack` of a ctx packet never imports numpy (Shabka), the JS
number semantics (Cortex) or psycopg (nous).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ctxtui.engine.packers.registry import PEER_PACKERS
from ctxtui.opening.request import Opened, OpenError, PackRequest

if TYPE_CHECKING:
    from collections.abc import Mapping


def open_named(
    name: str, request: PackRequest, *, strict: bool = False, env: Mapping[str, str] | None = None
) -> Opened:
    """Packer `name` for the request."""
    env = os.environ if env is None else env
    if name not in PEER_PACKERS:
        from ctxtui.opening.ctx import open_ctx

        return open_ctx(name, request, strict=strict, env=env)
    from ctxtui.opening.ctx import parse_budget

    if not request.db:
        raise OpenError(f"--packer {name} reads a memory store: give it with --db")
    budget = parse_budget(request.budget, name) if name != "shabka-mcp" else None  # the tool's own rules
    if name == "shabka":
        from ctxtui.opening.shabka import open_shabka

        return open_shabka(request, budget)
    if name == "shabka-mcp":
        from ctxtui.opening.shabka_mcp import open_shabka_mcp

        return open_shabka_mcp(request)
    if name == "cortex":
        from ctxtui.opening.cortex import open_cortex

        return open_cortex(request, budget)
    from ctxtui.opening.nous import open_nous

    return open_nous(request, budget, env)
