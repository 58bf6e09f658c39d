"""The table's count of rows shown, for the filter line (its own module: the table is near the size limit)."""

from __future__ import annotations

from textual.message import Message


class RowsCounted(Message):
    """After a re-filter: `shown` rows pass the filters, of `total`."""

    def __init__(self, shown: int, total: int) -> None:
        super().__init__()
        self.shown = shown
        self.total = total

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, RowsCounted)
