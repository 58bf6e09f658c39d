"""datetime's classes, taken from the C module `datetime` itself re-exports.

On Python 3.11, `import datetime` first runs the module's pure-Python twin
(every class written out in Python, then replaced by `_datetime`'s): ~0.6 ms
of a cold `ctxtui pack` on this project's machines, against ~0.15 ms for the
C module alone. (3.12 and later load `_datetime` first; there the saving is
one small module.) The classes are the same objects either way (`datetime.datetime is
_datetime.datetime`), so the rest of the program may import either. Where
there is no `_datetime` (another Python), the module is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
else:
    try:
        from _datetime import UTC, date, datetime, timedelta, timezone, tzinfo
    except ImportError:  # pragma: no cover - CPython has it
        from datetime import UTC, date, datetime, timedelta, timezone, tzinfo

__all__ = ["UTC", "date", "datetime", "timedelta", "timezone", "tzinfo"]
