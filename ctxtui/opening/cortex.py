"""Opening `--packer cortex`: the options of `drift memory why` from the request.

    ctxtui pack --packer cortex --db cortex.db --query FOCUS [--intent I] [--budget N] [--now ISO] [--format md|json]

is `drift memory why FOCUS -i I --max-tokens N [--format json]` run in a
project whose `.drift/memory/cortex.db` is `--db` (md is the CLI's text
report). How the options map:

- `--query` is the focus (required; "" is allowed, as in Cortex);
  `--intent` defaults to understand_code and, as in Cortex, any string is
  accepted (an unknown intent weighs every type 1.0).
- `--budget` is what `--max-tokens` *parses to* (the CLI applies
  `parseInt(value, 10)`): an integer, default 2000. `--budget 0` behaves as
  `--max-tokens 0` — the fit uses 2000, the text header prints `/0`; a
  negative budget keeps nothing. Strings the CLI would parse (`1e3` → 1,
  `12.9` → 12, `0x10` → 0, `abc` → NaN, shown as `/NaN`) must be given as
  their parsed integer; `abc`'s NaN has no integer form (use 0: same packet,
  header `/0`).
- `--now` pins `Date.now()` (ISO 8601; a bare date-time is UTC); else
  `$CORTEX_NOW` (ISO or epoch milliseconds, as the oracle takes it); else
  the clock.
- `retrievalTime` is the CLI's wall time around `retrieve()`: ctxtui prints
  `$CORTEX_RETRIEVAL_TIME` when set, else its own elapsed milliseconds for
  reading the store and ranking (whole ms, as `Date.now()` differences).
- Date strings without a zone are local time, as in Node: the zone is
  `$CORTEX_TZ`, else `$TZ`, else /etc/localtime, else UTC.
- `$CORTEX_EMBED` (works|model, fails|embed-throws, absent) selects the
  embedding provider's behaviour; default: it works (the vector-less path).
- Outcomes like the CLI's: no database → the "not initialized" message;
  a database the CLI cannot open or read → its one error line
  (`{"error":...}` in JSON); both with exit status 0. A file ctxtui cannot
  read at all (locked, corrupt) is ctxtui's usual one-line failure, status 2.
"""

from __future__ import annotations

import io
import os
import time
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ctxtui.engine.packers.cortex import CortexPacker
from ctxtui.engine.packers.cortex.fit import DEFAULT_BUDGET
from ctxtui.engine.packers.cortex.weights import DEFAULT_INTENT
from ctxtui.engine.sources.files import MAX_CONFIG_BYTES, read_bytes_safely
from ctxtui.engine.sources.memory.cortex.v1_store import read_cortex_store
from ctxtui.engine.sources.memory.shared.errors import MISSING, MemorySourceError
from ctxtui.engine.text.js import parse_date
from ctxtui.opening.clock import parse_now
from ctxtui.opening.request import Opened, OpenError, PackRequest

EMBED_VALUES = {"works": "works", "model": "works", "fails": "fails", "embed-throws": "fails", "absent": "absent"}


def local_zone(env: dict[str, str] | os._Environ[str] = os.environ) -> tzinfo:
    """The time zone Node would use for local-time dates."""
    for name in (env.get("CORTEX_TZ"), env.get("TZ")):
        if name:
            try:
                return ZoneInfo(name.lstrip(":"))
            except (ZoneInfoNotFoundError, ValueError):
                return UTC  # ICU's unknown zone: offset 0
    try:
        data = read_bytes_safely("/etc/localtime", follow_symlinks=True, limit=MAX_CONFIG_BYTES)
        return ZoneInfo.from_file(io.BytesIO(data), key="localtime")
    except (OSError, ValueError):
        return UTC


def _now(request: PackRequest) -> tuple[datetime | float, str]:
    if request.now:
        return parse_now(request.now), "flag"
    pinned = os.environ.get("CORTEX_NOW", "").strip()
    if pinned:
        if pinned.lstrip("-").isdigit():
            return float(int(pinned)), "environment"
        value = parse_date(pinned)
        if value != value:
            raise OpenError(f"$CORTEX_NOW: not a date: {pinned!r}")
        return value, "environment"
    return datetime.now(UTC), "default"


def open_cortex(request: PackRequest, budget: int | None) -> Opened:
    """The cortex packer over the request's store, at `budget` (what `--max-tokens` parses to; 2000 when None)."""
    started = time.perf_counter()
    if not request.db:
        raise OpenError("--packer cortex reads a memory store: give it with --db")
    if request.query is None:
        raise OpenError("--packer cortex needs --query FOCUS (the focus of `drift memory why <focus>`)")
    sources = {"query": "flag" if request.query else "default"}
    intent = DEFAULT_INTENT if request.intent is None else request.intent
    sources["intent"] = "default" if request.intent is None else "flag"
    budget_source = "default" if budget is None else "flag"
    budget = DEFAULT_BUDGET if budget is None else budget
    now, sources["now"] = _now(request)
    embed = os.environ.get("CORTEX_EMBED", "").strip() or "works"
    if embed not in EMBED_VALUES:
        raise OpenError(f"$CORTEX_EMBED: one of {', '.join(EMBED_VALUES)}, not {embed!r}")
    sources["embedding"] = "environment" if "CORTEX_EMBED" in os.environ else "default"
    pinned_time = os.environ.get("CORTEX_RETRIEVAL_TIME", "").strip()
    if pinned_time and not pinned_time.isdigit():
        raise OpenError(f"$CORTEX_RETRIEVAL_TIME: whole milliseconds, not {pinned_time!r}")
    sources["retrieval_time"] = "environment" if pinned_time else "measured"
    try:
        store = read_cortex_store(request.db)
    except MemorySourceError as exc:
        if exc.kind != MISSING:
            raise OpenError(exc.line) from None
        store = None  # the CLI's "Memory system not initialized"
    warnings = [str(problem) for problem in store.problems] if store is not None else []
    if store is not None and store.init_error is not None:
        warnings.append(
            f"{request.db}: Cortex cannot open this database, so the packet is drift's own error line, "
            'doubled "Error: Error:" and exit status 0 included, as `drift memory why` prints it'
        )
    packer = CortexPacker(
        store,
        focus=request.query,
        intent=intent,
        now=now,
        zone=local_zone(),
        embedding=EMBED_VALUES[embed],
        sources=sources,
    )
    if pinned_time:
        packer.set_retrieval_time(int(pinned_time))
    else:
        packer.set_retrieval_time(int((time.perf_counter() - started) * 1000))
    if request.db_project:
        warnings.append("Cortex v1 keeps no project column: --project is ignored")
    return Opened(packer, budget, budget_source, warnings=warnings)
