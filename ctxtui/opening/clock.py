"""--now as every packer takes it: ISO 8601, a bare date-time in UTC, else the local clock."""

from __future__ import annotations

from ctxtui.engine.datetimes import UTC, datetime, timedelta
from ctxtui.opening.request import OpenError


def parse_now(text: str | None) -> datetime:
    """--now as ISO 8601 (a bare date-time is taken as UTC); default: the local clock."""
    if text is None:
        return datetime.now().astimezone()
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise OpenError(f"--now: not an ISO 8601 date-time: {text!r}") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        value.astimezone(UTC)  # 0001-01-01T00:00:00+14:00 lies before the first representable UTC time
        value + timedelta(days=1)
    except OverflowError:
        raise OpenError(
            f"--now: {text!r} is outside the range of dates ctxtui can compute with (years 1 to 9999, in UTC)"
        ) from None
    return value
