"""The `ctxtui pack` command line that prints a request's packet: the inverse of the CLI's `request_from_args`.

The TUI shows it beside a preview and after a save, so that what is on
screen can be made again outside the app, byte for byte (with `--now`, the
time the packet was made). Knobs changed in the app become `--set` for ctx's
settings and the peer packers' own options where the CLI has one; a knob with
no option (a nous environment variable...) means no command line can make
the packet, and `pack_command` says so by returning None.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ctxtui.engine.packers.registry import CTX_PACKERS
from ctxtui.engine.sources.memory.shared.urls import is_db_url, redact
from ctxtui.opening.request import PackRequest

# A peer packer's knob and the `ctxtui pack` option that sets it.
_PEER_OPTIONS: dict[str, dict[str, str]] = {
    "shabka": {"query": "--query", "project": "--project", "kind": "--kind", "tag": "--tag", "user": "--user"},
    "shabka-mcp": {"query": "--query", "project": "--project", "kind": "--kind", "tag": "--tags", "user": "--user"},
    "cortex": {"query": "--query", "intent": "--intent"},
    "nous": {"frame": "--frame"},
}
# The request's own fields and their options (those whose value is a plain string).
_TEXT_OPTIONS = (
    ("root_path", "--root-path"),
    ("skill", "--skill"),
    ("context_dir", "--context-dir"),
    ("db_project", "--project"),
    ("query", "--query"),
    ("kind", "--kind"),
    ("user", "--user"),
    ("intent", "--intent"),
    ("agent", "--agent"),
    ("turn", "--turn"),
    ("frame", "--frame"),
)


def pack_command(
    request: PackRequest,
    packer: str,
    budget: int,
    fmt: str,
    *,
    now: datetime | None = None,
    knob_edits: Mapping[str, Any] | None = None,
    ignore_refusal: bool = False,
) -> str | None:
    """`ctxtui pack …` printing `packer`'s packet of `request` at `budget` in `fmt`; None when none can.

    `now`: the moment the packet was made (whole seconds print exactly);
    None keeps the request's own `--now`, if any. A database URL's password
    is never shown.
    """
    options: dict[str, Any] = {}
    settings = list(request.settings)
    for key, value in (knob_edits or {}).items():
        if packer in CTX_PACKERS:
            settings.append(f"{key}={value}")
        elif key in _PEER_OPTIONS.get(packer, {}):
            options[_PEER_OPTIONS[packer][key]] = value
        else:
            return None  # e.g. a nous knob read from NOUS_* variables: no pack option sets it
    words = ["ctxtui", "pack", _shown_path(request.project), "--packer", packer, "--budget", str(budget)]
    when = now.isoformat(timespec="seconds") if now is not None else request.now
    if when:
        words += ["--now", when]
    if fmt != "md":
        words += ["--format", fmt]
    for setting in settings:
        words += _option("--set", setting)
    if request.db:
        words += ["--db", redact(request.db) if is_db_url(request.db) else _shown_path(request.db)]
    for field, option in _TEXT_OPTIONS:
        value = options.pop(option, getattr(request, field))
        if value is not None and value != "":
            words += _option(option, str(value))
    tags_text = options.pop("--tags", request.tags_text)
    if tags_text is not None:
        words += _option("--tags", str(tags_text))
    if request.args_json is not None:
        words += _option("--args-json", request.args_json)
    tags = options.pop("--tag", request.tags)
    for tag in [tags] if isinstance(tags, str) else tags or ():
        words += _option("--tag", str(tag))
    if request.tokenizer != "ctx":
        words += ["--tokenizer", request.tokenizer]
    if request.allow_outside_cwd:
        words.append("--allow-outside-cwd")
    if ignore_refusal or request.ignore_refusal:
        words.append("--ignore-refusal")
    return shlex.join(words)


def remade(name: str, request: PackRequest, budget: int, fmt: str, knob_edits: Mapping[str, Any], source: str) -> str:
    """Packer `name`'s packet of `request` made again (the sources read again), the app's knob edits applied.

    What a saved packet is, so that `pack_command` with the request's `now`
    prints the same bytes. Raises what opening raises (OpenError, ContextMissing, OSError).
    """
    from ctxtui.opening.packer import open_named

    packer = open_named(name, request).packer
    for key, value in knob_edits.items():
        try:
            packer = packer.with_knob(key, value, source)
        except (KeyError, ValueError):
            pass  # not this packer's (as a load drops it)
    return packer.plan(budget).render(fmt)


def _option(option: str, value: str) -> list[str]:
    """`--option value`, or `--option=value` when the value starts with "-" (it would read as an option)."""
    return [f"{option}={value}"] if value.startswith("-") else [option, value]


def _shown_path(path: str) -> str:
    """A path as short as it can be for a line run from here: relative to the working directory when near it.

    Same meaning where it is run (ctx 0.8.1 prints $PWD-based absolute paths either way). A relative path
    that starts with "-" (a project called `-dash`) gets "./" so that it is not read as an option.
    """
    try:
        relative = os.path.relpath(path)
    except ValueError:
        relative = path
    shown = relative if relative.count("..") <= 2 and len(relative) < len(path) else path
    return "./" + shown if shown.startswith("-") else shown
