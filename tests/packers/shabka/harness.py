"""Running ctxtui's Shabka packer the way `shabka context-pack` is run: argv in; stdout, stderr, exit out.

The tests, the oracle driver and the expected-output generator all go
through `run_packer`, so they parse a command line one way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ctxtui.engine.packers.shabka.dates import parse_rfc3339
from ctxtui.engine.packers.shabka.knobs import ShabkaSettings
from ctxtui.engine.packers.shabka.packer import ShabkaPacker
from ctxtui.engine.sources.memory.shabka.store import read_shabka_store


@dataclass(frozen=True)
class Command:
    query: str = ""
    tokens: int = 2000
    project: str | None = None
    kind: str | None = None
    tags: tuple[str, ...] = ()
    json: bool = False


def parse_args(args: list[str]) -> Command:
    """`context-pack [QUERY] [--tokens N] [-p P] [-k K] [-t T]... [--json]` (the last positional wins)."""
    query, tokens, project, kind, tags, as_json = "", 2000, None, None, [], False
    it = iter(args)
    for arg in it:
        if arg == "--json":
            as_json = True
        elif arg == "--tokens":
            tokens = int(next(it))
        elif arg == "-p":
            project = next(it)
        elif arg == "-k":
            kind = next(it)
        elif arg == "-t":
            tags.append(next(it))
        else:
            query = arg
    return Command(query, tokens, project, kind, tuple(tags), as_json)


def packer_for(db: str | Path, args: list[str], user: str, now: str) -> tuple[ShabkaPacker, Command]:
    command = parse_args(args)
    settings = ShabkaSettings(
        now=parse_rfc3339(now),
        query=command.query,
        project=command.project,
        kind=command.kind,
        tags=command.tags,
        user=user,
    )
    return ShabkaPacker(read_shabka_store(db), settings), command


def run_packer(db: str | Path, args: list[str], user: str, now: str) -> tuple[str, str, int]:
    """What the packer says Shabka prints: (stdout, stderr's last line(s), exit status)."""
    packer, command = packer_for(db, args, user, now)
    plan = packer.plan(command.tokens)
    out = plan.render("json" if command.json else "md")
    err, code = packer.stderr(plan)
    return out, err, code
