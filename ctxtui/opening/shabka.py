"""Opening `--packer shabka`: `shabka context-pack` over `--db`, settings from the request and Shabka's config.

    ctxtui pack --packer shabka --db SHABKA.db [--budget N] [--query Q] [--project P]
                [--kind K] [--tag T]... [--user U] [--now ISO] [--format md|json]

prints what `shabka context-pack [Q] --tokens N [-p P] [-k K] [-t T]... [--json]`
prints on stdout (budget 2000 when not given, as Shabka's `--tokens`).

Where the settings Shabka does not take on its command line come from:

- the user id, as `config::resolve_user_id` (`core/config/mod.rs:259-294`)
  finds it: `[sharing] user_id` from Shabka's config layers, else `git config
  user.name` run here, else `$HOSTNAME`, else `/etc/hostname`, else
  "anonymous"; `--user` overrides all of them;
- the config layers (`mod.rs:451-490`): `$XDG_CONFIG_HOME/shabka/config.toml`
  (or `~/.config`; `~/Library/Application Support` on macOS), then
  `./.shabka/config.toml`, then `./.shabka/config.local.toml`, merged table by
  table; if any of them fails to parse, Shabka drops all of them, and so does
  this. Only `[sharing] user_id` and `[embedding] provider` are read;
- "now": `--now` (read as chrono reads RFC 3339, so nanoseconds and leap
  seconds count; other ISO 8601 forms as the other commands read them), else
  the clock.

`pack` behaves as Shabka does at the edges (`ctxtui/cli/pack.py`): an empty
pack prints Shabka's dimmed line on stderr, nothing on stdout, and exits 0
(no file is written for `-o`); an error Shabka exits 1 on (an unknown
`--kind`, a row it cannot read among the 50 nearest, a vector it cannot
load) prints its `Error: …` report and exits 1. Notices (a store embedded by
another provider) come back in `Opened.notices`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ctxtui.engine.packers.shabka.dates import DAY, NANOS, DateError, Moment, days_from_civil, parse_rfc3339
from ctxtui.engine.packers.shabka.knobs import ShabkaSettings
from ctxtui.engine.packers.shabka.packer import ShabkaPacker
from ctxtui.engine.packers.shabka.rank import WHITE_SPACE
from ctxtui.engine.sources.files import MAX_CONFIG_BYTES, read_bytes_safely
from ctxtui.engine.sources.memory.shabka.store import read_shabka_store
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
from ctxtui.opening.clock import parse_now
from ctxtui.opening.request import Opened, OpenError, PackRequest

DEFAULT_BUDGET = 2000  # `--tokens` default (`crates/shabka-cli/src/main.rs:174-198`)


def open_shabka(request: PackRequest, budget: int | None) -> Opened:
    """The Shabka packer over the request's store, at `budget` (Shabka's 2000 when None)."""
    if not request.db:
        raise OpenError("--packer shabka reads a memory store: give it with --db")
    budget_source = "default" if budget is None else "flag"
    budget = DEFAULT_BUDGET if budget is None else budget
    if budget < 0:
        raise OpenError(f"--budget {budget}: Shabka's --tokens takes a count of tokens, 0 or more")
    try:
        store = read_shabka_store(request.db)
    except MemorySourceError as exc:
        raise OpenError(exc.line) from None
    config = shabka_config(Path.cwd())
    sources = {}
    if request.user is not None:
        user, sources["user"] = request.user, "--user"
        default_user, _ = resolve_user_id(config)
    else:
        user, sources["user"] = resolve_user_id(config)
        default_user = user
    for key, value in (("query", request.query), ("project", request.db_project), ("kind", request.kind)):
        if value is not None:
            sources[key] = f"--{key}"
    if request.tags:
        sources["tag"] = "--tag"
    provider = config.get("embedding", {}).get("provider", "hash")
    settings = ShabkaSettings(
        now=now_moment(request.now),
        query=request.query or "",
        project=request.db_project,
        kind=request.kind,
        tags=tuple(request.tags),
        user=user,
    )
    packer = ShabkaPacker(
        store,
        settings,
        provider=provider if isinstance(provider, str) else "hash",
        provider_source="Shabka's config",
        knob_sources=sources,
        user_default=default_user,
    )
    return Opened(packer, budget, budget_source, notices=list(packer.notices))


def now_moment(text: str | None) -> Moment:
    """--now as a UTC moment: chrono's RFC 3339 first, then any ISO 8601 the other commands take; else the clock."""
    if text is None:
        ns = time.time_ns()
        seconds, nanos = divmod(ns, NANOS)
        return Moment(seconds // DAY, seconds % DAY, nanos)
    try:
        return parse_rfc3339(text.strip())
    except DateError:
        pass
    value = parse_now(text).astimezone(UTC)
    return moment_of(value)


def moment_of(value: datetime) -> Moment:
    days = days_from_civil(value.year, value.month, value.day)
    return Moment(days, value.hour * 3600 + value.minute * 60 + value.second, value.microsecond * 1000)


def config_dir() -> Path:
    """`dirs::config_dir()`: $XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application Support on macOS."""
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support"
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    return Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".config"


def shabka_config(project_dir: Path) -> dict[str, Any]:
    """Shabka's three config layers merged; all dropped when any fails to parse (as `ShabkaConfig::load` fails)."""
    merged: dict[str, Any] = {}
    for path in (
        config_dir() / "shabka" / "config.toml",
        project_dir / ".shabka" / "config.toml",
        project_dir / ".shabka" / "config.local.toml",
    ):
        if not path.is_file():
            continue
        try:
            layer = tomllib.loads(read_bytes_safely(path, follow_symlinks=True, limit=MAX_CONFIG_BYTES).decode("utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return {}
        _merge(merged, layer)
    sharing, embedding = merged.get("sharing", {}), merged.get("embedding", {})
    if not isinstance(sharing, dict) or not isinstance(embedding, dict):
        return {}
    if not isinstance(sharing.get("user_id", ""), str) or not isinstance(embedding.get("provider", ""), str):
        return {}
    return merged


def _merge(into: dict[str, Any], layer: dict[str, Any]) -> None:
    for key, value in layer.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def resolve_user_id(config: dict[str, Any]) -> tuple[str, str]:
    """`resolve_user_id` (`core/config/mod.rs:259-294`): the id and where it came from."""
    configured = config.get("sharing", {}).get("user_id")
    if isinstance(configured, str) and configured:
        return configured, "Shabka's config [sharing] user_id"
    try:
        done = subprocess.run(["git", "config", "user.name"], capture_output=True, timeout=5)
        name = done.stdout.decode("utf-8", "replace").strip(WHITE_SPACE) if done.returncode == 0 else ""
        if name:
            return name, "git config user.name"
    except (OSError, subprocess.SubprocessError):
        pass
    hostname = os.environ.get("HOSTNAME", "")
    if hostname and not any("\udc80" <= c <= "\udcff" for c in hostname):  # std::env::var wants Unicode
        return hostname, "$HOSTNAME"
    try:
        data = read_bytes_safely("/etc/hostname", follow_symlinks=True, limit=MAX_CONFIG_BYTES)
        hostname = data.decode("utf-8").strip(WHITE_SPACE)
    except (OSError, UnicodeDecodeError):
        hostname = ""
    if hostname:
        return hostname, "/etc/hostname"
    return "anonymous", "default"
