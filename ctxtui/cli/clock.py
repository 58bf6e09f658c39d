"""`--now`: the one place the CLI reads the clock, or takes the time it is given."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ctxtui.cli.failures import UsageError


def parse_now(text: str | None) -> datetime:
    """--now as ISO 8601 (a bare date-time is taken as UTC); default: the local clock."""
    if text is None:
        return datetime.now().astimezone()
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--now: not an ISO 8601 date-time: {text!r}") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        value.astimezone(UTC)  # 0001-01-01T00:00:00+14:00 lies before the first representable UTC time
        value + timedelta(days=1)
    except OverflowError:
        raise UsageError(
            f"--now: {text!r} is outside the range of dates ctxtui can compute with (years 1 to 9999, in UTC)"
        ) from None
    return value
