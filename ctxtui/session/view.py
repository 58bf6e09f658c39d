"""One load of the sources (`Loaded`) and the frozen `View` at one budget that owns what derives from it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from ctxtui.deadline import stop_after
from ctxtui.engine.explain.quirks import Quirk, find_quirks
from ctxtui.engine.explain.thresholds import Threshold, thresholds
from ctxtui.engine.model import Plan
from ctxtui.engine.packers.base import Packer
from ctxtui.engine.packers.ctx.assemble import CtxPacker
from ctxtui.engine.sources.ctx_gates import Refusal
from ctxtui.engine.sources.workspace import Workspace
from ctxtui.opening.choose import Choice

if TYPE_CHECKING:
    from ctxtui.opening.history_log import EntryHistory

from ctxtui.session.constants import LARGE_FOR_THRESHOLDS, THRESHOLD_SECONDS, THRESHOLD_SECONDS_LARGE

T = TypeVar("T")


class Loaded:
    """One load of the sources under one packer and its knobs, and what derives from them alone.

    Thresholds are computed at most once per load, in whatever thread asks
    first; a newer load makes an older one `stale`, which cuts its scan short.
    """

    def __init__(
        self,
        generation: int,
        packer: Packer,
        *,
        workspace: Workspace | None = None,
        choice: Choice | None = None,
        refusal: Refusal | None = None,
        budget_source: str = "default",
        made_at: datetime | None = None,
    ) -> None:
        self.generation = generation
        self.made_at = made_at  # the clock the packer read (whole seconds); None: the packer read its own
        self.packer = packer
        self.workspace = workspace
        self.choice = choice
        self.refusal = refusal  # ctx would print this instead of a packet (the screen shows it above)
        self.budget_source = budget_source
        self.entry_count = len(workspace.all_entries()) if workspace is not None else len(packer.candidates())
        self.stale = False
        self._thresholds: dict[str, Threshold] | None = None
        self._lock = threading.Lock()
        # Entries followed through git (`y`), by (budget, key): None while the walk runs, then what it found.
        self.entry_histories: dict[tuple[int, str], EntryHistory | None] = {}

    @property
    def thresholds_ready(self) -> bool:
        return self._thresholds is not None

    def thresholds(self) -> dict[str, Threshold]:
        """Every entry's thresholds (about 0.4 s on ctx-large); {} when this load went stale meanwhile.

        Bounded in time: a workspace of tens of thousands of entries has too
        many change points to scan completely, and each threshold then says how
        far it was examined.
        """
        with self._lock:
            if self._thresholds is None:
                seconds = THRESHOLD_SECONDS if self.entry_count <= LARGE_FOR_THRESHOLDS else THRESHOLD_SECONDS_LARGE
                found = thresholds(self.packer, should_stop=stop_after(seconds, lambda: self.stale))
                if self.stale:
                    return {}
                self._thresholds = found
            return self._thresholds


class View:
    """What the screen shows for one budget of one load; derived values are computed once, on use.

    What a caller derives from a view (the TUI's table rows) is kept with it
    through `memo`, so it lives exactly as long as the view it describes.
    """

    __slots__ = ("__weakref__", "_counts", "_memo", "budget", "budget_source", "loaded", "plan", "real_tokens")

    def __init__(self, loaded: Loaded, budget: int, plan: Plan | None = None, budget_source: str | None = None) -> None:
        self.loaded = loaded
        self.budget = budget
        # Where this budget came from ("flag", "environment", ".ctxrc", "default", "set here"...): the session's
        # word, which a slider step or a save changes without a new load.
        self.budget_source = budget_source if budget_source is not None else loaded.budget_source
        self.plan: Plan = plan if plan is not None else loaded.packer.plan(budget)
        self._counts: dict[str, int] | None = None
        self.real_tokens: int | None = None  # the real tokenizer's count of the Markdown, once a worker has it
        self._memo: dict[str, Any] = {}

    @property
    def generation(self) -> int:
        return self.loaded.generation

    @property
    def packer_name(self) -> str:
        return self.loaded.packer.name

    @property
    def formats(self) -> tuple[str, ...]:
        return self.loaded.packer.formats

    @property
    def markdown(self) -> str:
        return self.plan.render(self.formats[0])

    @property
    def json(self) -> str:
        return self.plan.render("json")

    @property
    def counts(self) -> dict[str, int]:
        if self._counts is None:
            self._counts = self.plan.counts()
        return self._counts

    def memo(self, name: str, build: Callable[[View], T]) -> T:
        """`build(self)`, computed on first use under `name` and kept with this view."""
        try:
            value: T = self._memo[name]
            return value
        except KeyError:
            value = self._memo[name] = build(self)
            return value

    def quirks(self) -> list[Quirk]:
        packer = self.loaded.packer
        return find_quirks(packer, self.plan) if isinstance(packer, CtxPacker) else []

    def same_as(self, other: View | None) -> bool:
        """The same load at the same budget: nothing on screen would change."""
        return other is not None and other.loaded is self.loaded and other.budget == self.budget
