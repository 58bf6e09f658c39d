"""nous's order of a section's items before the budget cut, estimated from what the log and the rows hold.

A budget-cut item has no `final_rank`, so where it stood is estimated from
the score nous sorted by (context.py `build`, per type; the search results are
heart/schemas.py's `FactSummary`, `EpisodeSummary`, `ProcedureSummary`):

- decisions and passive procedures: the search's order (the entry rank);
  nothing re-sorts them (a critic pick comes before every embedding one);
- facts: sorted by score after the recency resolver's demotion (its logged
  mutation); the staleness penalty and the frame boost read `created_at`
  and `encoded_frame`, which a `FactSummary` does not carry, so they do not
  move it;
- episodes: `_apply_episode_recency` (×max(0.5, 1 − age/60 days) from
  `started_at`, age at the turn's logged time), then the sort.

Not known here, so left out: the usage boost (nous keeps its tracker in
memory). Ties keep the entry order (the sorts are stable). The key sorts
ascending: (−score, entry rank); (0, entry rank) where only the rank counts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ctxtui.engine.sources.memory.nous.model import Candidate, NousRow


def turn_time(timestamp: str | None) -> datetime | None:
    """The turn's logged time as naive UTC (nous's `datetime.now(timezone.utc)` at build, near enough)."""
    if not timestamp:
        return None
    try:
        when = datetime.fromisoformat(timestamp)
    except ValueError:
        return None
    return when.astimezone(UTC).replace(tzinfo=None) if when.tzinfo is not None else when


def _naive(value: Any) -> datetime | None:
    if not isinstance(value, datetime):
        return None
    return value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo is not None else value


def estimated_score(cand: Candidate, row: NousRow, now: datetime | None) -> float | None:
    """The score nous sorted `cand` by before the cut, as far as it can be known; None: the entry rank decides."""
    if cand.type not in ("fact", "episode") or cand.entry_score is None:
        return None
    score = cand.entry_score
    for mutation in cand.mutations:
        if mutation.score_after is not None:
            score = mutation.score_after
    if cand.type == "episode":
        started = _naive(row.get("started_at"))
        if now is not None and started is not None:
            age_days = (now - started).total_seconds() / 86400
            score *= max(0.5, 1.0 - (age_days / 60))
    return score


def order_key(cand: Candidate, row: NousRow, now: datetime | None, critic: bool = False) -> tuple[float, int]:
    """Ascending sort key of `cand` in nous's pre-cut order: (−estimated score, entry rank)."""
    rank = cand.entry_rank if cand.entry_rank is not None else 10**9
    if critic:
        return (float("-inf"), rank)
    score = estimated_score(cand, row, now)
    return (0.0 if score is None else -score, rank)
