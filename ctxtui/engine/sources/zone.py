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
            with open("/etc/localtime", "rb") as fh:
                return _zone_from(fh)
        except OSError:
            return _dt.UTC
    tz = env["TZ"]
    if tz == "":
        return _dt.UTC
    if tz.startswith(":"):
        tz = tz[1:]
    try:
        if tz.startswith("/"):
            with open(tz, "rb") as fh:
                return _zone_from(fh)
        if tz in ("UTC", "") or ".." in tz:
            return _dt.UTC  # "", "UTC" and a path escaping the zone folders all mean UTC in Go
        for d in ("/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/", "/usr/lib/locale/TZ/", "/etc/zoneinfo/"):
            p = d + tz
            if os.path.isfile(p):
                with open(p, "rb") as fh:
                    return _zone_from(fh)
    except Exception:
        pass
    return _dt.UTC


def _zone_from(fh: BinaryIO) -> tzinfo:
    """A zone from a TZif file; zoneinfo is imported only here (TZ=UTC never pays for it)."""
    import zoneinfo

    return zoneinfo.ZoneInfo.from_file(fh)
