"""The session's limits and the names it gives sources of values (shared by the session, its views and the TUI)."""

from __future__ import annotations

from pathlib import Path

MIN_BUDGET = 0
MAX_BUDGET = 2_000_000  # tokens: 1M-token context windows exist; the slider's log scale keeps it usable
LOAD_STEPS = 4
THRESHOLD_SECONDS = 5.0
THRESHOLD_SECONDS_LARGE = 2.0
LARGE_FOR_THRESHOLDS = 5000  # entries
SET_HERE = "set here"  # the source of a knob the user changed in the app
CTXRC = ".ctxrc"  # ... and of one read from (or saved to) the project's .ctxrc, as the openers spell it
# Where `ctxtui memory add` writes by default. ctx itself never reads it, so the app offers to join it
# (`Session.memory_db_found`) rather than joining it unasked: the default packet stays ctx's.
PROJECT_MEMORY_DB = Path(".context") / "memory.db"
NOUS = "nous"
OWN_BUDGET = "the turn's own"  # a nous turn's budget source: the sum of its section budgets
