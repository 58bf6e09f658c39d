"""The local time zone as a Go program finds it: what ctx reads entry dates in.

Go's `time.Local` (go/src/time/zoneinfo_unix.go `initLocal`): TZ unset →
/etc/localtime; TZ="" → UTC; ":name" → name; an absolute path → that file;
otherwise a name in the zoneinfo folders; any failure → UTC, silently. It
reads files, so it lives with the sources; the engine takes the zone it returns.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ctxtui.engine import datetimes as _dt

if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import tzinfo
    from typing import BinaryIO


def local_zone(env: Mapping[str, str] | None = None) -> tzinfo:
    """time.Local as Go initialises it (zoneinfo_unix.go initLocal): TZ unset -> /etc/localtime; TZ="" -> UTC;
    ":name" -> name; absolute path -> that file; else a name in the zoneinfo dirs; a failure -> UTC."""
    env = os.environ if env is None else env
    if "TZ" not in env:
        try:
            return _zone_file("/etc/localtime")
        except OSError:
            return _dt.UTC
    tz = env["TZ"]
    if tz == "":
        return _dt.UTC
    if tz.startswith(":"):
        tz = tz[1:]
    try:
        if tz.startswith("/"):
            return _zone_file(tz)
        if tz in ("UTC", "") or ".." in tz:
            return _dt.UTC  # "", "UTC" and a path escaping the zone folders all mean UTC in Go
        for d in ("/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/", "/usr/lib/locale/TZ/", "/etc/zoneinfo/"):
            p = d + tz
            if os.path.isfile(p):
                return _zone_file(p)
    except Exception:
        pass
    return _dt.UTC


def _zone_file(path: str) -> tzinfo:
    """The zone in a TZif file, read as every file is read (a FIFO named by TZ must not hang ctxtui)."""
    import io

    from ctxtui.engine.sources.files import MAX_CONFIG_BYTES, read_bytes_safely

    return _zone_from(io.BytesIO(read_bytes_safely(path, follow_symlinks=True, limit=MAX_CONFIG_BYTES)))


def _zone_from(fh: BinaryIO) -> tzinfo:
    """A zone from a TZif file; zoneinfo is imported only here (TZ=UTC never pays for it)."""
    import zoneinfo

    return zoneinfo.ZoneInfo.from_file(fh)
